// SPDX-License-Identifier: MIT
// One-sided communication (MPI 4.0 chapter 12): the object behind an
// MPI_Win handle, and what the window calls share.
//
// Every operation moves its data in the call, by the origin alone, so it
// is complete locally and at the target when the call returns: a put is a
// copy into the target's memory, a get a copy out of it. The target takes
// no part, which is what passive target needs, and the synchronisation
// calls only order (fence: a barrier; post/start/complete/wait: empty
// messages; lock/unlock: a lock word in the window's shared block).
//
// How the origin reaches the target's memory (rma/remote_memory.hpp):
// memory in the job's segment (MPI_Win_allocate, MPI_Win_allocate_shared,
// MPI_Alloc_mem, and large malloc'd buffers, shared_malloc.hpp) is mapped in
// every rank, so the copy is a memcpy at the translated address, with no
// system call. Other memory (the stack, small heap blocks) is reached with
// process_vm_readv / process_vm_writev, the kernel's copy between
// processes, which MPICH and Open MPI use for large messages too.
//
// The memory model is MPI_WIN_UNIFIED: there is one copy of the window,
// and both paths write it directly.
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "mpi/attribute.hpp"
#include "mpi/core.hpp"
#include "mpi/handle_arena.hpp"
#include "rma/window_block.hpp"

namespace shmpi::mpi {

// What every member published about itself when the window was made.
struct WindowMember {
  std::uint64_t base = 0;      // its window's address, in its own space
  std::uint64_t size = 0;      // bytes
  std::int64_t disp_unit = 1;  // bytes per target_disp unit
  std::uint64_t segment = 0;   // where it mapped the job's segment
  std::int32_t pid = 0;        // for process_vm_readv / _writev
  std::uint32_t reserved = 0;
};
static_assert(sizeof(WindowMember) == 40, "exchanged as bytes");

// This process's synchronisation state on one window: which epochs are
// open (MPI 4.0 §12.5). RMA calls on a target outside every access epoch
// fail with MPI_ERR_RMA_SYNC (check_access).
//
// Private to this process, read and written by its calls on the window
// only, so it holds no atomics. Under MPI_THREAD_MULTIPLE threads may open
// and close passive-target epochs on different targets while others make
// RMA calls: Window::epochs_mutex (EpochsGuard) covers every read and
// write then, never a wait.
struct Epochs {
  // A fence without MPI_MODE_NOSUCCEED opened an access and exposure epoch
  // that the next fence closes.
  bool fence = false;
  // An RMA call ran in the fence epoch (check_access sets it). A fence
  // "starts an RMA access epoch if it is followed by another fence call and
  // by RMA communication calls" (MPI 4.0 §12.5.1): until one is made, the
  // fence opened nothing that forbids MPI_Win_start, _post or _lock, which
  // then end it (MPICH does the same).
  bool fence_used = false;
  // MPI_Win_start's group (window ranks), until MPI_Win_complete.
  bool access_started = false;
  std::vector<int> access_group;
  // MPI_Win_post's group, until MPI_Win_wait / a successful MPI_Win_test;
  // per member of the group whether its MPI_Win_complete message has been
  // received (MPI_Win_test takes them as they come), and how many have not.
  bool exposure_posted = false;
  std::vector<int> exposure_group;
  std::vector<char> exposure_completed;
  int exposure_pending = 0;
  // Passive target: per window rank 0 (not locked), MPI_LOCK_SHARED or
  // MPI_LOCK_EXCLUSIVE; and MPI_Win_lock_all.
  // MPI_MODE_NOCHECK locks never touch the lock word, so unlock must not
  // release it: per window rank, whether the lock was taken with it (and
  // for lock_all, lock_all_nocheck).
  std::vector<int> locks;
  std::vector<char> lock_nocheck;
  int locked_targets = 0;  // how many entries of `locks` are non-zero
  bool lock_all = false;
  bool lock_all_nocheck = false;
};

struct Window {
  static constexpr std::uint32_t kMagic = 0x57696e31;  // "Win1"
  std::uint32_t magic = kMagic;
  // A dup of the communicator the window was made on: fences are its
  // barriers, post/start/complete/wait its messages, and it gives the
  // window its group. Never seen by the program.
  Comm* comm = nullptr;
  int flavor = MPI_WIN_FLAVOR_CREATE;
  int rank = 0;  // in comm
  int size = 0;
  std::vector<WindowMember> members;  // by window rank
  // This process's own window (the MPI_WIN_BASE / _SIZE / _DISP_UNIT
  // attributes); for the flavors that allocate it, what to free.
  void* base = nullptr;
  MPI_Aint local_size = 0;
  int disp_unit = 1;
  // MPI_Win_allocate: the memory is ours to free (from the shared heap if
  // allocated_in_heap, else with std::free). MPI_Win_allocate_shared: the
  // whole job's memory, rank 0 frees it.
  void* allocated = nullptr;
  bool allocated_in_heap = false;
  // The shared block (rma/window_block.hpp): lock words and the dynamic
  // windows' attached regions; window rank 0 allocates and frees it.
  rma::MemberLine* lines = nullptr;  // one per window rank
  std::uint64_t block_offset = 0;
  Epochs epochs;
  std::mutex epochs_mutex;  // EpochsGuard
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  std::vector<Attribute> attributes;                       // set order
  std::vector<std::pair<std::string, std::string>> hints;  // Win_set_info

  MPI_Win handle() {
    return reinterpret_cast<MPI_Win>(this);  // NOLINT: handle is object
  }
};

HandleArena<Window>& windows();

// The live window behind a handle, or nullptr (MPI_WIN_NULL, freed,
// garbage).
inline Window* find_win(MPI_Win handle) {
  if (!initialized()) [[unlikely]] {
    return nullptr;
  }
  return windows().find(handle);
}

// Raises `mpi_class` on the window's error handler (MPI_ERRORS_ARE_FATAL
// unless MPI_Win_set_errhandler changed it), as fail() does for a
// communicator. `win` nullptr: as fail(nullptr, ...).
[[gnu::format(printf, 4, 5)]] int fail_win(Window* win, int mpi_class,
                                           const char* function,
                                           const char* detail, ...) noexcept;
int raise_win_code(Window* win, int code, const char* function) noexcept;

// MPI is initialized and `handle` names a live window (MPI_ERR_WIN,
// raised on MPI_COMM_SELF's handler as an error tied to no window).
int check_win(MPI_Win handle, Window** out, const char* function) noexcept;

// The lock over win.epochs (and this member's table of attached regions),
// taken only once the program asked for
// MPI_THREAD_MULTIPLE (the single-threaded path pays nothing); unlock()
// lets go early (before raising an error: a handler may call MPI).
class EpochsGuard {
 public:
  explicit EpochsGuard(Window& win) : lock_(win.epochs_mutex, std::defer_lock) {
    if (state().thread_multiple) {
      lock_.lock();
    }
  }
  void unlock() {
    if (lock_.owns_lock()) {
      lock_.unlock();
    }
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

// `target` may be named by an RMA call now: a rank of the window (or
// MPI_PROC_NULL, which the caller then skips: MPI_ERR_RANK otherwise) and
// inside an access epoch of this process (MPI_ERR_RMA_SYNC otherwise).
int check_access(Window& win, int target, const char* function) noexcept;

// Whether [address, address + bytes) lies inside one region that window
// rank `target` of the dynamic window `win` has attached (MPI_Win_attach)
// now; bytes 0: always true (nothing is touched). Reads target's table in
// the shared block under its sequence lock, retrying while target changes
// it, so it never returns a torn entry. The answer may be stale as soon as
// it is given: attaching and detaching memory that an origin is accessing
// is erroneous (MPI 4.0 §12.2.4), so a correct program cannot tell.
// Any flavor may be passed; only dynamic windows ever attach regions.
bool find_attached(const Window& win, int target, std::uint64_t address,
                   std::uint64_t bytes) noexcept;

// MPI_Win_free's teardown once every member agreed: frees the memory,
// the block (rank 0), the communicator and the handle.
void destroy_window(Window* win) noexcept;

}  // namespace shmpi::mpi
