// SPDX-License-Identifier: MIT
// Window creation and destruction (MPI 4.0 §12.2): MPI_Win_create,
// MPI_Win_allocate, MPI_Win_allocate_shared, MPI_Win_create_dynamic (with
// their _c forms), MPI_Win_free and MPI_Win_shared_query.
//
// Creation is two collectives on a private dup of the communicator: an
// allgather of every member's WindowMember, then a broadcast from window
// rank 0 of where it put the shared block (and, for
// MPI_Win_allocate_shared, everyone's memory), or of its failure, so that
// every member returns the same error.
#include <mpi.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/keyval.hpp"
#include "mpi/window.hpp"
#include "rma/remote_memory.hpp"

using namespace shmpi::mpi;

namespace {

// What window rank 0 broadcasts once it has allocated.
struct Placement {
  std::int32_t error = MPI_SUCCESS;  // MPI_ERR_NO_MEM: rank 0 could not
  std::int32_t pad = 0;
  std::uint64_t block_offset = 0;   // the MemberLine array
  std::uint64_t shared_offset = 0;  // MPI_Win_allocate_shared's memory
};

// Lets the other ranks reach this process's memory with process_vm_*
// under Yama's ptrace_scope 1, which otherwise allows it to ancestors
// only. Without Yama the call fails harmlessly.
void allow_peer_access() {
  static const bool done = [] {
    ::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    return true;
  }();
  (void)done;
}

// Whether every other member's memory that lies outside its segment
// mapping is reachable through the kernel (rma/remote_memory.hpp): a
// one-byte process_vm_readv of its base. Only a refusal counts (EPERM,
// ENOSYS: ptrace restrictions); any other failure shows on first use.
bool peers_reachable(const Window& w) {
  const std::uint64_t total = state().runtime->segment().layout().total_bytes;
  for (std::size_t i = 0; i < w.members.size(); ++i) {
    const WindowMember& m = w.members[i];
    if (static_cast<int>(i) == w.rank || m.size == 0 ||
        (m.base >= m.segment && m.base + m.size <= m.segment + total)) {
      continue;
    }
    const shmpi::rma::CopyResult r = shmpi::rma::probe(m.pid, m.base);
    if (r.kind == shmpi::rma::CopyResult::Kind::kDenied &&
        r.error_number != ESRCH) {
      return false;
    }
  }
  return true;
}

struct Request {
  int flavor;
  void* base;     // MPI_Win_create: the program's memory
  MPI_Aint size;  // this member's bytes
  MPI_Aint disp_unit;
  MPI_Info info;
  MPI_Comm comm;
  void* baseptr;  // the allocating flavors: where the address goes
  MPI_Win* win;
  const char* function;
};

int check_request(const Request& r, Comm** parent) {
  if (int rc = check_initialized(r.function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(r.comm, parent, r.function); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = *parent;
  if (c->is_inter) {
    return fail(c, MPI_ERR_COMM, r.function,
                "a window needs an intracommunicator");
  }
  if (r.size < 0) {
    return fail(c, MPI_ERR_SIZE, r.function, "negative size %ld",
                static_cast<long>(r.size));
  }
  if (r.disp_unit <= 0) {
    return fail(c, MPI_ERR_DISP, r.function, "disp_unit %ld is not positive",
                static_cast<long>(r.disp_unit));
  }
  if (r.disp_unit > INT32_MAX) {
    return fail(c, MPI_ERR_DISP, r.function,
                "disp_unit %ld does not fit the MPI_WIN_DISP_UNIT attribute",
                static_cast<long>(r.disp_unit));
  }
  if (r.flavor == MPI_WIN_FLAVOR_CREATE && r.base == nullptr && r.size > 0) {
    return fail(c, MPI_ERR_BASE, r.function,
                "base is NULL with a size of %ld bytes",
                static_cast<long>(r.size));
  }
  if (r.info != MPI_INFO_NULL && find_info(r.info) == nullptr) {
    return fail(c, MPI_ERR_INFO, r.function, "invalid info object");
  }
  if ((r.flavor == MPI_WIN_FLAVOR_ALLOCATE ||
       r.flavor == MPI_WIN_FLAVOR_SHARED) &&
      r.baseptr == nullptr) {
    return fail(c, MPI_ERR_ARG, r.function, "baseptr is NULL");
  }
  if (r.win == nullptr) {
    return fail(c, MPI_ERR_ARG, r.function, "win is NULL");
  }
  return MPI_SUCCESS;
}

// The memory MPI_Win_allocate gives this member: from the shared heap,
// where every origin reaches it without a system call, else from the
// process's own heap. Returns false when neither has it.
bool allocate_own(Window& w, std::size_t bytes) {
  if (bytes == 0) {
    return true;
  }
  if (void* memory = state().runtime->segment().allocate_populated(bytes, 64)) {
    w.allocated = memory;
    w.allocated_in_heap = true;
  } else {
    const std::size_t rounded = (bytes + 63) / 64 * 64;
    w.allocated = std::aligned_alloc(64, rounded);  // NOLINT: freed by free
    if (w.allocated == nullptr) {
      return false;
    }
  }
  w.base = w.allocated;
  return true;
}

// Window rank 0's part: the block, and MPI_Win_allocate_shared's memory
// (every member's size, back to back in rank order, MPI 4.0 §12.2.3).
Placement place(Window& w) {
  Placement p;
  const shmpi::segment::Segment& segment = state().runtime->segment();
  std::uint64_t total = 0;
  if (w.flavor == MPI_WIN_FLAVOR_SHARED) {
    for (const WindowMember& m : w.members) {
      total += m.size;
    }
  }
  void* block =
      segment.allocate_populated(shmpi::rma::block_bytes(w.members.size()), 64);
  void* shared = nullptr;
  if (block != nullptr && total > 0) {
    shared = segment.allocate_populated(total, 64);
    if (shared == nullptr) {
      segment.heap().deallocate(block);
      block = nullptr;
    }
  }
  if (block == nullptr) {
    p.error = MPI_ERR_NO_MEM;
    return p;
  }
  auto* lines = static_cast<shmpi::rma::MemberLine*>(block);
  for (std::size_t i = 0; i < w.members.size(); ++i) {
    new (&lines[i]) shmpi::rma::MemberLine();
  }
  p.block_offset = segment.offset_of(block);
  if (shared != nullptr) {
    w.allocated = shared;
    w.allocated_in_heap = true;
    p.shared_offset = segment.offset_of(shared);
  }
  return p;
}

int create(const Request& r) {
  Comm* parent = nullptr;
  if (int rc = check_request(r, &parent); rc != MPI_SUCCESS) {
    return rc;
  }
  // The hints as given (MPI_Win_get_info reports the ones shmpi knows).
  InfoEntries hints;
  if (r.info != MPI_INFO_NULL) {
    hints = find_info(r.info)->entries;
  }
  Comm* wc = nullptr;
  const char* why = "";
  if (int rc = dup_intracomm(*parent, &wc, &why); rc != MPI_SUCCESS) {
    return fail(parent, rc, r.function, "%s", why);
  }
  wc->errhandler = MPI_ERRORS_RETURN;
  Window* w = windows().create();
  if (w == nullptr) {
    MPI_Comm handle = wc->handle;
    PMPI_Comm_free(&handle);
    return fail(parent, MPI_ERR_NO_MEM, r.function, "out of window handles");
  }
  w->comm = wc;
  w->flavor = r.flavor;
  w->rank = wc->rank;
  w->size = wc->size;
  w->disp_unit = static_cast<int>(r.disp_unit);
  w->local_size = r.size;
  w->hints = std::move(hints);
  w->epochs.locks.assign(static_cast<std::size_t>(w->size), 0);
  w->epochs.lock_nocheck.assign(static_cast<std::size_t>(w->size), 0);
  allow_peer_access();

  const shmpi::segment::Segment& segment = state().runtime->segment();
  // This member's memory, where it knows it already.
  bool have_memory = true;
  if (r.flavor == MPI_WIN_FLAVOR_CREATE) {
    w->base = r.base;
  } else if (r.flavor == MPI_WIN_FLAVOR_ALLOCATE) {
    have_memory = allocate_own(*w, static_cast<std::size_t>(r.size));
  }
  WindowMember mine;
  mine.base = reinterpret_cast<std::uintptr_t>(w->base);
  mine.size = have_memory ? static_cast<std::uint64_t>(r.size) : 0;
  mine.disp_unit = r.disp_unit;
  mine.segment = reinterpret_cast<std::uintptr_t>(segment.base());
  mine.pid = static_cast<std::int32_t>(::getpid());
  mine.reserved = have_memory ? 0 : 1;  // 1: MPI_Win_allocate failed here
  w->members.resize(static_cast<std::size_t>(w->size));
  int rc = PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, w->members.data(),
                          sizeof mine, MPI_BYTE, wc->handle);
  Placement placement;
  // Some member cannot reach another's memory: every member fails alike.
  int unreachable = 0;
  if (rc == MPI_SUCCESS && (r.flavor == MPI_WIN_FLAVOR_CREATE ||
                            r.flavor == MPI_WIN_FLAVOR_ALLOCATE)) {
    int mine_unreachable = peers_reachable(*w) ? 0 : 1;
    rc = PMPI_Allreduce(&mine_unreachable, &unreachable, 1, MPI_INT, MPI_MAX,
                        wc->handle);
  }
  if (rc == MPI_SUCCESS) {
    bool anyone_short = false;
    for (WindowMember& m : w->members) {
      anyone_short = anyone_short || m.reserved != 0;
      m.reserved = 0;
    }
    if (w->rank == 0) {
      placement = anyone_short  ? Placement{MPI_ERR_NO_MEM, 0, 0, 0}
                  : unreachable ? Placement{MPI_ERR_WIN, 0, 0, 0}
                                : place(*w);
    }
    rc = PMPI_Bcast(&placement, sizeof placement, MPI_BYTE, 0, wc->handle);
  }
  if (rc == MPI_SUCCESS) {
    rc = placement.error;
  }
  if (rc != MPI_SUCCESS) {
    destroy_window(w);
    return fail(parent, rc, r.function,
                rc == MPI_ERR_NO_MEM
                    ? "out of memory for the window (shmpirun --heap-size)"
                : rc == MPI_ERR_WIN
                    ? "memory outside the shared heap is unreachable between "
                      "processes here (ptrace restrictions: Yama "
                      "ptrace_scope, seccomp); use MPI_Win_allocate or "
                      "MPI_Alloc_mem memory"
                    : "the members could not agree on the window");
  }
  w->lines = segment.at<shmpi::rma::MemberLine>(
      static_cast<std::size_t>(placement.block_offset));
  if (r.flavor == MPI_WIN_FLAVOR_SHARED) {
    // Every member computes every member's address from the one offset.
    std::uint64_t at = placement.shared_offset;
    for (WindowMember& m : w->members) {
      m.base = placement.shared_offset != 0
                   ? reinterpret_cast<std::uintptr_t>(segment.base()) + at
                   : 0;
      at += m.size;
    }
    // The segment's address differs per process: each member's entry is in
    // this process's terms here, so translate nothing later.
    for (WindowMember& m : w->members) {
      m.segment = reinterpret_cast<std::uintptr_t>(segment.base());
    }
    const WindowMember& me = w->members[static_cast<std::size_t>(w->rank)];
    w->base = me.size > 0 ? reinterpret_cast<void*>(me.base) : nullptr;
  }
  if (r.flavor == MPI_WIN_FLAVOR_ALLOCATE ||
      r.flavor == MPI_WIN_FLAVOR_SHARED) {
    std::memcpy(r.baseptr, &w->base, sizeof w->base);
  }
  // From now on errors raised on the private communicator (the datatype
  // and count checks of RMA calls, the fence's barrier) are the window's;
  // during creation they came back here and went to the parent.
  wc->window = w;
  *r.win = w->handle();
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit,
                               MPI_Info info, MPI_Comm comm,
                               MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm,
                 nullptr, win, "MPI_Win_create"});
}
SHMPI_PMPI_ALIAS(MPI_Win_create);

extern "C" int PMPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit,
                                 MPI_Info info, MPI_Comm comm,
                                 MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm,
                 nullptr, win, "MPI_Win_create_c"});
}
SHMPI_PMPI_ALIAS(MPI_Win_create_c);

extern "C" int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                                 MPI_Comm comm, void* baseptr,
                                 MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_ALLOCATE, nullptr, size, disp_unit, info, comm,
                 baseptr, win, "MPI_Win_allocate"});
}
SHMPI_PMPI_ALIAS(MPI_Win_allocate);

extern "C" int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit,
                                   MPI_Info info, MPI_Comm comm, void* baseptr,
                                   MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_ALLOCATE, nullptr, size, disp_unit, info, comm,
                 baseptr, win, "MPI_Win_allocate_c"});
}
SHMPI_PMPI_ALIAS(MPI_Win_allocate_c);

extern "C" int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit,
                                        MPI_Info info, MPI_Comm comm,
                                        void* baseptr, MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_SHARED, nullptr, size, disp_unit, info, comm,
                 baseptr, win, "MPI_Win_allocate_shared"});
}
SHMPI_PMPI_ALIAS(MPI_Win_allocate_shared);

extern "C" int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
                                          MPI_Info info, MPI_Comm comm,
                                          void* baseptr,
                                          MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_SHARED, nullptr, size, disp_unit, info, comm,
                 baseptr, win, "MPI_Win_allocate_shared_c"});
}
SHMPI_PMPI_ALIAS(MPI_Win_allocate_shared_c);

extern "C" int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm,
                                       MPI_Win* win) noexcept {
  return create({MPI_WIN_FLAVOR_DYNAMIC, nullptr, 0, 1, info, comm, nullptr,
                 win, "MPI_Win_create_dynamic"});
}
SHMPI_PMPI_ALIAS(MPI_Win_create_dynamic);

extern "C" int PMPI_Win_free(MPI_Win* win) noexcept {
  constexpr const char* kFunction = "MPI_Win_free";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (win == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "win is NULL");
  }
  Window* w = nullptr;
  if (int rc = check_win(*win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  const Epochs& e = w->epochs;
  if (e.access_started || e.exposure_posted || e.locked_targets != 0 ||
      e.lock_all) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "an epoch is still open (%s)",
                    e.access_started    ? "MPI_Win_start"
                    : e.exposure_posted ? "MPI_Win_post"
                                        : "MPI_Win_lock");
  }
  // Delete callbacks first, while the window still exists for them.
  const int deleted = delete_attributes(AttrHost{w->handle(), w->attributes});
  // No member frees its memory (or rank 0 the block) while another may
  // still reach it.
  const int rc = PMPI_Barrier(w->comm->handle);
  const MPI_Errhandler handler = w->errhandler;
  destroy_window(w);
  *win = MPI_WIN_NULL;
  // A failed barrier was raised on the window already (Comm::window).
  int result = rc;
  if (rc == MPI_SUCCESS && deleted != MPI_SUCCESS) {
    Window reporter;  // the freed window's handler, for the report
    reporter.errhandler = handler;
    result = raise_win_code(&reporter, deleted, kFunction);
  }
  release_errhandler(handler);  // the window's hold on it
  return result;
}
SHMPI_PMPI_ALIAS(MPI_Win_free);

namespace {

int shared_query(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit,
                 void* baseptr, const char* function) {
  Window* w = nullptr;
  if (int rc = check_win(win, &w, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (w->flavor != MPI_WIN_FLAVOR_SHARED) {
    return fail_win(w, MPI_ERR_RMA_FLAVOR, function,
                    "the window was not made by MPI_Win_allocate_shared");
  }
  if (rank != MPI_PROC_NULL &&
      static_cast<unsigned>(rank) >= static_cast<unsigned>(w->size)) {
    return fail_win(w, MPI_ERR_RANK, function,
                    "rank %d is not a rank of the window (size %d)", rank,
                    w->size);
  }
  if (size == nullptr || disp_unit == nullptr || baseptr == nullptr) {
    return fail_win(w, MPI_ERR_ARG, function, "an output argument is NULL");
  }
  int chosen = rank;
  if (rank == MPI_PROC_NULL) {
    // The lowest rank with memory (MPI 4.0 §12.2.3); none: all sizes zero.
    chosen = -1;
    for (int i = 0; i < w->size && chosen < 0; ++i) {
      if (w->members[static_cast<std::size_t>(i)].size > 0) {
        chosen = i;
      }
    }
  }
  void* address = nullptr;
  if (chosen < 0) {
    *size = 0;
    *disp_unit = 0;
  } else {
    const WindowMember& m = w->members[static_cast<std::size_t>(chosen)];
    *size = static_cast<MPI_Aint>(m.size);
    *disp_unit = static_cast<MPI_Aint>(m.disp_unit);
    address = m.size > 0 ? reinterpret_cast<void*>(m.base) : nullptr;
  }
  std::memcpy(baseptr, &address, sizeof address);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size,
                                     int* disp_unit, void* baseptr) noexcept {
  MPI_Aint unit = 0;
  const int rc =
      shared_query(win, rank, size, disp_unit == nullptr ? nullptr : &unit,
                   baseptr, "MPI_Win_shared_query");
  if (rc == MPI_SUCCESS) {
    *disp_unit = static_cast<int>(unit);
  }
  return rc;
}
SHMPI_PMPI_ALIAS(MPI_Win_shared_query);

extern "C" int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size,
                                       MPI_Aint* disp_unit,
                                       void* baseptr) noexcept {
  return shared_query(win, rank, size, disp_unit, baseptr,
                      "MPI_Win_shared_query_c");
}
SHMPI_PMPI_ALIAS(MPI_Win_shared_query_c);
