// SPDX-License-Identifier: MIT
// Window objects: the handle arena, the checks every window call makes,
// and the teardown of MPI_Win_free (mpi/window.hpp).
#include "mpi/window.hpp"

#include <sched.h>

#include <atomic>
#include <cstdlib>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi {

HandleArena<Window>& windows() {
  static auto* arena = new HandleArena<Window>(1u << 16);  // used until exit
  return *arena;
}

int check_win(MPI_Win handle, Window** out, const char* function) noexcept {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Window* win = find_win(handle);
  if (win == nullptr) [[unlikely]] {
    return handle == MPI_WIN_NULL
               ? fail_win(nullptr, MPI_ERR_WIN, function, "MPI_WIN_NULL")
               : fail_win(nullptr, MPI_ERR_WIN, function, "%p is not a window",
                          static_cast<void*>(handle));
  }
  *out = win;
  return MPI_SUCCESS;
}

namespace {

// Whether an access epoch of this process covers `target` (a window rank);
// notes the use of a fence epoch. Under the epochs' lock.
bool in_access_epoch(Window& win, int target) {
  EpochsGuard guard(win);
  Epochs& e = win.epochs;
  if (e.fence) [[likely]] {
    e.fence_used = true;
    return true;
  }
  if (e.lock_all || (e.locked_targets != 0 &&
                     e.locks[static_cast<std::size_t>(target)] != 0)) {
    return true;
  }
  if (e.access_started) {
    for (int member : e.access_group) {
      if (member == target) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

int check_access(Window& win, int target, const char* function) noexcept {
  if (target == MPI_PROC_NULL) {
    return MPI_SUCCESS;
  }
  if (static_cast<unsigned>(target) >= static_cast<unsigned>(win.size))
      [[unlikely]] {
    return fail_win(&win, MPI_ERR_RANK, function,
                    "target rank %d is not a rank of the window (size %d)",
                    target, win.size);
  }
  if (in_access_epoch(win, target)) [[likely]] {
    return MPI_SUCCESS;
  }
  // The error handler runs without the lock: it may call MPI on the window.
  return fail_win(&win, MPI_ERR_RMA_SYNC, function,
                  "no access epoch to target %d is open (MPI_Win_fence, "
                  "MPI_Win_start or MPI_Win_lock first)",
                  target);
}

bool find_attached(const Window& win, int target, std::uint64_t address,
                   std::uint64_t bytes) noexcept {
  if (bytes == 0) {
    return true;
  }
  if (static_cast<unsigned>(target) >= static_cast<unsigned>(win.size) ||
      address + bytes < address) {
    return false;
  }
  const rma::MemberLine& line = win.lines[static_cast<std::size_t>(target)];
  // The reader half of the sequence lock that MPI_Win_attach and
  // MPI_Win_detach write (win_attach_api.cpp, publish_regions()).
  for (;;) {
    // Acquire: pairs with the writer's closing release store, so the
    // entries written before it are seen (with an even value).
    const std::uint32_t before =
        line.attach_seq.load(std::memory_order_acquire);
    if ((before & 1u) != 0) {
      sched_yield();  // the writer is in the middle: it is short
      continue;
    }
    // Relaxed: a torn or mixed read is possible here, and is thrown away
    // by the check of attach_seq below.
    std::uint32_t count = line.attached.load(std::memory_order_relaxed);
    if (count > rma::kMaxAttached) {
      count = rma::kMaxAttached;  // torn: bounded, then retried below
    }
    bool found = false;
    for (std::uint32_t i = 0; i < count && !found; ++i) {
      const std::uint64_t base =
          line.regions[i].base.load(std::memory_order_relaxed);
      const std::uint64_t size =
          line.regions[i].size.load(std::memory_order_relaxed);
      found = address >= base && address - base <= size &&
              bytes <= size - (address - base);
    }
    // Acquire fence: the loads above may not move below the re-read of
    // attach_seq; with the writer's release fence after its odd store, a
    // read that saw any new entry sees attach_seq changed.
    std::atomic_thread_fence(std::memory_order_acquire);
    if (line.attach_seq.load(std::memory_order_relaxed) == before) {
      return found;
    }
  }
}

void destroy_window(Window* win) noexcept {
  const segment::Segment& segment = state().runtime->segment();
  if (win->allocated != nullptr) {
    if (win->allocated_in_heap) {
      segment.heap().deallocate(win->allocated);
    } else {
      std::free(win->allocated);  // NOLINT: from std::aligned_alloc
    }
  }
  if (win->rank == 0 && win->lines != nullptr) {
    segment.heap().deallocate(win->lines);
  }
  MPI_Comm handle = win->comm->handle;
  PMPI_Comm_free(&handle);
  windows().destroy(win);
}

}  // namespace shmpi::mpi
