// SPDX-License-Identifier: MIT
// The neighbourhood collectives (MPI 4.0 sections 8.6-8.8): allgather(v)
// and alltoall(v,w) over a communicator's virtual topology, each blocking,
// nonblocking and persistent, with int and large (_c) counts. Arguments
// are checked as the other collectives check theirs (coll_args.hpp), with
// one block per neighbour in the order of neighbor_lists(); the exchange
// itself is coll_neighbor.hpp's, run by run_collective in the
// communicator's collective order. MPI_IN_PLACE is not defined for them:
// MPI_ERR_BUFFER as either buffer.
#include <mpi.h>

#include <memory>
#include <utility>

#include "mpi/coll_args.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/coll_neighbor.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/count_forms.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/topology.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

using datatype::Blocks;

// The communicator of a neighbourhood collective: an intracommunicator
// with a virtual topology.
int check_neighbor_comm(MPI_Comm comm, const char* fn, Comm** out) {
  if (int rc = check_coll(comm, fn, out); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = *out;
  if (c->is_inter) {
    return fail_static(c, MPI_ERR_COMM, fn,
                       "not defined on an intercommunicator");
  }
  if (c->topology == nullptr) {
    return fail_static(c, MPI_ERR_TOPOLOGY, fn,
                       "the communicator has no virtual topology");
  }
  return MPI_SUCCESS;
}

// One side (send or receive) of a neighbourhood collective, one block per
// neighbour on that side:
//  - kUniform: `count` elements of `type` per block, back to back (or,
//    with `repeat`, the same block for every neighbour: allgather's send);
//  - kVector: counts[i] elements at displs[i] extents of `type`;
//  - kTyped: counts[i] elements of types[i] at displs[i] bytes.
struct Side {
  enum Kind { kUniform, kVector, kTyped };
  Kind kind = kUniform;
  const void* buffer = nullptr;
  MPI_Count count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  CountArray counts{};
  CountArray displs{};
  const MPI_Datatype* types = nullptr;
  bool repeat = false;
};

Side uniform(const void* buffer, MPI_Count count, MPI_Datatype type,
             bool repeat = false) {
  Side side{Side::kUniform, buffer};
  side.count = count;
  side.type = type;
  side.repeat = repeat;
  return side;
}
Side varying(const void* buffer, CountArray counts, CountArray displs,
             MPI_Datatype type) {
  Side side{Side::kVector, buffer};
  side.counts = counts;
  side.displs = displs;
  side.type = type;
  return side;
}
Side typed(const void* buffer, CountArray counts, CountArray displs,
           const MPI_Datatype* types) {
  Side side{Side::kTyped, buffer};
  side.counts = counts;
  side.displs = displs;
  side.types = types;
  return side;
}

// Checks `side` for n neighbours in the standard's order and appends its
// blocks to *blocks, its datatypes to *holds.
int check_side(Comm* c, const Side& side, int n, bool is_send, Holds* holds,
               Blocks* blocks, const char* fn) {
  const char* buffer_name = is_send ? "sendbuf" : "recvbuf";
  const char* counts_name = is_send ? "sendcounts" : "recvcounts";
  if (int rc = check_in_place(c, side.buffer, buffer_name, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg t;
  switch (side.kind) {
    case Side::kUniform:
      if (int rc = check_data(c, side.buffer, side.count, side.type, &t,
                              buffer_name, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      blocks->reserve(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        blocks->push_back(block(t, side.buffer, side.count,
                                side.repeat ? 0 : i * side.count));
      }
      holds->types.push_back(t);
      return MPI_SUCCESS;
    case Side::kVector:
      if (int rc =
              check_blocks(c, side.buffer, side.counts, side.displs, side.type,
                           n, buffer_name, counts_name, &t, blocks, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      holds->types.push_back(t);
      return MPI_SUCCESS;
    case Side::kTyped:
      break;
  }
  if (int rc = check_counts(c, side.counts, n, counts_name, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (n > 0 && (side.displs.is_null() || side.types == nullptr)) {
    return fail(c, MPI_ERR_ARG, fn, "%s displacements or types are NULL",
                is_send ? "send" : "receive");
  }
  blocks->reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (int rc = check_datatype(c, side.types[i], &t, fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (int rc = check_buffer(c, side.buffer, side.counts[i], t, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    blocks->push_back(at_bytes(t, side.buffer, side.displs[i], side.counts[i]));
    if (holds->types.empty() || holds->types.back().handle != t.handle) {
      holds->types.push_back(t);  // once per run of the same type
    }
  }
  return MPI_SUCCESS;
}

// Every neighbourhood collective: the topology's neighbours, both sides
// checked, then the exchange run as `call` asks.
int do_neighbor(const Side& send, const Side& recv, MPI_Comm comm,
                const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_neighbor_comm(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  auto x = std::make_shared<neighbor::Exchange>();
  neighbor_lists(*c->topology, c->rank, &x->sources, &x->destinations);
  x->cartesian = c->topology->kind == MPI_CART;
  Holds holds;
  if (int rc = check_side(c, send, static_cast<int>(x->destinations.size()),
                          true, &holds, &x->sends, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_side(c, recv, static_cast<int>(x->sources.size()), false,
                          &holds, &x->recvs, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::shared_ptr<const neighbor::Exchange> plan = std::move(x);
  return run_collective(
      c, [c, plan] { return neighbor::exchange(*c, plan); }, std::move(holds),
      call);
}

}  // namespace

// ---- entry points (SHMPI_COLLECTIVE: coll_args.hpp) ----
//
// MPI_Neighbor_alltoallw takes MPI_Aint byte displacements in both count
// forms (MPI 4.0 section 8.6.2).

SHMPI_COLLECTIVE(Neighbor_allgather, Ineighbor_allgather,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm),
                 do_neighbor,
                 (uniform(sendbuf, sendcount, sendtype, true),
                  uniform(recvbuf, recvcount, recvtype), comm));

SHMPI_COLLECTIVE(Neighbor_allgatherv, Ineighbor_allgatherv,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, const Count recvcounts[], const Displ displs[],
                  MPI_Datatype recvtype, MPI_Comm comm),
                 do_neighbor,
                 (uniform(sendbuf, sendcount, sendtype, true),
                  varying(recvbuf, recvcounts, displs, recvtype), comm));

SHMPI_COLLECTIVE(Neighbor_alltoall, Ineighbor_alltoall,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm),
                 do_neighbor,
                 (uniform(sendbuf, sendcount, sendtype),
                  uniform(recvbuf, recvcount, recvtype), comm));

SHMPI_COLLECTIVE(Neighbor_alltoallv, Ineighbor_alltoallv,
                 (const void* sendbuf, const Count sendcounts[],
                  const Displ sdispls[], MPI_Datatype sendtype, void* recvbuf,
                  const Count recvcounts[], const Displ rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm),
                 do_neighbor,
                 (varying(sendbuf, sendcounts, sdispls, sendtype),
                  varying(recvbuf, recvcounts, rdispls, recvtype), comm));

SHMPI_COLLECTIVE(Neighbor_alltoallw, Ineighbor_alltoallw,
                 (const void* sendbuf, const Count sendcounts[],
                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const Count recvcounts[],
                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm),
                 do_neighbor,
                 (typed(sendbuf, sendcounts, sdispls, sendtypes),
                  typed(recvbuf, recvcounts, rdispls, recvtypes), comm));
