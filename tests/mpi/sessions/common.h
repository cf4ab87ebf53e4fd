// SPDX-License-Identifier: MIT
// Helpers of the sessions tests: a communicator over a process set, and a
// check that it carries point-to-point and collective traffic.
#ifndef SHMPI_TESTS_MPI_SESSIONS_COMMON_H_
#define SHMPI_TESTS_MPI_SESSIONS_COMMON_H_

#include "mpitest.h"

static inline void st_expect_world_model(int initialized, int finalized) {
  int flag = -1;
  MT_CHECK_MPI(MPI_Initialized(&flag));
  MT_CHECK(flag == initialized, "MPI_Initialized says %d, expected %d", flag,
           initialized);
  MT_CHECK_MPI(MPI_Finalized(&flag));
  MT_CHECK(flag == finalized, "MPI_Finalized says %d, expected %d", flag,
           finalized);
}

// The communicator of process set `pset` made with `tag`.
static inline MPI_Comm st_comm_of(MPI_Session session, const char* pset,
                                  const char* tag) {
  MPI_Group group = MPI_GROUP_NULL;
  MT_CHECK_MPI(MPI_Group_from_session_pset(session, pset, &group));
  MPI_Comm comm = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL,
                                          MPI_ERRORS_RETURN, &comm));
  MT_CHECK(comm != MPI_COMM_NULL, "no communicator for %s", pset);
  MT_CHECK_MPI(MPI_Group_free(&group));
  return comm;
}

// A ring exchange and an allreduce of `base + rank`: both must see the
// communicator's own members only.
static inline void st_exercise(MPI_Comm comm, int base) {
  int rank = 0;
  int size = 0;
  MT_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  MT_CHECK_MPI(MPI_Comm_size(comm, &size));
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  int out = base + rank;
  int in = -1;
  MT_CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, next, 7, &in, 1, MPI_INT, prev, 7,
                            comm, MPI_STATUS_IGNORE));
  MT_CHECK(in == base + prev, "ring: got %d from rank %d, expected %d", in,
           prev, base + prev);
  int sum = 0;
  MT_CHECK_MPI(MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, comm));
  const int expected = base * size + size * (size - 1) / 2;
  MT_CHECK(sum == expected, "allreduce: %d, expected %d", sum, expected);
  MT_CHECK_MPI(MPI_Barrier(comm));
}

#endif  // SHMPI_TESTS_MPI_SESSIONS_COMMON_H_
