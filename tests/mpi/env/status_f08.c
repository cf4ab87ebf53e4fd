// SPDX-License-Identifier: MIT
// MPI 4.0 §19.3.5: a status converted to TYPE(MPI_Status) (MPI_F08_status)
// and on to the INTEGER array and back keeps its source, tag, error, count
// and cancelled flag, through every chain of MPI_Status_c2f08,
// MPI_Status_f082c, MPI_Status_f082f and MPI_Status_f2f08; the
// status-ignore constants are errors (shmpi: MPI_ERR_ARG).
#include "mt_status.h"

static void check_f08_fields(const MPI_F08_status* f08,
                             const MPI_Status* expected, const char* chain) {
  MT_CHECK(f08->MPI_SOURCE == expected->MPI_SOURCE &&
               f08->MPI_TAG == expected->MPI_TAG &&
               f08->MPI_ERROR == expected->MPI_ERROR,
           "%s: source %d tag %d error %d", chain, (int)f08->MPI_SOURCE,
           (int)f08->MPI_TAG, (int)f08->MPI_ERROR);
}

static void check_conversions_of(const MPI_Status* original) {
  MPI_F08_status f08;
  MPI_F08_status f08_again;
  MPI_Fint f[MPI_F_STATUS_SIZE];
  MPI_Status back;

  MT_ASSERT(MPI_Status_c2f08(original, &f08) == MPI_SUCCESS);
  check_f08_fields(&f08, original, "c2f08");
  MT_ASSERT(MPI_Status_f082c(&f08, &back) == MPI_SUCCESS);
  mt_check_same_status(&back, original, "c2f08, f082c");

  MT_ASSERT(MPI_Status_f082f(&f08, f) == MPI_SUCCESS);
  MT_CHECK(f[MPI_F_SOURCE] == original->MPI_SOURCE &&
               f[MPI_F_TAG] == original->MPI_TAG &&
               f[MPI_F_ERROR] == original->MPI_ERROR,
           "f082f: source %d tag %d error %d", (int)f[MPI_F_SOURCE],
           (int)f[MPI_F_TAG], (int)f[MPI_F_ERROR]);
  MT_ASSERT(MPI_Status_f2c(f, &back) == MPI_SUCCESS);
  mt_check_same_status(&back, original, "c2f08, f082f, f2c");

  MT_ASSERT(MPI_Status_f2f08(f, &f08_again) == MPI_SUCCESS);
  check_f08_fields(&f08_again, original, "c2f08, f082f, f2f08");
  MT_ASSERT(MPI_Status_f082c(&f08_again, &back) == MPI_SUCCESS);
  mt_check_same_status(&back, original, "c2f08, f082f, f2f08, f082c");

  MT_ASSERT(MPI_Status_c2f(original, f) == MPI_SUCCESS);
  MT_ASSERT(MPI_Status_f2f08(f, &f08_again) == MPI_SUCCESS);
  MT_ASSERT(MPI_Status_f082c(&f08_again, &back) == MPI_SUCCESS);
  mt_check_same_status(&back, original, "c2f, f2f08, f082c");
}

static void check_ignore_is_an_error(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Fint f[MPI_F_STATUS_SIZE] = {0};
  MPI_F08_status f08;
  MPI_Status status;
  memset(&f08, 0, sizeof f08);
  memset(&status, 0, sizeof status);
  int codes[] = {
      MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08),
      MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &status),
      MPI_Status_f082f(MPI_F08_STATUS_IGNORE, f),
      MPI_Status_f2f08(MPI_F_STATUS_IGNORE, &f08),
  };
  for (int i = 0; i < (int)(sizeof codes / sizeof codes[0]); ++i) {
    int error_class = -1;
    MPI_Error_class(codes[i], &error_class);
    MT_CHECK(error_class == MPI_ERR_ARG, "conversion %d: %s", i,
             mt_error_string(codes[i]));
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;

  // A real receive of 3 doubles, with an error field of our own.
  double out[3] = {1.5, 2.5, 3.5};
  double in[4];
  MPI_Request request;
  MPI_Isend(out, 3, MPI_DOUBLE, next, 21, MPI_COMM_WORLD, &request);
  MPI_Status status;
  MPI_Recv(in, 4, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
           &status);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MT_CHECK(status.MPI_SOURCE == prev && status.MPI_TAG == 21,
           "receive: source %d tag %d", status.MPI_SOURCE, status.MPI_TAG);
  status.MPI_ERROR = MPI_ERR_COUNT;
  check_conversions_of(&status);

  // A count that needs more than 32 bits, cancelled.
  MPI_Status big = status;
  MPI_Status_set_elements_x(&big, MPI_BYTE, (MPI_Count)3 << 32 | 5);
  MPI_Status_set_cancelled(&big, 1);
  check_conversions_of(&big);

  check_ignore_is_an_error();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("status_f08: ok\n");
  }
  MPI_Finalize();
  return 0;
}
