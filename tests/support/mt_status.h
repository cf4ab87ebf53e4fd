// SPDX-License-Identifier: MIT
// Whether two statuses answer every query alike, for the tests of the
// status conversions (tests/mpi/env). Plain C11 over standard MPI.
#ifndef SHMPI_TESTS_SUPPORT_MT_STATUS_H_
#define SHMPI_TESTS_SUPPORT_MT_STATUS_H_

#include "mpitest.h"

// `status` (after the conversion chain `chain`) has the public fields of
// `expected`, and MPI_Get_count, MPI_Get_elements_x and MPI_Test_cancelled
// give the same answers for both.
static inline void mt_check_same_status(const MPI_Status* status,
                                        const MPI_Status* expected,
                                        const char* chain) {
  MT_CHECK(status->MPI_SOURCE == expected->MPI_SOURCE &&
               status->MPI_TAG == expected->MPI_TAG &&
               status->MPI_ERROR == expected->MPI_ERROR,
           "%s: source %d tag %d error %d, expected %d %d %d", chain,
           status->MPI_SOURCE, status->MPI_TAG, status->MPI_ERROR,
           expected->MPI_SOURCE, expected->MPI_TAG, expected->MPI_ERROR);
  MPI_Datatype types[] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};
  for (int i = 0; i < 3; ++i) {
    int got = -2;
    int want = -3;
    MPI_Get_count(status, types[i], &got);
    MPI_Get_count(expected, types[i], &want);
    MT_CHECK(got == want, "%s: MPI_Get_count %d, expected %d (type %d)", chain,
             got, want, i);
    MPI_Count got_x = -2;
    MPI_Count want_x = -3;
    MPI_Get_elements_x(status, types[i], &got_x);
    MPI_Get_elements_x(expected, types[i], &want_x);
    MT_CHECK(got_x == want_x, "%s: MPI_Get_elements_x %lld, expected %lld",
             chain, (long long)got_x, (long long)want_x);
  }
  int got_flag = -1;
  int want_flag = -2;
  MPI_Test_cancelled(status, &got_flag);
  MPI_Test_cancelled(expected, &want_flag);
  MT_CHECK(got_flag == want_flag, "%s: cancelled %d, expected %d", chain,
           got_flag, want_flag);
}

#endif  // SHMPI_TESTS_SUPPORT_MT_STATUS_H_
