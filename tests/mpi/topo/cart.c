// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.1: "MPI_CART_CREATE returns a handle to a new communicator
// to which the Cartesian topology information is attached ... If the total
// size of the Cartesian grid is smaller than the size of the group of
// comm_old, then some processes are returned MPI_COMM_NULL"; §8.5.5 and
// §8.5.6: the queries, MPI_CART_RANK and MPI_CART_COORDS (row-major
// numbering), MPI_CART_SHIFT (MPI_PROC_NULL off a non-periodic edge);
// §8.5.7: MPI_CART_SUB and MPI_CART_MAP.
//
// For grids of 1 to 3 dimensions, periodic and not, over all processes
// and over fewer: every query against the row-major rule, a round trip
// through Cart_rank and Cart_coords for every rank, every shift by -2..2,
// every sub-grid that keeps a dimension, a dup, and a ring of messages
// along each dimension.
#include "mpitest.h"

// Coordinates of `rank` in the grid, row-major (the last dimension varies
// fastest).
static void coords_of(int rank, int ndims, const int* dims, int* coords) {
  for (int d = ndims - 1; d >= 0; --d) {
    coords[d] = rank % dims[d];
    rank /= dims[d];
  }
}

static int rank_of(int ndims, const int* dims, const int* coords) {
  int rank = 0;
  for (int d = 0; d < ndims; ++d) {
    rank = rank * dims[d] + coords[d];
  }
  return rank;
}

// The expected neighbour `disp` steps along `dim`, or MPI_PROC_NULL.
static int expected_step(int rank, int ndims, const int* dims,
                         const int* periods, int dim, int disp) {
  int c[3];
  coords_of(rank, ndims, dims, c);
  int moved = c[dim] + disp;
  if (moved < 0 || moved >= dims[dim]) {
    if (!periods[dim]) {
      return MPI_PROC_NULL;
    }
    moved = ((moved % dims[dim]) + dims[dim]) % dims[dim];
  }
  c[dim] = moved;
  return rank_of(ndims, dims, c);
}

static void check_queries(MPI_Comm cart, int ndims, const int* dims,
                          const int* periods, int nodes) {
  int status = MPI_UNDEFINED;
  MPI_Topo_test(cart, &status);
  MT_CHECK(status == MPI_CART, "Topo_test gave %d", status);
  int size = 0, rank = -1;
  MPI_Comm_size(cart, &size);
  MPI_Comm_rank(cart, &rank);
  MT_CHECK(size == nodes, "size %d, grid of %d", size, nodes);
  MT_CHECK(rank == mt_rank(), "rank %d became %d", mt_rank(), rank);
  int got_ndims = -1;
  MPI_Cartdim_get(cart, &got_ndims);
  MT_CHECK(got_ndims == ndims, "Cartdim_get %d, want %d", got_ndims, ndims);

  int gdims[3] = {-1, -1, -1}, gperiods[3] = {-1, -1, -1};
  int gcoords[3] = {-1, -1, -1}, want[3];
  MPI_Cart_get(cart, 3, gdims, gperiods, gcoords);
  coords_of(rank, ndims, dims, want);
  for (int d = 0; d < ndims; ++d) {
    MT_CHECK(gdims[d] == dims[d] && (gperiods[d] != 0) == (periods[d] != 0) &&
                 gcoords[d] == want[d],
             "Cart_get dim %d: %d %d %d, want %d %d %d", d, gdims[d],
             gperiods[d], gcoords[d], dims[d], periods[d], want[d]);
  }

  for (int r = 0; r < size; ++r) {
    int c[3] = {-1, -1, -1};
    MPI_Cart_coords(cart, r, 3, c);
    coords_of(r, ndims, dims, want);
    for (int d = 0; d < ndims; ++d) {
      MT_CHECK(c[d] == want[d], "Cart_coords(%d)[%d] = %d, want %d", r, d, c[d],
               want[d]);
    }
    int back = -1;
    MPI_Cart_rank(cart, c, &back);
    MT_CHECK(back == r, "Cart_rank(Cart_coords(%d)) = %d", r, back);
    // Periodic dimensions wrap: a whole turn further is the same rank.
    int around[3];
    for (int d = 0; d < ndims; ++d) {
      around[d] = periods[d] ? c[d] - 2 * dims[d] : c[d];
    }
    MPI_Cart_rank(cart, around, &back);
    MT_CHECK(back == r, "Cart_rank wrapped for %d gave %d", r, back);
  }

  for (int d = 0; d < ndims; ++d) {
    for (int disp = -2; disp <= 2; ++disp) {
      int source = -7, dest = -7;
      MPI_Cart_shift(cart, d, disp, &source, &dest);
      const int want_dest = expected_step(rank, ndims, dims, periods, d, disp);
      const int want_source =
          expected_step(rank, ndims, dims, periods, d, -disp);
      MT_CHECK(source == want_source && dest == want_dest,
               "Cart_shift(dim %d, disp %d) = %d, %d, want %d, %d", d, disp,
               source, dest, want_source, want_dest);
    }
  }
}

// A message to the +1 neighbour along each dimension, from the -1 one.
static void check_traffic(MPI_Comm cart, int ndims) {
  int rank = -1;
  MPI_Comm_rank(cart, &rank);
  for (int d = 0; d < ndims; ++d) {
    int source = MPI_PROC_NULL, dest = MPI_PROC_NULL;
    MPI_Cart_shift(cart, d, 1, &source, &dest);
    int got = -5;
    MPI_Status st;
    MPI_Sendrecv(&rank, 1, MPI_INT, dest, 10 + d, &got, 1, MPI_INT, source,
                 10 + d, cart, &st);
    if (source == MPI_PROC_NULL) {
      MT_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL source");
    } else {
      MT_CHECK(got == source, "dim %d: got %d from %d", d, got, source);
    }
  }
}

// Every sub-grid: the kept dimensions, row-major among themselves.
static void check_subs(MPI_Comm cart, int ndims, const int* dims,
                       const int* periods) {
  int rank = -1;
  MPI_Comm_rank(cart, &rank);
  int c[3];
  coords_of(rank, ndims, dims, c);
  // mask 0, every dimension dropped, is in cart_sub_none.c: MPICH 4.0.2
  // gets it wrong.
  for (int mask = 1; mask < (1 << ndims); ++mask) {
    int remain[3], sub_dims[3], sub_periods[3], sub_coords[3];
    int sub_ndims = 0, sub_nodes = 1;
    for (int d = 0; d < ndims; ++d) {
      remain[d] = (mask >> d) & 1;
      if (remain[d]) {
        sub_dims[sub_ndims] = dims[d];
        sub_periods[sub_ndims] = periods[d];
        sub_coords[sub_ndims] = c[d];
        sub_nodes *= dims[d];
        ++sub_ndims;
      }
    }
    MPI_Comm sub = MPI_COMM_NULL;
    MPI_Cart_sub(cart, remain, &sub);
    MT_CHECK(sub != MPI_COMM_NULL, "Cart_sub mask %d gave MPI_COMM_NULL", mask);
    int status = MPI_UNDEFINED, size = 0, sub_rank = -1, got_ndims = -1;
    MPI_Topo_test(sub, &status);
    MPI_Comm_size(sub, &size);
    MPI_Comm_rank(sub, &sub_rank);
    MPI_Cartdim_get(sub, &got_ndims);
    MT_CHECK(status == MPI_CART && size == sub_nodes && got_ndims == sub_ndims,
             "Cart_sub mask %d: kind %d size %d ndims %d", mask, status, size,
             got_ndims);
    MT_CHECK(sub_rank == rank_of(sub_ndims, sub_dims, sub_coords),
             "Cart_sub mask %d: rank %d", mask, sub_rank);
    if (sub_ndims > 0) {
      int gdims[3], gperiods[3], gcoords[3];
      MPI_Cart_get(sub, 3, gdims, gperiods, gcoords);
      for (int d = 0; d < sub_ndims; ++d) {
        MT_CHECK(gdims[d] == sub_dims[d] &&
                     (gperiods[d] != 0) == (sub_periods[d] != 0) &&
                     gcoords[d] == sub_coords[d],
                 "Cart_sub mask %d dim %d", mask, d);
      }
    }
    // The members of the sub-grid are those with the same coordinates in
    // the dropped dimensions: sum their world ranks.
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub);
    int want = 0, total = 1;
    for (int d = 0; d < ndims; ++d) {
      total *= dims[d];
    }
    for (int r = 0; r < total; ++r) {
      int rc[3], same = 1;
      coords_of(r, ndims, dims, rc);
      for (int d = 0; d < ndims; ++d) {
        if (!remain[d] && rc[d] != c[d]) {
          same = 0;
        }
      }
      if (same) {
        want += r;
      }
    }
    MT_CHECK(sum == want, "Cart_sub mask %d: members sum %d, want %d", mask,
             sum, want);
    MPI_Comm_free(&sub);
  }
}

static void run_grid(int ndims, const int* dims, const int* periods) {
  const int rank = mt_rank();
  int nodes = 1;
  for (int d = 0; d < ndims; ++d) {
    nodes *= dims[d];
  }
  int mapped = -5;
  MPI_Cart_map(MPI_COMM_WORLD, ndims, dims, periods, &mapped);
  MT_CHECK(mapped == (rank < nodes ? rank : MPI_UNDEFINED), "Cart_map gave %d",
           mapped);

  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart);
  if (rank >= nodes) {
    MT_CHECK(cart == MPI_COMM_NULL,
             "rank %d outside a grid of %d got a "
             "communicator",
             rank, nodes);
    return;
  }
  MT_CHECK(cart != MPI_COMM_NULL, "no communicator for rank %d", rank);
  check_queries(cart, ndims, dims, periods, nodes);
  check_traffic(cart, ndims);
  check_subs(cart, ndims, dims, periods);

  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(cart, &dup);
  check_queries(dup, ndims, dims, periods, nodes);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&cart);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  const int yes[3] = {1, 1, 1}, no[3] = {0, 0, 0}, mixed[3] = {1, 0, 1};

  // Every process, in 1, 2 and 3 dimensions from MPI_Dims_create, each
  // with two of: all periodic, none, mixed.
  for (int ndims = 1; ndims <= 3; ++ndims) {
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, ndims, dims);
    run_grid(ndims, dims, ndims == 2 ? mixed : yes);
    run_grid(ndims, dims, ndims == 3 ? mixed : no);
  }
  // Fewer processes than the communicator's.
  if (size > 1) {
    int line[1] = {size - 1};
    run_grid(1, line, yes);
    run_grid(1, line, no);
  }
  if (size >= 4) {
    int grid[2] = {size / 2, 1};
    run_grid(2, grid, mixed);
    int cube[3] = {1, 2, (size - 1) / 2};
    run_grid(3, cube, no);
    run_grid(3, cube, yes);
  }
  if (size >= 8) {
    int cube[3] = {2, 2, 2};
    run_grid(3, cube, mixed);
  }

  // Zero dimensions: one node, rank 0 (MPI 4.0 §8.5.1).
  MPI_Comm zero = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero);
  if (mt_rank() == 0) {
    MT_CHECK(zero != MPI_COMM_NULL, "ndims 0: no communicator on rank 0");
    int zsize = 0, zdims = -1, zrank = -1;
    MPI_Comm_size(zero, &zsize);
    MPI_Cartdim_get(zero, &zdims);
    MPI_Cart_rank(zero, NULL, &zrank);
    MT_CHECK(zsize == 1 && zdims == 0 && zrank == 0,
             "ndims 0: size %d ndims %d rank %d", zsize, zdims, zrank);
    MPI_Comm_free(&zero);
  } else {
    MT_CHECK(zero == MPI_COMM_NULL, "ndims 0: a communicator on rank %d",
             mt_rank());
  }

  const int rank = mt_rank();
  MPI_Finalize();
  if (rank == 0) {
    printf("cart: ok\n");
  }
  return 0;
}
