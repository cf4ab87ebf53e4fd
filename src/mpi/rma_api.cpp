// SPDX-License-Identifier: MIT
// The entry points of one-sided data movement (MPI 4.0 §12.3-12.4):
// MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
// MPI_Compare_and_swap, the request forms MPI_Rput, MPI_Rget,
// MPI_Raccumulate, MPI_Rget_accumulate, and the _c forms. The work is in
// rma_ops.cpp.
#include <mpi.h>

#include "mpi/detail/pmpi.hpp"
#include "mpi/rma_ops.hpp"

using namespace shmpi::mpi;

extern "C" int PMPI_Put(const void* origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win) noexcept {
  return rma_put(
      RmaCall{win, "MPI_Put", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Put);

extern "C" int PMPI_Get(void* origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win) noexcept {
  return rma_get(
      RmaCall{win, "MPI_Get", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Get);

extern "C" int PMPI_Accumulate(const void* origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Accumulate", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype}, RmaBuffer{},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      false);
}
SHMPI_PMPI_ALIAS(MPI_Accumulate);

extern "C" int PMPI_Get_accumulate(
    const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
    void* result_addr, int result_count, MPI_Datatype result_datatype,
    int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Get_accumulate", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaBuffer{result_addr, result_count, result_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      true);
}
SHMPI_PMPI_ALIAS(MPI_Get_accumulate);

extern "C" int PMPI_Rput(const void* origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request) noexcept {
  return rma_put(
      RmaCall{win, "MPI_Rput", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Rput);

extern "C" int PMPI_Rget(void* origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request) noexcept {
  return rma_get(
      RmaCall{win, "MPI_Rget", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Rget);

extern "C" int PMPI_Raccumulate(const void* origin_addr, int origin_count,
                                MPI_Datatype origin_datatype, int target_rank,
                                MPI_Aint target_disp, int target_count,
                                MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win, MPI_Request* request) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Raccumulate", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype}, RmaBuffer{},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      false);
}
SHMPI_PMPI_ALIAS(MPI_Raccumulate);

extern "C" int PMPI_Rget_accumulate(
    const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
    void* result_addr, int result_count, MPI_Datatype result_datatype,
    int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
    MPI_Request* request) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Rget_accumulate", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaBuffer{result_addr, result_count, result_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      true);
}
SHMPI_PMPI_ALIAS(MPI_Rget_accumulate);

extern "C" int PMPI_Put_c(const void* origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Win win) noexcept {
  return rma_put(
      RmaCall{win, "MPI_Put_c", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Put_c);

extern "C" int PMPI_Get_c(void* origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Win win) noexcept {
  return rma_get(
      RmaCall{win, "MPI_Get_c", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Get_c);

extern "C" int PMPI_Accumulate_c(const void* origin_addr,
                                 MPI_Count origin_count,
                                 MPI_Datatype origin_datatype, int target_rank,
                                 MPI_Aint target_disp, MPI_Count target_count,
                                 MPI_Datatype target_datatype, MPI_Op op,
                                 MPI_Win win) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Accumulate_c", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype}, RmaBuffer{},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      false);
}
SHMPI_PMPI_ALIAS(MPI_Accumulate_c);

extern "C" int PMPI_Get_accumulate_c(
    const void* origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Get_accumulate_c", nullptr, false},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaBuffer{result_addr, result_count, result_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      true);
}
SHMPI_PMPI_ALIAS(MPI_Get_accumulate_c);

extern "C" int PMPI_Rput_c(const void* origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Win win,
                           MPI_Request* request) noexcept {
  return rma_put(
      RmaCall{win, "MPI_Rput_c", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Rput_c);

extern "C" int PMPI_Rget_c(void* origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Win win,
                           MPI_Request* request) noexcept {
  return rma_get(
      RmaCall{win, "MPI_Rget_c", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype});
}
SHMPI_PMPI_ALIAS(MPI_Rget_c);

extern "C" int PMPI_Raccumulate_c(const void* origin_addr,
                                  MPI_Count origin_count,
                                  MPI_Datatype origin_datatype, int target_rank,
                                  MPI_Aint target_disp, MPI_Count target_count,
                                  MPI_Datatype target_datatype, MPI_Op op,
                                  MPI_Win win, MPI_Request* request) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Raccumulate_c", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype}, RmaBuffer{},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      false);
}
SHMPI_PMPI_ALIAS(MPI_Raccumulate_c);

extern "C" int PMPI_Rget_accumulate_c(
    const void* origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win, MPI_Request* request) noexcept {
  return rma_accumulate(
      RmaCall{win, "MPI_Rget_accumulate_c", request, true},
      RmaBuffer{origin_addr, origin_count, origin_datatype},
      RmaBuffer{result_addr, result_count, result_datatype},
      RmaTarget{target_rank, target_disp, target_count, target_datatype}, op,
      true);
}
SHMPI_PMPI_ALIAS(MPI_Rget_accumulate_c);

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
