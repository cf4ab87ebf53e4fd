// SPDX-License-Identifier: MIT
// The entry points of one-sided data movement (MPI 4.0 §12.3-12.4):
// MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
// MPI_Compare_and_swap, the request forms MPI_Rput, MPI_Rget,
// MPI_Raccumulate, MPI_Rget_accumulate, and the _c forms, each pair
// written once (mpi/detail/count_forms.hpp). The work is in rma_ops.cpp.
#include <mpi.h>

#include "mpi/detail/count_forms.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/rma_ops.hpp"

using namespace shmpi::mpi;

// The argument groups every entry point passes on.
#define SHMPI_RMA_ORIGIN \
  RmaBuffer { origin_addr, origin_count, origin_datatype }
#define SHMPI_RMA_RESULT \
  RmaBuffer { result_addr, result_count, result_datatype }
#define SHMPI_RMA_TARGET \
  RmaTarget { target_rank, target_disp, target_count, target_datatype }

SHMPI_COUNT_FORMS(Put,
                  (const void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Win win),
                  rma_put(RmaCall{win, fn, nullptr, false}, SHMPI_RMA_ORIGIN,
                          SHMPI_RMA_TARGET));

SHMPI_COUNT_FORMS(Get,
                  (void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Win win),
                  rma_get(RmaCall{win, fn, nullptr, false}, SHMPI_RMA_ORIGIN,
                          SHMPI_RMA_TARGET));

SHMPI_COUNT_FORMS(Rput,
                  (const void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request* request),
                  rma_put(RmaCall{win, fn, request, true}, SHMPI_RMA_ORIGIN,
                          SHMPI_RMA_TARGET));

SHMPI_COUNT_FORMS(Rget,
                  (void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request* request),
                  rma_get(RmaCall{win, fn, request, true}, SHMPI_RMA_ORIGIN,
                          SHMPI_RMA_TARGET));

SHMPI_COUNT_FORMS(Accumulate,
                  (const void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
                  rma_accumulate(RmaCall{win, fn, nullptr, false},
                                 SHMPI_RMA_ORIGIN, RmaBuffer{},
                                 SHMPI_RMA_TARGET, op, false));

SHMPI_COUNT_FORMS(Raccumulate,
                  (const void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                   MPI_Request* request),
                  rma_accumulate(RmaCall{win, fn, request, true},
                                 SHMPI_RMA_ORIGIN, RmaBuffer{},
                                 SHMPI_RMA_TARGET, op, false));

SHMPI_COUNT_FORMS(Get_accumulate,
                  (const void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, void* result_addr,
                   Count result_count, MPI_Datatype result_datatype,
                   int target_rank, MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
                  rma_accumulate(RmaCall{win, fn, nullptr, false},
                                 SHMPI_RMA_ORIGIN, SHMPI_RMA_RESULT,
                                 SHMPI_RMA_TARGET, op, true));

SHMPI_COUNT_FORMS(Rget_accumulate,
                  (const void* origin_addr, Count origin_count,
                   MPI_Datatype origin_datatype, void* result_addr,
                   Count result_count, MPI_Datatype result_datatype,
                   int target_rank, MPI_Aint target_disp, Count target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                   MPI_Request* request),
                  rma_accumulate(RmaCall{win, fn, request, true},
                                 SHMPI_RMA_ORIGIN, SHMPI_RMA_RESULT,
                                 SHMPI_RMA_TARGET, op, true));

extern "C" int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr,
                                 MPI_Datatype datatype, int target_rank,
                                 MPI_Aint target_disp, MPI_Op op,
                                 MPI_Win win) noexcept {
  return rma_fetch_and_op(RmaCall{win, "MPI_Fetch_and_op", nullptr, false},
                          origin_addr, result_addr, datatype, target_rank,
                          target_disp, op);
}
SHMPI_PMPI_ALIAS(MPI_Fetch_and_op);

extern "C" int PMPI_Compare_and_swap(const void* origin_addr,
                                     const void* compare_addr,
                                     void* result_addr, MPI_Datatype datatype,
                                     int target_rank, MPI_Aint target_disp,
                                     MPI_Win win) noexcept {
  return rma_compare_and_swap(
      RmaCall{win, "MPI_Compare_and_swap", nullptr, false}, origin_addr,
      compare_addr, result_addr, datatype, target_rank, target_disp);
}
SHMPI_PMPI_ALIAS(MPI_Compare_and_swap);
