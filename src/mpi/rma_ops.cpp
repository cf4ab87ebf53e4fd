// SPDX-License-Identifier: MIT
// One-sided data movement (mpi/rma_ops.hpp): argument checks in the
// standard's order, raised on the window; the target's memory through
// rma/remote_memory.hpp; accumulate operations under the target's
// accumulate lock (rma/window_block.hpp).
#include "mpi/rma_ops.hpp"

#include <sched.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "base/small_vector.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/p2p_common.hpp"
#include "mpi/window.hpp"
#include "p2p/engine.hpp"
#include "rma/remote_memory.hpp"

namespace shmpi::mpi {

namespace {

// A staging buffer of packed data: on the stack for the small operations
// (a fetch-and-op, a compare-and-swap), on the heap beyond.
using Packed = boost::container::small_vector<std::byte, 256>;

// The target of a checked call.
struct Access {
  Window* win = nullptr;
  int target = MPI_PROC_NULL;  // MPI_PROC_NULL: nothing to do
  datatype::Layout remote;     // the target data, in the target's addresses
};

// Core's checks raise on a communicator: given the window's own, they
// raise on the window's handler (Comm::window), with their full message.
int check_type_on(Window& win, MPI_Datatype type, bool reduction, TypeArg* out,
                  const char* function) noexcept {
  return reduction ? check_reduction_datatype(win.comm, type, out, function)
                   : check_datatype(win.comm, type, out, function);
}

// (addr, count, datatype) of the origin or result side.
int check_local(Window& win, const RmaBuffer& side, bool reduction,
                TypeArg* out, const char* function) noexcept {
  if (side.count < 0) {
    return fail_win(&win, MPI_ERR_COUNT, function, "negative count %lld",
                    static_cast<long long>(side.count));
  }
  if (int rc = check_type_on(win, side.type, reduction, out, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return check_buffer(win.comm, side.buffer, side.count, *out, function);
}

// target_rank (and the epoch), target_disp, target_count and
// target_datatype, then where the data is and whether it fits.
int check_target(Window& win, const RmaTarget& t, bool reduction, TypeArg* type,
                 Access* access, const char* function) noexcept {
  if (int rc = check_access(win, t.rank, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (t.disp < 0 && win.flavor != MPI_WIN_FLAVOR_DYNAMIC) {
    return fail_win(&win, MPI_ERR_DISP, function, "negative target_disp %ld",
                    static_cast<long>(t.disp));
  }
  if (t.count < 0) {
    return fail_win(&win, MPI_ERR_COUNT, function, "negative target_count %lld",
                    static_cast<long long>(t.count));
  }
  if (int rc = check_type_on(win, t.type, reduction, type, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  access->win = &win;
  access->target = t.rank;
  return MPI_SUCCESS;
}

// The target data's address and its range check, once the signatures
// agree (it needs the counts).
int locate(Window& win, const RmaTarget& t, const TypeArg& type, Access* access,
           const char* function) noexcept {
  if (access->target == MPI_PROC_NULL) {
    return MPI_SUCCESS;
  }
  const WindowMember& m = win.members[static_cast<std::size_t>(t.rank)];
  const auto count = static_cast<std::size_t>(t.count);
  std::uint64_t start = 0;  // where target_disp points, target's address
  if (win.flavor == MPI_WIN_FLAVOR_DYNAMIC) {
    start = static_cast<std::uint64_t>(t.disp);  // MPI_Get_address's
  } else {
    std::int64_t offset = 0;
    if (__builtin_mul_overflow(static_cast<std::int64_t>(t.disp), m.disp_unit,
                               &offset)) {
      return fail_win(&win, MPI_ERR_RMA_RANGE, function,
                      "target_disp %ld times disp_unit %ld overflows",
                      static_cast<long>(t.disp),
                      static_cast<long>(m.disp_unit));
    }
    start = m.base + static_cast<std::uint64_t>(offset);
  }
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the target's address
  access->remote = type.layout(reinterpret_cast<const void*>(start), count);
  if (access->remote.bytes == 0) {
    return MPI_SUCCESS;
  }
  const rma::Span span = rma::span_of(access->remote);
  if (win.flavor == MPI_WIN_FLAVOR_DYNAMIC) {
    if (span.hi < span.lo ||
        !find_attached(win, t.rank, span.lo, span.hi - span.lo)) {
      return fail_win(&win, MPI_ERR_RMA_RANGE, function,
                      "bytes [%#lx, %#lx) of target %d are not inside a "
                      "region it attached",
                      static_cast<unsigned long>(span.lo),
                      static_cast<unsigned long>(span.hi), t.rank);
    }
    return MPI_SUCCESS;
  }
  if (span.lo < m.base || span.hi > m.base + m.size || span.hi < span.lo) {
    return fail_win(&win, MPI_ERR_RMA_RANGE, function,
                    "bytes [%ld, %ld) from target %d's window base are "
                    "outside its %lu bytes",
                    static_cast<long>(span.lo - m.base),
                    static_cast<long>(span.hi - m.base), t.rank,
                    static_cast<unsigned long>(m.size));
  }
  return MPI_SUCCESS;
}

rma::RemoteProcess process_of(const Window& win, int target) {
  const WindowMember& m = win.members[static_cast<std::size_t>(target)];
  return rma::RemoteProcess{static_cast<pid_t>(m.pid), m.segment,
                            state().runtime->segment().layout().total_bytes,
                            target == win.rank};
}

rma::LocalSegment my_segment() {
  return rma::LocalSegment{state().runtime->segment().base()};
}

// An rma::CopyResult as an error raised on the window.
int copy_failed(Window& win, const rma::CopyResult& r, int target,
                const char* function) noexcept {
  if (r.kind == rma::CopyResult::Kind::kFault) {
    return fail_win(
        &win, MPI_ERR_RMA_RANGE, function,
        "target %d's memory is not mapped there (%s)", target,
        r.error_number != 0 ? std::strerror(r.error_number) : "short copy");
  }
  return fail_win(&win, MPI_ERR_OTHER, function,
                  "cannot reach target %d's memory: %s", target,
                  std::strerror(r.error_number));
}

int write_target(const Access& a, const datatype::Layout& from,
                 const char* function) noexcept {
  const rma::CopyResult r =
      rma::write(process_of(*a.win, a.target), my_segment(), a.remote, from);
  return r.ok() ? MPI_SUCCESS : copy_failed(*a.win, r, a.target, function);
}

int read_target(const Access& a, const datatype::Layout& into,
                const char* function) noexcept {
  const rma::CopyResult r =
      rma::read(process_of(*a.win, a.target), my_segment(), a.remote, into);
  return r.ok() ? MPI_SUCCESS : copy_failed(*a.win, r, a.target, function);
}

// The request of an R form: allocated before the operation runs, so that
// running out of handles leaves nothing done.
int open_request(const RmaCall& call, Window& win, p2p::Request** out) {
  *out = nullptr;
  if (!call.wants_request) {
    return MPI_SUCCESS;
  }
  if (call.request == nullptr) {
    return fail_win(&win, MPI_ERR_ARG, call.function, "request is NULL");
  }
  p2p::Request* r = new_request(win.comm, call.function);
  if (r == nullptr) {
    return fail_win(&win, MPI_ERR_NO_MEM, call.function,
                    "out of request handles");
  }
  *out = r;
  return MPI_SUCCESS;
}

// Hands the request of an R form out complete (the operation is done), or
// drops it when the operation failed.
int close_request(const RmaCall& call, p2p::Request* r, int rc) {
  if (r == nullptr) {
    return rc;
  }
  if (rc != MPI_SUCCESS) {
    state().requests.destroy(r);
    return rc;
  }
  r->comm = nullptr;  // errors of RMA requests belong to no communicator
  r->status = p2p::Status{};
  // Release: pairs with the waiter's acquire of `complete` (as
  // complete_proc_null does); the data moved before it.
  r->complete.store(true, std::memory_order_release);
  *call.request = to_handle(r);
  return MPI_SUCCESS;
}

int signature_error(Window& win, const char* what, std::size_t a, std::size_t b,
                    const char* function) noexcept {
  return fail_win(&win, MPI_ERR_TYPE, function,
                  "%s: %zu bytes of data against %zu at the target", what, a,
                  b);
}

// The accumulate lock of `target`'s memory, held for one operation's
// read-modify-write: accumulate operations are atomic element-wise
// against each other (MPI 4.0 §12.7.1). Spins; a waiter lets progress
// and the other processes run, so an oversubscribed machine moves on.
class AccumulateLock {
 public:
  AccumulateLock(Window& win, int target)
      : word_(win.lines[static_cast<std::size_t>(target)].accumulate) {
    std::uint32_t expected = 0;
    // Acquire: pairs with the release in the destructor, so the previous
    // holder's writes to the target's memory are seen by our read of it.
    while (!word_.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                        std::memory_order_relaxed)) {
      // Relaxed: only a hint of when to try again; the exchange above
      // decides.
      while (word_.load(std::memory_order_relaxed) != 0) {
        state().engine->progress();
        sched_yield();
      }
      expected = 0;
    }
  }
  ~AccumulateLock() {
    // Release: publishes this operation's writes to the target's memory
    // (memcpy through the segment, or the kernel's copy, which returned
    // before this store) to the next holder's acquire.
    word_.store(0, std::memory_order_release);
  }
  AccumulateLock(const AccumulateLock&) = delete;
  AccumulateLock& operator=(const AccumulateLock&) = delete;

 private:
  std::atomic<std::uint32_t>& word_;
};

}  // namespace

namespace {

// MPI_Put (to_target) and MPI_Get, with their R forms: the same checks,
// then one copy in either direction.
int put_or_get(const RmaCall& call, const RmaBuffer& origin,
               const RmaTarget& target, bool to_target) noexcept {
  Window* w = nullptr;
  if (int rc = check_win(call.win, &w, call.function); rc != MPI_SUCCESS) {
    return rc;
  }
  Window& win = *w;
  TypeArg otype;
  TypeArg ttype;
  Access a;
  if (int rc = check_local(win, origin, false, &otype, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_target(win, target, false, &ttype, &a, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const auto ocount = static_cast<std::size_t>(origin.count);
  const auto tcount = static_cast<std::size_t>(target.count);
  if (otype.bytes(ocount) != ttype.bytes(tcount)) {
    return signature_error(win, "origin and target types differ",
                           otype.bytes(ocount), ttype.bytes(tcount),
                           call.function);
  }
  if (int rc = locate(win, target, ttype, &a, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  p2p::Request* r = nullptr;
  if (int rc = open_request(call, win, &r); rc != MPI_SUCCESS) {
    return rc;
  }
  int rc = MPI_SUCCESS;
  if (a.target != MPI_PROC_NULL) {
    const datatype::Layout local = otype.layout(origin.buffer, ocount);
    rc = to_target ? write_target(a, local, call.function)
                   : read_target(a, local, call.function);
  }
  return close_request(call, r, rc);
}

}  // namespace

int rma_put(const RmaCall& call, const RmaBuffer& origin,
            const RmaTarget& target) noexcept {
  return put_or_get(call, origin, target, true);
}

int rma_get(const RmaCall& call, const RmaBuffer& origin,
            const RmaTarget& target) noexcept {
  return put_or_get(call, origin, target, false);
}

namespace {

// The op of an accumulate call: MPI_REPLACE, MPI_NO_OP (where allowed) or
// a predefined reduction the target's elements support.
int check_rma_op(Window& win, MPI_Op op, bool no_op_allowed,
                 const TypeArg& type, OpArg* out,
                 const char* function) noexcept {
  if (op == MPI_REPLACE || (op == MPI_NO_OP && no_op_allowed)) {
    out->handle = op;
    return MPI_SUCCESS;
  }
  if (op == MPI_NO_OP) {
    return fail_win(&win, MPI_ERR_OP, function,
                    "MPI_NO_OP is for MPI_Get_accumulate and "
                    "MPI_Fetch_and_op only");
  }
  if (int rc = check_op(win.comm, op, type, out, function); rc != MPI_SUCCESS) {
    return rc;  // raised on the window (Comm::window)
  }
  if (out->user != nullptr) {
    return fail_win(&win, MPI_ERR_OP, function,
                    "one-sided accumulate operations take predefined "
                    "operations only, not user-defined ones");
  }
  return MPI_SUCCESS;
}

// The basic element every datatype of an accumulate is made of.
int same_element(Window& win, const TypeArg& a, const TypeArg& b,
                 const char* what, const char* function) noexcept {
  if (a.element == nullptr || b.element == nullptr ||
      a.element->id != b.element->id) {
    return fail_win(&win, MPI_ERR_TYPE, function,
                    "%s: accumulate datatypes must be made of one same "
                    "predefined type (%s against %s)",
                    what, a.element != nullptr ? a.element->name : "mixed",
                    b.element != nullptr ? b.element->name : "mixed");
  }
  return MPI_SUCCESS;
}

// accumulate_at() when the target data is contiguous and mapped here
// (`here`): read, reduced and written where it is, with no copy of the
// target data (an origin that is not contiguous is packed first).
int accumulate_in_place(const Access& a, const OpArg& op, const TypeArg& ttype,
                        std::size_t tcount, const datatype::Layout& origin,
                        const datatype::Layout* result, std::byte* here,
                        const char* function) noexcept {
  const std::size_t bytes = ttype.bytes(tcount);
  const bool replace = op.handle == MPI_REPLACE;
  const bool no_op = op.handle == MPI_NO_OP;
  try {
    Packed packed;
    const std::byte* in = origin.base;
    if (!replace && !no_op && origin.map != nullptr) {
      packed.resize(bytes);
      datatype::pack(origin, 0, packed.data(), bytes);
      in = packed.data();
    }
    AccumulateLock lock(*a.win, a.target);
    if (result != nullptr) {
      datatype::unpack(*result, 0, here, bytes);
    }
    if (replace) {
      datatype::pack(origin, 0, here, bytes);
    } else if (!no_op) {
      apply_op(op, ttype, in, here, tcount);
    }
    return MPI_SUCCESS;
  } catch (...) {
    return fail_win(a.win, MPI_ERR_NO_MEM, function,
                    "no memory for %zu bytes of accumulate data", bytes);
  }
}

// One accumulate at the target, under its accumulate lock: the old
// target data into `result` (when given), then target = origin op target.
// `origin` is unused for MPI_NO_OP. `bytes` is the packed size of the
// target data, in the reduction form (padded pairs as their C struct).
int accumulate_at(const Access& a, const OpArg& op, const TypeArg& ttype,
                  std::size_t tcount, const datatype::Layout& origin,
                  const datatype::Layout* result,
                  const char* function) noexcept {
  const std::size_t bytes = ttype.bytes(tcount);
  const bool replace = op.handle == MPI_REPLACE;
  const bool no_op = op.handle == MPI_NO_OP;
  std::byte* here = a.remote.map == nullptr
                        ? rma::direct_base(process_of(*a.win, a.target),
                                           my_segment(), a.remote)
                        : nullptr;
  if (here != nullptr) {
    return accumulate_in_place(a, op, ttype, tcount, origin, result, here,
                               function);
  }
  try {
    Packed old;
    Packed in;
    if (result != nullptr || !replace) {
      old.resize(bytes);
    }
    if (!replace && !no_op) {
      in.resize(bytes);
      datatype::pack(origin, 0, in.data(), bytes);
    }
    AccumulateLock lock(*a.win, a.target);
    if (!old.empty()) {
      const datatype::Layout packed{old.data(), bytes, nullptr};
      if (int rc = read_target(a, packed, function); rc != MPI_SUCCESS) {
        return rc;
      }
    }
    if (result != nullptr) {
      datatype::unpack(*result, 0, old.data(), bytes);
    }
    if (no_op) {
      return MPI_SUCCESS;
    }
    if (replace) {
      return write_target(a, origin, function);
    }
    apply_op(op, ttype, in.data(), old.data(), tcount);
    return write_target(a, datatype::Layout{old.data(), bytes, nullptr},
                        function);
  } catch (...) {
    return fail_win(a.win, MPI_ERR_NO_MEM, function,
                    "no memory for %zu bytes of accumulate data", bytes);
  }
}

}  // namespace

int rma_accumulate(const RmaCall& call, const RmaBuffer& origin,
                   const RmaBuffer& result, const RmaTarget& target, MPI_Op op,
                   bool fetch) noexcept {
  Window* w = nullptr;
  if (int rc = check_win(call.win, &w, call.function); rc != MPI_SUCCESS) {
    return rc;
  }
  Window& win = *w;
  // MPI_NO_OP: the origin arguments are ignored (MPI 4.0 §12.3.4).
  const bool origin_used = !(fetch && op == MPI_NO_OP);
  TypeArg otype;
  TypeArg rtype;
  TypeArg ttype;
  Access a;
  if (origin_used) {
    if (int rc = check_local(win, origin, true, &otype, call.function);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (fetch) {
    if (int rc = check_local(win, result, true, &rtype, call.function);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (int rc = check_target(win, target, true, &ttype, &a, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  OpArg oparg;
  if (int rc = check_rma_op(win, op, fetch, ttype, &oparg, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const auto ocount = static_cast<std::size_t>(origin.count);
  const auto rcount = static_cast<std::size_t>(result.count);
  const auto tcount = static_cast<std::size_t>(target.count);
  if (origin_used) {
    if (int rc =
            same_element(win, otype, ttype, "origin and target", call.function);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (otype.bytes(ocount) != ttype.bytes(tcount)) {
      return signature_error(win, "origin and target types differ",
                             otype.bytes(ocount), ttype.bytes(tcount),
                             call.function);
    }
  }
  if (fetch) {
    if (int rc =
            same_element(win, rtype, ttype, "result and target", call.function);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (rtype.bytes(rcount) != ttype.bytes(tcount)) {
      return signature_error(win, "result and target types differ",
                             rtype.bytes(rcount), ttype.bytes(tcount),
                             call.function);
    }
  }
  if (int rc = locate(win, target, ttype, &a, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  p2p::Request* r = nullptr;
  if (int rc = open_request(call, win, &r); rc != MPI_SUCCESS) {
    return rc;
  }
  int rc = MPI_SUCCESS;
  if (a.target != MPI_PROC_NULL && ttype.bytes(tcount) != 0) {
    const datatype::Layout from =
        origin_used ? otype.layout(origin.buffer, ocount) : datatype::Layout{};
    const datatype::Layout into =
        fetch ? rtype.layout(result.buffer, rcount) : datatype::Layout{};
    rc = accumulate_at(a, oparg, ttype, tcount, from, fetch ? &into : nullptr,
                       call.function);
  }
  return close_request(call, r, rc);
}

int rma_fetch_and_op(const RmaCall& call, const void* origin, void* result,
                     MPI_Datatype type, int target, MPI_Aint disp,
                     MPI_Op op) noexcept {
  Window* w = nullptr;
  if (int rc = check_win(call.win, &w, call.function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (find_type(type) == nullptr) {
    return fail_win(w, MPI_ERR_TYPE, call.function,
                    "the datatype must be a predefined one");
  }
  // One element of the type on every side: MPI_Get_accumulate's checks
  // and data path.
  return rma_accumulate(call, RmaBuffer{origin, 1, type},
                        RmaBuffer{result, 1, type},
                        RmaTarget{target, disp, 1, type}, op, true);
}

int rma_compare_and_swap(const RmaCall& call, const void* origin,
                         const void* compare, void* result, MPI_Datatype type,
                         int target, MPI_Aint disp) noexcept {
  Window* w = nullptr;
  if (int rc = check_win(call.win, &w, call.function); rc != MPI_SUCCESS) {
    return rc;
  }
  Window& win = *w;
  const datatype::BasicType* basic = find_type(type);
  using datatype::TypeClass;
  if (basic == nullptr ||
      !(basic->cls == TypeClass::kInteger ||
        basic->cls == TypeClass::kUnsigned ||
        basic->cls == TypeClass::kFortranInteger ||
        basic->cls == TypeClass::kLogical || basic->cls == TypeClass::kByte)) {
    return fail_win(&win, MPI_ERR_TYPE, call.function,
                    "the datatype must be a predefined integer, logical or "
                    "byte type (got %s)",
                    basic != nullptr ? basic->name : "a derived type");
  }
  if (origin == nullptr || compare == nullptr || result == nullptr) {
    return fail_win(&win, MPI_ERR_BUFFER, call.function,
                    "origin_addr, compare_addr and result_addr must not be "
                    "NULL");
  }
  TypeArg ttype;
  Access a;
  const RmaTarget t{target, disp, 1, type};
  if (int rc = check_target(win, t, true, &ttype, &a, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = locate(win, t, ttype, &a, call.function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (a.target == MPI_PROC_NULL) {
    return MPI_SUCCESS;
  }
  const std::size_t bytes = ttype.bytes(1);
  std::byte old[16];
  static_assert(sizeof old >= sizeof(long long), "the widest integer type");
  if (bytes > sizeof old) {
    return fail_win(&win, MPI_ERR_TYPE, call.function, "%s is too wide",
                    basic->name);
  }
  AccumulateLock lock(win, a.target);
  if (int rc =
          read_target(a, datatype::Layout{old, bytes, nullptr}, call.function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::memcpy(result, old, bytes);
  if (std::memcmp(old, compare, bytes) != 0) {
    return MPI_SUCCESS;
  }
  return write_target(
      a,
      // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): only read
      datatype::Layout{static_cast<std::byte*>(const_cast<void*>(origin)),
                       bytes, nullptr},
      call.function);
}

}  // namespace shmpi::mpi
