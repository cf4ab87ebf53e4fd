/* SPDX-License-Identifier: MIT */
/* mpi.h must compile as strict C89 (-std=c90 -pedantic-errors): this file
 * is only compiled, and its function is never called. */
#include <mpi.h>

int shmpi_header_c89_check(void);

int shmpi_header_c89_check(void) {
  MPI_Status status;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Op op = MPI_SUM;
  MPI_Offset offset = MPI_DISPLACEMENT_CURRENT;
  status.MPI_SOURCE = MPI_ANY_SOURCE;
  (void)request;
  (void)op;
  (void)offset;
  return status.MPI_SOURCE + MPI_ERR_LASTCODE;
}
