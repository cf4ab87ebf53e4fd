// SPDX-License-Identifier: MIT
// Memory of dynamic windows (MPI 4.0 §12.2.4): MPI_Win_attach and
// MPI_Win_detach. Each member keeps the regions it has attached in its
// line of the window's shared block (rma::MemberLine::regions), where
// origins look before they touch its memory (find_attached, window.cpp).
// Only the member writes its table, under the sequence lock attach_seq.
#include <mpi.h>

#include <atomic>
#include <cstdint>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/window.hpp"
#include "rma/window_block.hpp"

using namespace shmpi::mpi;
using shmpi::rma::MemberLine;

namespace {

// Writer half of the sequence lock (the reader is find_attached): odd
// while the table changes. `change` makes relaxed stores to the entries
// and to `attached` only.
template <typename Change>
void publish_regions(MemberLine& line, Change&& change) {
  // Relaxed: this member is the only writer of attach_seq.
  const std::uint32_t seq = line.attach_seq.load(std::memory_order_relaxed);
  line.attach_seq.store(seq + 1, std::memory_order_relaxed);
  // Release fence: orders the odd value before the entry stores below, so
  // a reader that loads any of them sees attach_seq changed on its re-read
  // (pairs with the acquire fence in find_attached).
  std::atomic_thread_fence(std::memory_order_release);
  change();
  // Release: pairs with the reader's acquire load of attach_seq and
  // publishes the entries written above.
  line.attach_seq.store(seq + 2, std::memory_order_release);
}

int check_dynamic(MPI_Win win, Window** out, const char* function) {
  if (int rc = check_win(win, out, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((*out)->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
    return fail_win(*out, MPI_ERR_RMA_FLAVOR, function,
                    "the window was not made by MPI_Win_create_dynamic");
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Win_attach(MPI_Win win, void* base,
                               MPI_Aint size) noexcept {
  constexpr const char* kFunction = "MPI_Win_attach";
  Window* w = nullptr;
  if (int rc = check_dynamic(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size < 0) {
    return fail_win(w, MPI_ERR_SIZE, kFunction, "negative size %ld",
                    static_cast<long>(size));
  }
  if (base == nullptr && size > 0) {
    return fail_win(w, MPI_ERR_BASE, kFunction,
                    "base is NULL with a size of %ld bytes",
                    static_cast<long>(size));
  }
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  const auto bytes = static_cast<std::uint64_t>(size);
  if (address + bytes < address) {
    return fail_win(w, MPI_ERR_SIZE, kFunction,
                    "%ld bytes at %p pass the end of the address space",
                    static_cast<long>(size), base);
  }
  MemberLine& line = w->lines[static_cast<std::size_t>(w->rank)];
  // Threads of this process attach one at a time (MPI_THREAD_MULTIPLE).
  EpochsGuard guard(*w);
  // Relaxed loads of our own table: this process is its only writer.
  const std::uint32_t count = line.attached.load(std::memory_order_relaxed);
  if (count >= shmpi::rma::kMaxAttached) {
    guard.unlock();
    return fail_win(w, MPI_ERR_RMA_ATTACH, kFunction,
                    "%u regions are attached already, the most a member "
                    "may have",
                    count);
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t other =
        line.regions[i].base.load(std::memory_order_relaxed);
    const std::uint64_t other_size =
        line.regions[i].size.load(std::memory_order_relaxed);
    if (bytes > 0 && other_size > 0 && address < other + other_size &&
        other < address + bytes) {
      guard.unlock();
      return fail_win(w, MPI_ERR_RMA_ATTACH, kFunction,
                      "%ld bytes at %p overlap the %lu bytes attached at "
                      "%#lx",
                      static_cast<long>(size), base,
                      static_cast<unsigned long>(other_size),
                      static_cast<unsigned long>(other));
    }
  }
  publish_regions(line, [&] {
    // Relaxed inside the sequence lock (publish_regions orders them).
    line.regions[count].base.store(address, std::memory_order_relaxed);
    line.regions[count].size.store(bytes, std::memory_order_relaxed);
    line.attached.store(count + 1, std::memory_order_relaxed);
  });
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_attach);

extern "C" int PMPI_Win_detach(MPI_Win win, const void* base) noexcept {
  constexpr const char* kFunction = "MPI_Win_detach";
  Window* w = nullptr;
  if (int rc = check_dynamic(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  MemberLine& line = w->lines[static_cast<std::size_t>(w->rank)];
  EpochsGuard guard(*w);  // as in MPI_Win_attach
  // Relaxed loads of our own table: this process is its only writer.
  const std::uint32_t count = line.attached.load(std::memory_order_relaxed);
  std::uint32_t found = count;
  for (std::uint32_t i = 0; i < count && found == count; ++i) {
    if (line.regions[i].base.load(std::memory_order_relaxed) == address) {
      found = i;
    }
  }
  if (found == count) {
    guard.unlock();
    return fail_win(w, MPI_ERR_RMA_ATTACH, kFunction,
                    "no region attached at %p", base);
  }
  publish_regions(line, [&] {
    // Close the gap, keeping the order (relaxed inside the sequence lock).
    for (std::uint32_t i = found; i + 1 < count; ++i) {
      line.regions[i].base.store(
          line.regions[i + 1].base.load(std::memory_order_relaxed),
          std::memory_order_relaxed);
      line.regions[i].size.store(
          line.regions[i + 1].size.load(std::memory_order_relaxed),
          std::memory_order_relaxed);
    }
    line.attached.store(count - 1, std::memory_order_relaxed);
  });
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_detach);
