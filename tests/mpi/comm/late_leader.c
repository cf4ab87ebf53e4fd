// SPDX-License-Identifier: MIT
// A new communicator's leader (its member with the lowest world rank) sets
// up the scratch block the others look up at their first collective call
// (MPI_Comm_create_group: during the call itself). Here the leader naps
// before that call, long enough that the others poll, yield and fall
// asleep waiting for the block; its entry in the directory must wake them.
// The MPI tests run with SHMPI_SLEEP_TIMEOUT_MS=0 (no 100 ms safety net), so a
// lost wake-up hangs the test instead of slowing it down.
#include "mpitest.h"

enum { kNapMs = 150 };

// The first collective on `comm` (all of the world), its leader late.
static void first_call_late_leader(MPI_Comm comm, const char* what) {
  const int rank = mt_rank();
  const int size = mt_size();
  if (rank == 0) {
    mt_sleep_ms(kNapMs);
  }
  int sum = 0;
  MT_CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
  MT_CHECK(sum == size * (size - 1) / 2, "%s: allreduce gave %d", what, sum);
}

int main(int argc, char** argv) {
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  const int rank = mt_rank();

  MPI_Comm dup;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  first_call_late_leader(dup, "MPI_Comm_dup");

  MPI_Comm split;  // reversed keys: the leader is world rank 0, ranked last
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &split));
  first_call_late_leader(split, "MPI_Comm_split");

  // MPI_Comm_create_group looks its block up inside the call.
  MPI_Group world_group;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  if (rank == 0) {
    mt_sleep_ms(kNapMs);
  }
  MPI_Comm group_comm;
  MT_CHECK_MPI(
      MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 7, &group_comm));
  first_call_late_leader(group_comm, "MPI_Comm_create_group");

  MT_CHECK_MPI(MPI_Group_free(&world_group));
  MT_CHECK_MPI(MPI_Comm_free(&group_comm));
  MT_CHECK_MPI(MPI_Comm_free(&split));
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  if (rank == 0) {
    printf("late leader: ok\n");
  }
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
