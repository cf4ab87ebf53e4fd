// SPDX-License-Identifier: MIT
// Window objects: the handle arena, the checks every window call makes,
// and the teardown of MPI_Win_free (mpi/window.hpp).
#include "mpi/window.hpp"

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
  Epochs& e = win.epochs;
  if (e.fence) [[likely]] {
    e.fence_used = true;
    return MPI_SUCCESS;
  }
  if (e.lock_all) [[likely]] {
    return MPI_SUCCESS;
  }
  if (e.locked_targets != 0 && e.locks[static_cast<std::size_t>(target)] != 0) {
    return MPI_SUCCESS;
  }
  if (e.access_started) {
    for (int member : e.access_group) {
      if (member == target) {
        return MPI_SUCCESS;
      }
    }
  }
  return fail_win(&win, MPI_ERR_RMA_SYNC, function,
                  "no access epoch to target %d is open (MPI_Win_fence, "
                  "MPI_Win_start or MPI_Win_lock first)",
                  target);
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
