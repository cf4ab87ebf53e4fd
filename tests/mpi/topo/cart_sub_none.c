// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.7: MPI_CART_SUB "partition[s] a communicator into subgroups
// that form lower-dimensional Cartesian subgrids, and ... build[s] for each
// subgroup a communicator"; "If all entries in remain_dims are false or
// comm is already associated with a zero-dimensional Cartesian topology
// then newcomm is associated with a zero-dimensional Cartesian topology."
//
// Dropping every dimension leaves each process alone in its subgrid: every
// process gets a communicator of size 1 with zero dimensions, in which it
// is rank 0. MPICH 4.0.2 gives MPI_COMM_NULL on every rank but 0
// (pmodels/mpich#7832, fixed by #7837).
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  int dims[2] = {0, 0};
  const int periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  const int remain[2] = {0, 0};
  MPI_Comm sub = MPI_COMM_NULL;
  MPI_Cart_sub(cart, remain, &sub);
  MT_CHECK(sub != MPI_COMM_NULL, "rank %d got MPI_COMM_NULL", rank);
  int status = MPI_UNDEFINED, sub_size = 0, sub_rank = -1, ndims = -1;
  MPI_Topo_test(sub, &status);
  MPI_Comm_size(sub, &sub_size);
  MPI_Comm_rank(sub, &sub_rank);
  MPI_Cartdim_get(sub, &ndims);
  MT_CHECK(status == MPI_CART && sub_size == 1 && sub_rank == 0 && ndims == 0,
           "kind %d size %d rank %d ndims %d", status, sub_size, sub_rank,
           ndims);
  // And again from the zero-dimensional communicator.
  MPI_Comm again = MPI_COMM_NULL;
  MPI_Cart_sub(sub, remain, &again);
  MT_CHECK(again != MPI_COMM_NULL, "second Cart_sub: MPI_COMM_NULL");
  MPI_Comm_size(again, &sub_size);
  MPI_Cartdim_get(again, &ndims);
  MT_CHECK(sub_size == 1 && ndims == 0, "second Cart_sub: size %d ndims %d",
           sub_size, ndims);
  MPI_Comm_free(&again);
  MPI_Comm_free(&sub);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  if (rank == 0) {
    printf("cart_sub_none: ok\n");
  }
  return 0;
}
