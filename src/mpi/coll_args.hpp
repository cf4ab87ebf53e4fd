// SPDX-License-Identifier: MIT
// The argument checks the collective entry points share (coll_api.cpp,
// coll_neighbor_api.cpp): communicators, (buffer, count, datatype)
// triples, per-member count and displacement arrays in both count forms,
// and the Layouts built from them; and SHMPI_COLLECTIVE, which writes a
// collective's blocking, nonblocking and persistent entry points in both
// count forms. Each check raises the error on the communicator and returns
// its code, or MPI_SUCCESS.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <type_traits>

#include "datatype/pack.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/count_forms.hpp"

namespace shmpi::mpi {

// The count and displacement arrays of the v-collectives: int in the
// classic forms, MPI_Count counts and MPI_Aint displacements in the
// large-count (_c) forms. Elements read as MPI_Count, so one body serves
// both forms and no value is narrowed. A view of the caller's array, which
// is read only while the call checks its arguments: the Layouts built from
// it are what runs.
class CountArray {
 public:
  CountArray() = default;
  CountArray(const int* values) : narrow_(values) {}      // NOLINT: a view
  CountArray(const MPI_Count* values) : wide_(values) {}  // NOLINT: a view

  bool is_null() const { return narrow_ == nullptr && wide_ == nullptr; }
  MPI_Count operator[](int i) const {
    const auto at = static_cast<std::size_t>(i);
    return narrow_ != nullptr ? narrow_[at] : wide_[at];
  }

 private:
  const int* narrow_ = nullptr;
  const MPI_Count* wide_ = nullptr;
};
static_assert(std::is_same_v<MPI_Aint, MPI_Count>,
              "MPI_Aint displacements use CountArray's MPI_Count view");

inline int check_coll(MPI_Comm comm, const char* function, Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

// MPI_IN_PLACE stands for a buffer only where MPI 4.0 says so: the send
// buffer of allgather(v), alltoall(v,w), allreduce, reduce_scatter(_block),
// scan and exscan, the root's send buffer in reduce and gather(v), and the
// root's receive buffer in scatter(v), all on intracommunicators (never in
// the neighbourhood collectives). Callers skip the buffer checks there;
// every other buffer of a collective goes through check_in_place(), since
// the algorithms would take MPI_IN_PLACE for an address (it is 1) and
// write there.
inline int check_in_place(Comm* c, const void* buffer, const char* what,
                          const char* function) {
  if (buffer == MPI_IN_PLACE) [[unlikely]] {
    return fail(c, MPI_ERR_BUFFER, function,
                "MPI_IN_PLACE is not valid as %s here", what);
  }
  return MPI_SUCCESS;
}

// check_buffer() for a collective's buffer, which may not be MPI_IN_PLACE.
inline int check_coll_buffer(Comm* c, const void* buffer, MPI_Count count,
                             const TypeArg& type, const char* what,
                             const char* function) {
  if (int rc = check_in_place(c, buffer, what, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_buffer(c, buffer, count, type, function);
}

// (buffer, count, datatype): the checks and the layout. `what` names the
// buffer (never MPI_IN_PLACE here: callers skip the in-place ones).
inline int check_data(Comm* c, const void* buffer, MPI_Count count,
                      MPI_Datatype type, TypeArg* arg, const char* what,
                      const char* function) {
  if (int rc = check_count(c, count, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datatype(c, type, arg, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_coll_buffer(c, buffer, count, *arg, what, function);
}

// n counts, none negative; the array may be NULL only when n is 0.
int check_counts(Comm* c, CountArray counts, int n, const char* what,
                 const char* function);

inline datatype::Layout layout(const TypeArg& type, const void* buffer,
                               MPI_Count count) {
  return type.layout(buffer, static_cast<std::size_t>(count));
}

// `count` elements at `offset` bytes into `buffer` (which may be
// MPI_BOTTOM).
inline datatype::Layout at_bytes(const TypeArg& type, const void* buffer,
                                 MPI_Count offset, MPI_Count count) {
  return type.layout(datatype::offset_address(buffer, offset),
                     static_cast<std::size_t>(count));
}

// Block i of a v-collective: counts[i] elements at displs[i] extents.
inline datatype::Layout block(const TypeArg& type, const void* buffer,
                              MPI_Count count, MPI_Count displ) {
  return at_bytes(type, buffer, displ * type.extent, count);
}

// The n blocks of a v-collective (buffer, counts, displs, datatype): the
// checks in the standard's order, then (if `blocks`) their layouts. The
// arrays may be NULL only when n is 0 (a neighbourhood collective at a
// process without neighbours).
int check_blocks(Comm* c, const void* buffer, CountArray counts,
                 CountArray displs, MPI_Datatype type, int n,
                 const char* buffer_name, const char* counts_name, TypeArg* arg,
                 datatype::Blocks* blocks, const char* function);

}  // namespace shmpi::mpi

// ---- entry points ----
//
// Every collective has a blocking, a nonblocking (MPI_I...) and a
// persistent (..._init) form, each with int counts and, but for the
// barrier, with large counts (..._c: MPI_Count counts, MPI_Aint
// displacements), all from one parameter list in which `Count` and `Displ`
// stand for those types (detail/count_forms.hpp). Each calls the operation
// `Op` with `Args` and the Call that names the function and its form.

// FORMS: SHMPI_COUNT_FORMS, or SHMPI_INT_FORM for the barrier.
#define SHMPI_COLLECTIVE_WITH(FORMS, Name, IName, Params, Op, Args)   \
  FORMS(Name, Params, Op(SHMPI_UNPAREN Args, Call::blocking(fn)));    \
  FORMS(IName, (SHMPI_UNPAREN Params, MPI_Request * request),         \
        Op(SHMPI_UNPAREN Args, Call::nonblocking(fn, request)));      \
  FORMS(Name##_init,                                                  \
        (SHMPI_UNPAREN Params, MPI_Info info, MPI_Request * request), \
        Op(SHMPI_UNPAREN Args, Call::persistent(fn, info, request)))
#define SHMPI_COLLECTIVE(Name, IName, Params, Op, Args) \
  SHMPI_COLLECTIVE_WITH(SHMPI_COUNT_FORMS, Name, IName, Params, Op, Args)
