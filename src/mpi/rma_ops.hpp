// SPDX-License-Identifier: MIT
// One-sided data movement (MPI 4.0 §12.3-12.4): the checks and the copies
// behind MPI_Put, MPI_Get, the accumulate family and their request forms
// (rma_api.cpp has the entry points). Every operation is complete at the
// origin and at the target when the call returns (mpi/window.hpp); a
// request form returns a request that is already complete.
#pragma once

#include <mpi.h>

namespace shmpi::mpi {

// A buffer argument: (addr, count, datatype).
struct RmaBuffer {
  const void* buffer = nullptr;
  MPI_Count count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// The target arguments: (target_rank, target_disp, target_count,
// target_datatype).
struct RmaTarget {
  int rank = MPI_PROC_NULL;
  MPI_Aint disp = 0;
  MPI_Count count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// What a call asks for. `request` is non-null for the R forms.
struct RmaCall {
  MPI_Win win = MPI_WIN_NULL;
  const char* function = "";
  MPI_Request* request = nullptr;
  bool wants_request = false;
};

// MPI_Put / MPI_Rput: origin -> target.
int rma_put(const RmaCall& call, const RmaBuffer& origin,
            const RmaTarget& target) noexcept;
// MPI_Get / MPI_Rget: target -> origin (origin.buffer is written).
int rma_get(const RmaCall& call, const RmaBuffer& origin,
            const RmaTarget& target) noexcept;
// MPI_Accumulate (fetch false: no result) and MPI_Get_accumulate (fetch
// true), with their R forms.
int rma_accumulate(const RmaCall& call, const RmaBuffer& origin,
                   const RmaBuffer& result, const RmaTarget& target, MPI_Op op,
                   bool fetch) noexcept;
// MPI_Fetch_and_op: one element of a predefined type.
int rma_fetch_and_op(const RmaCall& call, const void* origin, void* result,
                     MPI_Datatype type, int target, MPI_Aint disp,
                     MPI_Op op) noexcept;
// MPI_Compare_and_swap: one element of an integer, logical or byte type.
int rma_compare_and_swap(const RmaCall& call, const void* origin,
                         const void* compare, void* result, MPI_Datatype type,
                         int target, MPI_Aint disp) noexcept;

}  // namespace shmpi::mpi
