// SPDX-License-Identifier: MIT
// The shmpi_ context-ID extensions of include/shmpi.h: how many IDs this
// process has free and which communicators hold the others.
#include <shmpi.h>

#include <cstring>
#include <string>

#include "mpi/comm.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// Communicators that own a mask bit: every communicator the user sees
// (an intercommunicator's local group is internal and holds a derived ID).
template <typename Fn>
void for_each_holder(Fn&& fn) {
  MpiState& s = state();
  fn(s.world);
  fn(s.self);
  s.comms.for_each([&](Comm& c) {
    if (contextid::owns_mask_bit(c.recv_context_id)) {
      fn(c);
    }
  });
}

}  // namespace

extern "C" int shmpi_context_ids_free(int* free_ids,
                                      int* reserved_ids) noexcept {
  if (int rc = check_initialized("shmpi_context_ids_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (free_ids == nullptr || reserved_ids == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "shmpi_context_ids_free",
                "NULL argument");
  }
  int reserved = 0;
  for_each_holder([&](Comm& c) {
    if (c.shared != nullptr) {
      reserved +=
          static_cast<int>(c.shared->reserve.size() - c.shared->reserve_head);
    }
  });
  *free_ids = static_cast<int>(arbiter().free_count());
  *reserved_ids = reserved;
  return MPI_SUCCESS;
}

extern "C" int shmpi_context_id_holders(MPI_Comm comms[], int context_ids[],
                                        int max, int* count) noexcept {
  if (int rc = check_initialized("shmpi_context_id_holders");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (count == nullptr || max < 0 ||
      (max > 0 && (comms == nullptr || context_ids == nullptr))) {
    return fail(nullptr, MPI_ERR_ARG, "shmpi_context_id_holders",
                "invalid arguments");
  }
  int n = 0;
  for_each_holder([&](Comm& c) {
    if (n < max) {
      comms[n] = c.handle;
      context_ids[n] = c.recv_context_id;
    }
    ++n;
  });
  *count = n;
  return MPI_SUCCESS;
}

extern "C" int shmpi_context_mask_hex(char* text, int length) noexcept {
  if (int rc = check_initialized("shmpi_context_mask_hex"); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::string hex = arbiter().to_hex();
  if (text == nullptr || length < static_cast<int>(hex.size()) + 1) {
    return fail(nullptr, MPI_ERR_ARG, "shmpi_context_mask_hex",
                "the buffer must hold %zu characters", hex.size() + 1);
  }
  std::memcpy(text, hex.c_str(), hex.size() + 1);
  return MPI_SUCCESS;
}
