// SPDX-License-Identifier: MIT
// MPI_T_init_thread and MPI_T_finalize: the nesting count of the tool
// information interface (MPI 4.0 section 15.3.4).
#include <mpi.h>

#include <atomic>
#include <mutex>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"

namespace shmpi::mpi::tool {
namespace {

// How many MPI_T_init_thread calls are not yet matched by MPI_T_finalize.
// Changed under state_mutex(); read without it by every MPI_T call.
std::atomic<int> g_init_count{0};

}  // namespace

std::mutex& state_mutex() noexcept {
  static std::mutex mutex;
  return mutex;
}

bool initialized() noexcept {
  // acquire: pairs with the release store in init/finalize, so a call that
  // sees the interface initialized also sees the state set up before it.
  return g_init_count.load(std::memory_order_acquire) > 0;
}

int check_initialized() noexcept {
  return initialized() ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
}

}  // namespace shmpi::mpi::tool

using namespace shmpi::mpi;

extern "C" int PMPI_T_init_thread(const int required,
                                  int* const provided) noexcept {
  if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
      required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE) {
    return MPI_ERR_ARG;
  }
  if (provided == nullptr) {
    return MPI_ERR_ARG;
  }
  const std::lock_guard lock(tool::state_mutex());
  // release: see initialized(); the mutex orders the count's own updates.
  tool::g_init_count.store(
      tool::g_init_count.load(std::memory_order_relaxed) + 1,
      std::memory_order_release);
  // Every MPI_T call is safe from any thread at any time.
  *provided = MPI_THREAD_MULTIPLE;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_init_thread);

extern "C" int PMPI_T_finalize() noexcept {
  const std::lock_guard lock(tool::state_mutex());
  const int count = tool::g_init_count.load(std::memory_order_relaxed);
  if (count == 0) {
    return MPI_T_ERR_NOT_INITIALIZED;
  }
  // release: see initialized().
  tool::g_init_count.store(count - 1, std::memory_order_release);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_finalize);
