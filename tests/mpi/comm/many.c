// SPDX-License-Identifier: MIT
// Many live communicators. MPI 4.0 §7.4.2 puts no bound on their number, but
// each needs a context, and an implementation has finitely many: running
// out must be an error like any other (§9.3: under MPI_ERRORS_RETURN the
// call returns an error code), not a crash, and MPI must go on working.
//
// 1. 2000 dups of MPI_COMM_WORLD live at once; one message on each of them
//    (all in flight together, wildcard receives), and a ring, a gather and
//    the collectives on a few.
// 2. Dups until one fails, MPI_ERRORS_RETURN set on MPI_COMM_WORLD: the
//    failure has class MPI_ERR_OTHER (what MPICH gives) at the same count on
//    every rank, after 2000 to 2046 communicators beyond the predefined
//    ones (shmpi has 2048 context IDs, some of them taken by the predefined
//    communicators; MPICH 4.0.2 stops at 2046, 2048 minus MPI_COMM_WORLD and
//    MPI_COMM_SELF). The communicators made so
//    far and MPI_COMM_WORLD still work.
// 3. All freed, 2000 made again, used, freed.
#include "mt_comm.h"

enum { kLive = 2000, kMinTotal = 2000, kMaxTotal = 2046, kGiveUp = 4096 };

static int rank;
static int size;
static int world_members[kMtMaxMembers];

// One message on each of comms[0..n), all in flight at once: each rank
// posts a wildcard receive on every communicator, then sends to its right
// neighbour on each, last communicator first.
static void message_on_each(MPI_Comm* comms, int n, int round) {
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int* in = mt_malloc(sizeof(int) * 2 * (size_t)n);
  int* out = mt_malloc(sizeof(int) * 2 * (size_t)n);
  MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
  MPI_Status* statuses = mt_malloc(sizeof(MPI_Status) * 2 * (size_t)n);
  for (int i = 0; i < n; ++i) {
    in[2 * i] = in[2 * i + 1] = -1;
    MPI_Irecv(&in[2 * i], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[i],
              &reqs[i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    out[2 * i] = i * 4 + round;
    out[2 * i + 1] = rank;
    MPI_Isend(&out[2 * i], 2, MPI_INT, right, 11, comms[i], &reqs[n + i]);
  }
  MPI_Waitall(2 * n, reqs, statuses);
  for (int i = 0; i < n; ++i) {
    MT_CHECK(in[2 * i] == i * 4 + round && in[2 * i + 1] == left &&
                 statuses[i].MPI_SOURCE == left && statuses[i].MPI_TAG == 11,
             "round %d: communicator %d of %d got the message meant for "
             "communicator %d (from world rank %d, source %d tag %d)",
             round, i, n, (in[2 * i] - round) / 4, in[2 * i + 1],
             statuses[i].MPI_SOURCE, statuses[i].MPI_TAG);
  }
  // No rank goes on to other traffic on these communicators while another
  // still has wildcard receives posted on them.
  MPI_Barrier(MPI_COMM_WORLD);
  free(statuses);
  free(reqs);
  free(out);
  free(in);
}

static void make_live(MPI_Comm* comms, int n, const char* what) {
  for (int i = 0; i < n; ++i) {
    const int rc = MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
    MT_CHECK(rc == MPI_SUCCESS, "%s: MPI_Comm_dup number %d failed: %s", what,
             i + 1, mt_error_string(rc));
  }
}

static void use_a_few(MPI_Comm* comms, int n, int token) {
  const int picks[3] = {0, n / 2, n - 1};
  for (int p = 0; p < 3; ++p) {
    MT_CHECK_P2P(comms[picks[p]], world_members, size, 3, token + p,
                 "one of many communicators");
  }
  MT_CHECK_COLLECTIVES(comms[n - 1], world_members, size,
                       "the last of many communicators");
}

static void free_all(MPI_Comm* comms, int n) {
  for (int i = 0; i < n; ++i) {
    const int rc = MPI_Comm_free(&comms[i]);
    MT_CHECK(rc == MPI_SUCCESS && comms[i] == MPI_COMM_NULL,
             "MPI_Comm_free of communicator %d: %s", i, mt_error_string(rc));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  for (int i = 0; i < size; ++i) {
    world_members[i] = i;
  }
  MPI_Comm* comms = mt_malloc(sizeof(MPI_Comm) * kGiveUp);

  // 1. 2000 live at once.
  make_live(comms, kLive, "first 2000");
  message_on_each(comms, kLive, 0);
  use_a_few(comms, kLive, 100);

  // 2. Until creation fails.
  int total = kLive;
  int rc = MPI_SUCCESS;
  while (total < kGiveUp) {
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &comms[total]);
    if (rc != MPI_SUCCESS) {
      break;
    }
    ++total;
  }
  MT_CHECK(rc != MPI_SUCCESS, "%d communicators and MPI_Comm_dup still works",
           total);
  int error_class = -1;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_OTHER,
           "MPI_Comm_dup number %d failed with class %s (%d), expected "
           "MPI_ERR_OTHER; %s",
           total + 1, mt_class_name(error_class), error_class,
           mt_error_string(rc));
  MT_CHECK(total >= kMinTotal && total <= kMaxTotal,
           "MPI_Comm_dup failed after %d communicators, expected %d to %d",
           total, kMinTotal, kMaxTotal);
  int range[2] = {-total, total};
  MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MT_CHECK(-range[0] == total && range[1] == total,
           "MPI_Comm_dup failed after %d to %d communicators depending on the "
           "rank",
           -range[0], range[1]);
  // Everything made so far, and MPI_COMM_WORLD, still work.
  MT_CHECK_P2P(MPI_COMM_WORLD, world_members, size, 3, 200,
               "MPI_COMM_WORLD after running out");
  MT_CHECK_COLLECTIVES(MPI_COMM_WORLD, world_members, size,
                       "MPI_COMM_WORLD after running out");
  message_on_each(comms, total, 1);
  use_a_few(comms, total, 300);

  // 3. Free all, make 2000 again.
  free_all(comms, total);
  make_live(comms, kLive, "2000 after freeing all");
  message_on_each(comms, kLive, 2);
  use_a_few(comms, kLive, 400);
  free_all(comms, kLive);
  free(comms);
  MPI_Finalize();
  return 0;
}
