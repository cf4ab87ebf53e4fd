// SPDX-License-Identifier: MIT
// Two duplicates of MPI_COMM_WORLD, mt_comm_a and mt_comm_b, each with a
// user error handler that counts its calls, for tests of which
// communicator an error is raised on (errors/handlers/). MPI_COMM_WORLD
// and MPI_COMM_SELF keep MPI_ERRORS_ARE_FATAL, so an error raised there
// ends the job.
#ifndef SHMPI_TESTS_SUPPORT_MT_COUNTED_HANDLERS_H_
#define SHMPI_TESTS_SUPPORT_MT_COUNTED_HANDLERS_H_

#include "mpitest.h"

static MPI_Comm mt_comm_a = MPI_COMM_NULL;
static MPI_Comm mt_comm_b = MPI_COMM_NULL;
static int mt_calls_a = 0;
static int mt_calls_b = 0;
static int mt_last_code = MPI_SUCCESS;

static inline void mt_counting_handler(MPI_Comm* comm, int* code, ...) {
  if (*comm == mt_comm_a) {
    mt_calls_a++;
  } else if (*comm == mt_comm_b) {
    mt_calls_b++;
  } else {
    MT_FAIL("the handler got neither duplicate");
  }
  mt_last_code = *code;
}

// Creates both duplicates and sets their handlers.
static inline void mt_counted_comms_create(void) {
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &mt_comm_a));
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &mt_comm_b));
  MPI_Errhandler handler;
  MT_CHECK_MPI(MPI_Comm_create_errhandler(mt_counting_handler, &handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(mt_comm_a, handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(mt_comm_b, handler));
  MT_CHECK_MPI(MPI_Errhandler_free(&handler));
}

static inline void mt_counted_comms_free(void) {
  MT_CHECK_MPI(MPI_Comm_free(&mt_comm_a));
  MT_CHECK_MPI(MPI_Comm_free(&mt_comm_b));
}

static inline void mt_expect_class(int rc, int expected, const char* what) {
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(rc, &error_class));
  MT_CHECK(error_class == expected, "%s: class %s, expected %s (%s)", what,
           mt_class_name(error_class), mt_class_name(expected),
           mt_error_string(rc));
}

// Since the last check: the handler of `on` ran once, the other's never,
// and `rc`, the code it saw, is of class `expected`. Resets the counts.
static inline void mt_expect_raised_on(MPI_Comm on, int rc, int expected,
                                       const char* what) {
  const int on_calls = on == mt_comm_a ? mt_calls_a : mt_calls_b;
  const int off_calls = on == mt_comm_a ? mt_calls_b : mt_calls_a;
  MT_CHECK(on_calls == 1 && off_calls == 0,
           "%s: the expected handler ran %d times, the other's %d", what,
           on_calls, off_calls);
  MT_CHECK(rc == mt_last_code, "%s returned %s, the handler saw code %d", what,
           mt_error_string(rc), mt_last_code);
  mt_expect_class(rc, expected, what);
  mt_calls_a = mt_calls_b = 0;
  mt_last_code = MPI_SUCCESS;
}

#endif  // SHMPI_TESTS_SUPPORT_MT_COUNTED_HANDLERS_H_
