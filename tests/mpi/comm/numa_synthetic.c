// SPDX-License-Identifier: MIT
// NUMA communicators on a machine with several NUMA nodes, simulated: the
// manifest runs this under HWLOC_SYNTHETIC, so shmpirun places rank r on
// core r mod CORES of the synthetic machine (cores numbered node by node,
// NODES nodes of equal size) and records that core's NUMA node, without
// binding. Arguments: NODES CORES. Checked on MPI_COMM_WORLD and on a parity
// split (keys in rank order):
// - MPI_Comm_split_type MPI_COMM_TYPE_HW_GUIDED "NUMANode" and
//   MPI_COMM_TYPE_HW_UNGUIDED give the members on the caller's node
//   (unguided: MPI_COMM_NULL when that is the whole parent);
// - shmpi_comm_numa_subcomms gives that same intranode communicator and, on
//   the lowest member of each node, the internode communicator of those
//   lowest members.
// shmpi-only: the placement comes from shmpirun and hwloc's variable.
#include <shmpi.h>
#include <stdlib.h>

#include "mt_comm.h"

static int nodes;
static int cores;

// The synthetic NUMA node of a world rank, as shmpirun --bind-to core
// places it.
static int node_of(int world_rank) {
  return (world_rank % cores) / (cores / nodes);
}

static void check_parent(MPI_Comm parent, const char* what) {
  int members[kMtMaxMembers];
  const int n = mt_comm_world_ranks(parent, members);
  const int me = mt_rank();
  int same[kMtMaxMembers];  // parent members on my node, in parent order
  int ns = 0;
  int leaders[kMtMaxMembers];  // lowest world rank of each node
  int nl = 0;
  for (int i = 0; i < n; ++i) {
    if (node_of(members[i]) == node_of(me)) {
      same[ns++] = members[i];
    }
    int lowest = 1;
    for (int j = 0; j < n; ++j) {
      if (node_of(members[j]) == node_of(members[i]) &&
          members[j] < members[i]) {
        lowest = 0;
      }
    }
    if (lowest) {
      leaders[nl++] = members[i];
    }
  }
  int parent_rank = -1;
  MPI_Comm_rank(parent, &parent_rank);

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_hw_resource_type", "NUMANode");
  MPI_Comm guided = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_GUIDED, parent_rank,
                                   info, &guided));
  MPI_Info_free(&info);
  MT_CHECK_MEMBERS(guided, same, ns, what);
  MT_CHECK_P2P(guided, same, ns, 3, 11, what);
  MT_CHECK_COLLECTIVES(guided, same, ns, what);
  MPI_Comm_free(&guided);

  MPI_Comm unguided = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_UNGUIDED,
                                   parent_rank, MPI_INFO_NULL, &unguided));
  if (ns == n) {
    MT_CHECK(unguided == MPI_COMM_NULL,
             "%s: HW_UNGUIDED on a parent within one node gave a communicator",
             what);
  } else {
    MT_CHECK_MEMBERS(unguided, same, ns, what);
    MPI_Comm_free(&unguided);
  }

  MPI_Comm intra = MPI_COMM_NULL;
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(shmpi_comm_numa_subcomms(parent, &intra, &inter));
  MT_CHECK_MEMBERS(intra, same, ns, what);
  MT_CHECK_COLLECTIVES(intra, same, ns, what);
  const int is_leader = same[0] == me;
  MT_CHECK(is_leader == (inter != MPI_COMM_NULL),
           "%s: world rank %d %s a node leader but internode is %s", what, me,
           is_leader ? "is" : "is not",
           inter == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
  if (is_leader) {
    MT_CHECK_MEMBERS(inter, leaders, nl, what);
    MT_CHECK_COLLECTIVES(inter, leaders, nl, what);
  }
  MPI_Barrier(parent);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(argc == 3, "usage: numa_synthetic NODES CORES");
  nodes = atoi(argv[1]);
  cores = atoi(argv[2]);
  MT_CHECK(nodes > 0 && cores >= nodes && cores % nodes == 0,
           "%d nodes of equal size cannot hold %d cores", nodes, cores);
  MT_CHECK(mt_size() <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  check_parent(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, mt_rank() % 2, mt_rank(), &half);
  check_parent(half, "parity split");
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
