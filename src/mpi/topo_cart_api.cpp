// SPDX-License-Identifier: MIT
// Cartesian topologies (MPI 4.0 sections 8.5.1, 8.5.2, 8.5.5, 8.5.6 and
// 8.5.7): MPI_Cart_create, MPI_Dims_create, the Cartesian queries,
// MPI_Cart_shift, MPI_Cart_sub and MPI_Cart_map.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/topo_dims.hpp"
#include "mpi/topology.hpp"
#include "mpi/topology_args.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

int ndims_of(const Topology& t) { return static_cast<int>(t.dims.size()); }

// MPI_Cart_create's and MPI_Cart_map's grid: ndims extents, each positive,
// and periods (when asked for), with the number of processes they make
// (at most `limit`: more is `too_many`, an error class).
int check_grid(Comm* c, const char* function, int ndims, const int dims[],
               const int periods[], bool need_periods, int limit, int too_many,
               int* nodes) {
  if (ndims < 0) {
    return fail(c, MPI_ERR_ARG, function, "negative ndims %d", ndims);
  }
  if (ndims > 0 && dims == nullptr) {
    return fail_static(c, MPI_ERR_ARG, function, "NULL dims array");
  }
  if (ndims > 0 && need_periods && periods == nullptr) {
    return fail_static(c, MPI_ERR_ARG, function, "NULL periods array");
  }
  std::int64_t product = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0) {
      return fail(c, MPI_ERR_DIMS, function,
                  "dims[%d] is %d; extents must be positive", i, dims[i]);
    }
    product *= dims[i];
    if (product > limit) {
      return fail(c, too_many, function,
                  "the grid needs more processes than the communicator's "
                  "%d (dims[0..%d])",
                  limit, i);
    }
  }
  *nodes = static_cast<int>(product);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                                const int periods[], int /*reorder*/,
                                MPI_Comm* comm_cart) noexcept {
  // reorder: every process keeps its rank (allowed by MPI 4.0 section
  // 8.5.1; on one machine there is no placement to improve by
  // renumbering).
  constexpr const char* kFn = "MPI_Cart_create";
  Comm* c = nullptr;
  if (int rc = check_topology_parent(comm_old, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  int nodes = 0;
  if (int rc = check_grid(c, kFn, ndims, dims, periods, true, c->size,
                          MPI_ERR_ARG, &nodes);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm_cart == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL comm_cart argument");
  }
  auto t = std::make_shared<Topology>();
  t->kind = MPI_CART;
  t->dims.assign(dims, dims + ndims);
  t->periods.resize(static_cast<std::size_t>(ndims));
  for (int i = 0; i < ndims; ++i) {
    t->periods[static_cast<std::size_t>(i)] = periods[i] != 0 ? 1 : 0;
  }
  // ndims 0 makes one node: a communicator of size 1 on rank 0.
  Comm* fresh = nullptr;
  const char* why = "";
  if (int rc = make_topology_comm(*c, nodes, std::move(t), &fresh, &why);
      rc != MPI_SUCCESS) {
    *comm_cart = MPI_COMM_NULL;
    return fail_static(c, rc, kFn, why);
  }
  *comm_cart = fresh != nullptr ? fresh->handle : MPI_COMM_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_create);

extern "C" int PMPI_Dims_create(int nnodes, int ndims, int dims[]) noexcept {
  constexpr const char* kFn = "MPI_Dims_create";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (ndims < 0) {
    return fail(nullptr, MPI_ERR_ARG, kFn, "negative ndims %d", ndims);
  }
  if (nnodes <= 0) {
    return fail(nullptr, MPI_ERR_ARG, kFn, "nnodes is %d; it must be positive",
                nnodes);
  }
  // ndims 0 is a grid of one node: nnodes must be 1 (MPI 4.0 section
  // 8.5.2; MPICH 4.0.2 accepts any nnodes), and dims may be NULL.
  if (ndims > 0 && dims == nullptr) {
    return fail_static(nullptr, MPI_ERR_ARG, kFn, "NULL dims array");
  }
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) {
      return fail(nullptr, MPI_ERR_DIMS, kFn, "dims[%d] is negative (%d)", i,
                  dims[i]);
    }
  }
  if (!fill_dims(nnodes,
                 std::span<int>(dims, static_cast<std::size_t>(ndims)))) {
    return fail(nullptr, MPI_ERR_DIMS, kFn,
                "nnodes %d is not a multiple of the product of the nonzero "
                "dims entries (or, with none zero, not equal to it)",
                nnodes);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Dims_create);

extern "C" int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) noexcept {
  constexpr const char* kFn = "MPI_Cartdim_get";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_CART, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (ndims == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL ndims argument");
  }
  *ndims = ndims_of(*t);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cartdim_get);

extern "C" int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[],
                             int periods[], int coords[]) noexcept {
  constexpr const char* kFn = "MPI_Cart_get";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_CART, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (maxdims < 0) {
    return fail(c, MPI_ERR_ARG, kFn, "negative maxdims %d", maxdims);
  }
  // Arrays shorter than ndims get the first maxdims entries.
  const auto n = static_cast<std::size_t>(std::min(maxdims, ndims_of(*t)));
  if (n > 0 && (dims == nullptr || periods == nullptr || coords == nullptr)) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output array");
  }
  std::vector<int> mine(t->dims.size());
  cart_coords(*t, c->rank, mine.data());
  std::copy_n(t->dims.begin(), n, dims);
  std::copy_n(t->periods.begin(), n, periods);
  std::copy_n(mine.begin(), n, coords);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_get);

extern "C" int PMPI_Cart_rank(MPI_Comm comm, const int coords[],
                              int* rank) noexcept {
  constexpr const char* kFn = "MPI_Cart_rank";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_CART, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (rank == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL rank argument");
  }
  if (!t->dims.empty() && coords == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL coords array");
  }
  // A coordinate outside a periodic dimension wraps round (MPI 4.0
  // section 8.5.5); outside a non-periodic one it is erroneous.
  std::vector<int> wrapped(t->dims.size());
  for (std::size_t d = 0; d < t->dims.size(); ++d) {
    const int extent = t->dims[d];
    int coord = coords[d];
    if (coord < 0 || coord >= extent) {
      if (t->periods[d] == 0) {
        return fail(c, MPI_ERR_ARG, kFn,
                    "coords[%zu] is %d, outside the non-periodic dimension "
                    "0..%d",
                    d, coord, extent - 1);
      }
      coord %= extent;
      if (coord < 0) {
        coord += extent;
      }
    }
    wrapped[d] = coord;
  }
  *rank = cart_rank(*t, wrapped.data());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_rank);

extern "C" int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims,
                                int coords[]) noexcept {
  constexpr const char* kFn = "MPI_Cart_coords";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_CART, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (rank < 0 || rank >= c->size) {
    return fail(c, MPI_ERR_RANK, kFn,
                "rank %d is not a rank of the communicator (size %d)", rank,
                c->size);
  }
  if (maxdims < 0) {
    return fail(c, MPI_ERR_ARG, kFn, "negative maxdims %d", maxdims);
  }
  const auto n = static_cast<std::size_t>(std::min(maxdims, ndims_of(*t)));
  if (n > 0 && coords == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL coords array");
  }
  std::vector<int> all(t->dims.size());
  cart_coords(*t, rank, all.data());
  std::copy_n(all.begin(), n, coords);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_coords);

extern "C" int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp,
                               int* rank_source, int* rank_dest) noexcept {
  constexpr const char* kFn = "MPI_Cart_shift";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_CART, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (t->dims.empty()) {
    // MPICH's class too: there is no direction to shift along.
    return fail_static(c, MPI_ERR_TOPOLOGY, kFn,
                       "the Cartesian topology has no dimensions");
  }
  if (direction < 0 || direction >= ndims_of(*t)) {
    return fail(c, MPI_ERR_ARG, kFn, "direction %d is not a dimension (0..%d)",
                direction, ndims_of(*t) - 1);
  }
  if (rank_source == nullptr || rank_dest == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output argument");
  }
  const auto dim = static_cast<std::size_t>(direction);
  *rank_dest = cart_step(*t, c->rank, dim, disp);
  *rank_source = cart_step(*t, c->rank, dim, -std::int64_t{disp});
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_shift);

extern "C" int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[],
                             MPI_Comm* newcomm) noexcept {
  constexpr const char* kFn = "MPI_Cart_sub";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_CART, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!t->dims.empty() && remain_dims == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL remain_dims array");
  }
  if (newcomm == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL newcomm argument");
  }
  // The processes that share the coordinates of every dropped dimension
  // form one subgrid: its color numbers those coordinates row-major. The
  // key, the rank here, keeps the subgrid's ranks row-major over the
  // kept dimensions. Dropping every dimension leaves each process alone
  // in a zero-dimensional grid (MPI 4.0 section 8.5.7).
  std::vector<int> coords(t->dims.size());
  cart_coords(*t, c->rank, coords.data());
  auto sub = std::make_shared<Topology>();
  sub->kind = MPI_CART;
  int color = 0;
  for (std::size_t d = 0; d < t->dims.size(); ++d) {
    if (remain_dims[d] != 0) {
      sub->dims.push_back(t->dims[d]);
      sub->periods.push_back(t->periods[d]);
    } else {
      color = color * t->dims[d] + coords[d];
    }
  }
  Comm* fresh = nullptr;
  const char* why = "";
  if (int rc = split_intracomm(*c, color, c->rank, &fresh, &why);
      rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail_static(c, rc, kFn, why);
  }
  fresh->errhandler = c->errhandler;
  fresh->topology = std::move(sub);
  *newcomm = fresh->handle;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_sub);

extern "C" int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                             const int periods[], int* newrank) noexcept {
  constexpr const char* kFn = "MPI_Cart_map";
  Comm* c = nullptr;
  if (int rc = check_topology_parent(comm, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  // A grid larger than the communicator is MPI_ERR_DIMS here, as in
  // MPICH (MPI_Cart_create says MPI_ERR_ARG, as MPICH does too).
  int nodes = 0;
  if (int rc = check_grid(c, kFn, ndims, dims, periods, false, c->size,
                          MPI_ERR_DIMS, &nodes);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (newrank == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL newrank argument");
  }
  // The rank MPI_Cart_create gives this process: its own, as it never
  // reorders.
  *newrank = c->rank < nodes ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cart_map);
