// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_IDUP is the nonblocking MPI_COMM_DUP, for
// intercommunicators too; "the new communicator may be used only after the
// request completes". §6.12: several nonblocking collectives may be
// outstanding on one communicator, started in the same order by all its
// processes. §7.4.3: MPI_COMM_FREE marks the communicator for deallocation;
// pending operations that use it complete normally.
//
// On the even/odd intercommunicator of MPI_COMM_WORLD (unequal groups at odd
// rank counts), each check started by the even group before a barrier on
// MPI_COMM_WORLD and by the odd group after it, so no call may wait for the
// other group:
//  1. Four outstanding at once, in the same order everywhere: idup,
//     idup_with_info (info freed at once), an ibarrier on the parent, idup;
//     one MPI_Waitall.
//  2. More idups outstanding at once than one agreement hands out.
//  3. The parent freed after MPI_Comm_idup, before the wait (both groups
//     in the same order: MPI_Comm_free is collective).
//  4. A blocking collective on the parent after MPI_Comm_idup, before the
//     wait (both groups in the same order).
// Every new intercommunicator has the parent's groups, is congruent with
// it, carries point-to-point and collective traffic, and got the parent's
// attribute through its copy callback, run once per idup.
#include "mt_comm.h"

static int rank;
static int size;
static int side;  // 0: even world ranks, 1: odd ones
static int sides[2][kMtMaxMembers];
static int side_size[2];
static int copies;  // copy callback runs on this process

static int counting_copy(MPI_Comm comm, int keyval, void* extra_state,
                         void* value_in, void* value_out, int* flag) {
  (void)comm;
  (void)keyval;
  (void)extra_state;
  copies++;
  *(void**)value_out = (char*)value_in + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

// The even group starts its calls, then both pass a barrier on
// MPI_COMM_WORLD; the odd group starts them after it.
static void barrier_between_groups(int starting_side) {
  if (side != starting_side) {
    MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  }
}

static void check_new(MPI_Comm parent, MPI_Comm* comm, int keyval,
                      const char* base, int token, const char* what) {
  const int other = 1 - side;
  MT_CHECK(*comm != MPI_COMM_NULL && *comm != parent, "%s: no new communicator",
           what);
  MT_CHECK_INTER(*comm, sides[side], side_size[side], sides[other],
                 side_size[other], what);
  MT_CHECK_COMPARE(parent, *comm, MPI_CONGRUENT, what);
  void* value = NULL;
  int found = 0;
  MT_CHECK_MPI(MPI_Comm_get_attr(*comm, keyval, &value, &found));
  MT_CHECK(found && value == base + 1,
           "%s: attribute %s (found %d), expected the copy callback's", what,
           value == base ? "the parent's value" : "wrong", found);
  MT_CHECK_INTER_P2P(*comm, sides[other], side_size[other], 10, token, what);
  // Collectives: each group gets the sum of the other group's world ranks.
  int sum = -1;
  int expected = 0;
  for (int i = 0; i < side_size[other]; ++i) {
    expected += sides[other][i];
  }
  MT_CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, *comm));
  MT_CHECK(sum == expected, "%s: allreduce gave %d, expected %d", what, sum,
           expected);
  int root_value = side == 0 && rank == 0 ? token : -1;
  const int root = side == 0 ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MT_CHECK_MPI(MPI_Bcast(&root_value, 1, MPI_INT, root, *comm));
  MT_CHECK(side == 0 || root_value == token,
           "%s: bcast from the even group's rank 0 gave %d, expected %d", what,
           root_value, token);
  MT_CHECK_MPI(MPI_Barrier(*comm));
  MT_CHECK_MPI(MPI_Comm_free(comm));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  if (size < 2) {
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  side = rank % 2;
  for (int r = 0; r < size; ++r) {
    sides[r % 2][side_size[r % 2]++] = r;
  }
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &local));
  MT_CHECK_MPI(
      MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - side, 7, &inter));
  static char base[2];
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(counting_copy, MPI_COMM_NULL_DELETE_FN,
                                      &keyval, NULL));
  MT_CHECK_MPI(MPI_Comm_set_attr(inter, keyval, base));

  // 1. Four outstanding, one of them a collective on the parent.
  {
    MPI_Info info;
    MT_CHECK_MPI(MPI_Info_create(&info));
    MT_CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"));
    MT_CHECK_MPI(MPI_Info_set(info, "shmpi_test_unknown_key", "ignored"));
    MPI_Comm dups[3] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
    MPI_Request reqs[4];
    barrier_between_groups(0);
    MT_CHECK_MPI(MPI_Comm_idup(inter, &dups[0], &reqs[0]));
    MT_CHECK_MPI(MPI_Comm_idup_with_info(inter, info, &dups[1], &reqs[1]));
    MT_CHECK_MPI(MPI_Info_free(&info));
    MT_CHECK_MPI(MPI_Ibarrier(inter, &reqs[2]));
    MT_CHECK_MPI(MPI_Comm_idup(inter, &dups[2], &reqs[3]));
    barrier_between_groups(1);
    MPI_Status statuses[4];
    MT_CHECK_MPI(MPI_Waitall(4, reqs, statuses));
    MT_CHECK(copies == 3, "%d copy callback runs for 3 idups", copies);
    MT_CHECK_COMPARE(dups[0], dups[1], MPI_CONGRUENT, "two idups");
    check_new(inter, &dups[0], keyval, base, 1, "first of four outstanding");
    check_new(inter, &dups[1], keyval, base, 2,
              "MPI_Comm_idup_with_info, second of four outstanding");
    check_new(inter, &dups[2], keyval, base, 3, "last of four outstanding");
  }

  // 2. More outstanding than one agreement gives out (a batch of IDs).
  {
    enum { kMany = 40 };
    MPI_Comm dups[kMany];
    MPI_Request reqs[kMany];
    copies = 0;
    barrier_between_groups(0);
    for (int i = 0; i < kMany; ++i) {
      MT_CHECK_MPI(MPI_Comm_idup(inter, &dups[i], &reqs[i]));
    }
    barrier_between_groups(1);
    static MPI_Status statuses[kMany + kMany * kMtMaxMembers];
    MT_CHECK_MPI(MPI_Waitall(kMany, reqs, statuses));
    MT_CHECK(copies == kMany, "%d copy callback runs for %d idups", copies,
             kMany);
    // Traffic on all of them at once, the latest first: each message stays
    // on its communicator.
    const int other = 1 - side;
    const int nr = side_size[other];
    int in[kMany];
    static MPI_Request traffic[kMany + kMany * kMtMaxMembers];
    for (int i = 0; i < kMany; ++i) {
      in[i] = -1;
      MT_CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, rank / 2 % nr, 0, dups[i],
                             &traffic[i]));
    }
    int tokens[kMany];
    int sends = 0;
    for (int i = kMany - 1; i >= 0; --i) {
      tokens[i] = 1000 + i;
      // Remote rank j receives from local rank j % (this group's size).
      for (int j = 0; j < nr; ++j) {
        if (j % side_size[side] == rank / 2) {
          MT_CHECK_MPI(MPI_Isend(&tokens[i], 1, MPI_INT, j, 0, dups[i],
                                 &traffic[kMany + sends++]));
        }
      }
    }
    for (int i = 0; i < kMany; ++i) {
      MT_CHECK_MPI(MPI_Wait(&traffic[i], MPI_STATUS_IGNORE));
      MT_CHECK(in[i] == 1000 + i, "idup %d of %d received %d, expected %d", i,
               kMany, in[i], 1000 + i);
    }
    MT_CHECK_MPI(MPI_Waitall(sends, traffic + kMany, statuses));
    for (int i = 0; i < kMany; ++i) {
      MT_CHECK_MPI(MPI_Barrier(dups[i]));
      MT_CHECK_MPI(MPI_Comm_free(&dups[i]));
    }
  }

  // 3. The parent freed while its idup is pending.
  {
    MPI_Comm parent = MPI_COMM_NULL;
    MT_CHECK_MPI(MPI_Comm_dup(inter, &parent));
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    copies = 0;
    MT_CHECK_MPI(MPI_Comm_idup(parent, &dup, &req));
    MT_CHECK_MPI(MPI_Comm_free(&parent));
    MT_CHECK(parent == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK(copies == 1, "%d copy callback runs for 1 idup", copies);
    check_new(inter, &dup, keyval, base + 1, 4, "idup of a freed parent");
  }

  // 4. A blocking collective on the parent while its idup is pending.
  {
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    MT_CHECK_MPI(MPI_Comm_idup(inter, &dup, &req));
    int sum = -1;
    int expected = 0;
    for (int i = 0; i < side_size[1 - side]; ++i) {
      expected += sides[1 - side][i];
    }
    MT_CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter));
    MT_CHECK(sum == expected,
             "allreduce on the parent of a pending idup gave %d, expected %d",
             sum, expected);
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_new(inter, &dup, keyval, base, 5,
              "idup with a blocking collective on the parent before the wait");
  }

  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MT_CHECK_MPI(MPI_Comm_free(&inter));
  MT_CHECK_MPI(MPI_Comm_free(&local));
  MPI_Finalize();
  return 0;
}
