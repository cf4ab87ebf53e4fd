// SPDX-License-Identifier: MIT
// The MPI layer's objects and its one error path. Every MPI_* entry point
// checks its arguments in the standard's order, calls into the engine, and
// returns through finish() / fail(), which applies the communicator's error
// handler.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "datatype/reduce_ops.hpp"
#include "mpi/attribute.hpp"
#include "mpi/handle_arena.hpp"
#include "mpi/topology.hpp"
#include "p2p/request.hpp"
#include "runtime/runtime.hpp"

namespace shmpi::mpi {

inline constexpr std::uintptr_t kPredefinedLimit =
    0x400;  // mpi.h: predefined handles are below

struct Errhandler {
  static constexpr std::uint32_t kMagic = 0x45726831;  // "Erh1"
  std::uint32_t magic = kMagic;
  // Made by MPI_Comm_create_errhandler (function) or by
  // MPI_Session_create_errhandler (session_function); each kind of object
  // takes only its own kind.
  MPI_Comm_errhandler_function* function = nullptr;
  MPI_Session_errhandler_function* session_function = nullptr;
  MPI_Win_errhandler_function* win_function = nullptr;  // Win_create_errhandler
  MPI_File_errhandler_function* file_function = nullptr;  // File_create_...
  int references = 1;
};

// A predefined handler or a live user one.
bool is_errhandler(MPI_Errhandler handler);
// One more / one fewer holder of a user handler (an object it is set on, a
// handle the program got); the last release frees it. Predefined handlers
// ignore both.
void retain_errhandler(MPI_Errhandler handler);
void release_errhandler(MPI_Errhandler handler);

struct Session;  // mpi/session.hpp
struct Window;   // mpi/window.hpp
struct File;     // mpi/file.hpp

namespace detail {
struct CommShared;  // mpi/comm/*: scratch block and creation bookkeeping
}

// A communicator. On an intracommunicator the local and the remote group are
// the same group; on an intercommunicator `slots`, `remote_lpids` and the
// send context belong to the remote group (the one ranks in point-to-point
// calls name), everything else to the local one.
struct Comm {
  static constexpr std::uint32_t kMagic = 0x436f6d31;  // "Com1"
  std::uint32_t magic = kMagic;
  // Point-to-point contexts: messages carry context_id, receives match on
  // recv_context_id (equal on an intracommunicator; on an intercommunicator
  // context_id is the remote group's recv_context_id).
  std::uint16_t context_id = 0;
  std::uint16_t recv_context_id = 0;
  // The same two with Z = 1, for the library's internal collective traffic.
  std::uint16_t coll_context_id = 0;
  std::uint16_t coll_recv_context_id = 0;
  int rank = 0;  // in the local group
  int size = 0;  // of the local group
  bool is_inter = false;
  int remote_size = 0;  // of the remote group (== size on an intracomm)
  std::vector<std::uint32_t> slots;        // peer rank -> segment slot
  std::vector<std::int32_t> lpids;         // local group, rank -> lpid
  std::vector<std::int32_t> remote_lpids;  // intercomm: remote rank -> lpid
  Comm* local_comm = nullptr;  // intercomm: the local group as intracomm
  // NUMA sub-communicators (context ID field YY), made on first request
  // without agreement and freed with this communicator: the members on my
  // NUMA node, and the lowest member of every node (nullptr when I am not
  // one: MPI_COMM_NULL).
  Comm* intranode = nullptr;
  Comm* internode = nullptr;
  bool subcomms_made = false;
  // With them: each rank's node, numbered by its leader's rank in
  // `internode`, and each node's leader (a rank of this communicator).
  std::vector<int> numa_node_of;
  std::vector<int> numa_leaders;
  // Collectives go through them (coll/numa.hpp): -1 not decided yet.
  int numa_hierarchy = -1;
  detail::CommShared* shared = nullptr;  // scratch block etc. (owned)
  bool predefined = false;               // MPI_COMM_WORLD / MPI_COMM_SELF
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  MPI_Comm handle = MPI_COMM_NULL;    // the handle the user sees
  std::vector<Attribute> attributes;  // cached attributes, in set order
  std::vector<std::pair<std::string, std::string>> hints;  // Comm_set_info
  // The virtual topology (mpi/topology.hpp), shared with dups; null: none.
  std::shared_ptr<const Topology> topology;
  // A window's private communicator (mpi/window.hpp): the window. Errors
  // raised on the communicator are the window's and go to its handler.
  Window* window = nullptr;
  // Likewise a file's private communicator (mpi/file.hpp): the file.
  File* file = nullptr;

  // Number of ranks a point-to-point call may name.
  int peer_count() const { return is_inter ? remote_size : size; }
};

struct Runtime;

// Global objects of the MPI layer (created in MPI_Init).
struct MpiState {
  Comm world;
  Comm self;
  HandleArena<Comm> comms{1u << 16};
  HandleArena<p2p::Request> requests{1u << 22};
  HandleArena<Errhandler> errhandlers{1u << 16};
  runtime::Runtime* runtime = nullptr;
  bool thread_multiple = false;
  p2p::Engine* engine = nullptr;
  // MPI_Comm_get_parent's: the intercommunicator with the processes that
  // spawned this one (mpi/spawn.hpp), until it is freed or disconnected.
  MPI_Comm parent = MPI_COMM_NULL;
};
namespace detail {
// Set once, by the first state() call (make_state), and never changed: the
// object lives until exit.
extern std::atomic<MpiState*> state_instance;
MpiState& make_state();
}  // namespace detail
// Every entry point calls this, most several times, so it is a load and a
// test inline rather than a call and a guarded static.
inline MpiState& state() {
  // Acquire: pairs with make_state()'s release, so the object is seen
  // constructed. On x86 this is a plain load.
  if (MpiState* s = detail::state_instance.load(std::memory_order_acquire))
      [[likely]] {
    return *s;
  }
  return detail::make_state();
}

// The runtime runs: some MPI_Init or MPI_Session_init has not been ended
// by its MPI_Finalize / MPI_Session_finalize (mpi/lifecycle.hpp).
inline bool initialized() {
  // Acquire: pairs with start_runtime()'s release, so the state it set up
  // is seen.
  return runtime::active().load(std::memory_order_acquire);
}
// The World Model runs: between MPI_Init and MPI_Finalize, when
// MPI_COMM_WORLD and MPI_COMM_SELF exist.
inline bool world_initialized() {
  // Acquire: pairs with MPI_Init's release store, after it made the
  // predefined communicators.
  return runtime::lifecycle().load(std::memory_order_acquire) ==
         runtime::kInitialized;
}

// Handle lookups: nullptr for a null, invalid or garbage handle.
inline Comm* find_comm(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) {
    // Only the World Model has them (a sessions-only program does not);
    // while it runs, so does the runtime, so one load decides.
    if (!world_initialized()) [[unlikely]] {
      return nullptr;
    }
    return comm == MPI_COMM_WORLD ? &state().world : &state().self;
  }
  if (!initialized()) [[unlikely]] {
    return nullptr;
  }
  return state().comms.find(comm);
}
inline const datatype::BasicType* find_type(MPI_Datatype type) {
  return datatype::find_predefined(reinterpret_cast<std::uintptr_t>(type));
}
inline p2p::Request* find_request(MPI_Request request) {
  return state().requests.find(request);
}
inline MPI_Request to_handle(p2p::Request* request) {
  return reinterpret_cast<MPI_Request>(
      request);  // NOLINT: handles are object pointers
}

// Raises `mpi_class` on `comm` (nullptr, for errors tied to no object: on
// MPI_COMM_SELF, MPI 4.0 §9.3; before MPI_Init and after MPI_Finalize the
// initial handler, MPI_ERRORS_ARE_FATAL): prints and aborts under
// MPI_ERRORS_ARE_FATAL / MPI_ERRORS_ABORT, calls a user handler, and
// returns the error code. `detail` is printed after the function name.
[[gnu::format(printf, 4, 5)]] int fail(Comm* comm, int mpi_class,
                                       const char* function, const char* detail,
                                       ...) noexcept;
// Same, for a fixed `detail` (no per-call values): the error code's own
// string (MPI_Error_string) then says it too, not just the class.
int fail_static(Comm* comm, int mpi_class, const char* function,
                const char* detail) noexcept;
// Same for a code that already carries its class (e.g. from a request).
int raise_code(Comm* comm, int code, const char* function) noexcept;
// The same two for an error on a session: raised on its error handler
// (`session` nullptr: as fail(nullptr, ...)).
[[gnu::format(printf, 4, 5)]] int fail_session(Session* session, int mpi_class,
                                               const char* function,
                                               const char* detail,
                                               ...) noexcept;
int raise_session_code(Session* session, int code,
                       const char* function) noexcept;

// Argument checks shared by the entry points; each returns MPI_SUCCESS or
// raises (through fail) and returns the error code.
inline int check_initialized(const char* function) noexcept;
inline int check_comm(MPI_Comm handle, Comm** out,
                      const char* function) noexcept;
inline int check_count(Comm* comm, MPI_Count count,
                       const char* function) noexcept;
int check_type(Comm* comm, MPI_Datatype type, const datatype::BasicType** out,
               const char* function) noexcept;
// A checked datatype argument: what protocols, collectives and reductions
// need to know about a predefined or derived datatype. Data travels in its
// packed form: `packed` bytes per element. A predefined type is contiguous
// (no map), except for data movement the padded value-index pairs
// (MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT):
// MPI 4.0 §6.9.4 defines them as the struct of their two fields, so they
// pack their data only (12 bytes for MPI_DOUBLE_INT, extent 16) through the
// TypeMap of their predefined description, as a user struct datatype of the
// same fields does. A reduction on the pair itself takes it as its C struct
// instead (check_reduction_datatype): contiguous, `extent` bytes an element,
// which the MINLOC/MAXLOC kernels fold in place, and so does a derived type
// made of pairs alone (its reduction form, one C struct a pair). That form
// never leaves shmpi: every member of a reduction uses it.
struct TypeArg {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  // Reductions: the one predefined type every element is made of, and how
  // many of it an element holds; nullptr when the type mixes several.
  const datatype::BasicType* element = nullptr;
  std::size_t element_count = 1;
  std::size_t packed = 0;    // packed bytes per element
  std::int64_t extent = 0;   // stride between elements in a user buffer
  std::int64_t true_lb = 0;  // first byte of element 0, from the buffer
  const datatype::TypeMap* map = nullptr;  // nullptr: elements contiguous

  // Where `count` elements at `buffer` (which may be MPI_BOTTOM) are, for
  // pack()/unpack().
  datatype::Layout layout(const void* buffer, std::size_t count) const {
    return datatype::Layout{datatype::offset_address(buffer, true_lb),
                            count * packed, map};
  }
  std::size_t bytes(std::size_t count) const { return count * packed; }
};
// The datatype checks every communication call makes (MPI_ERR_TYPE for a
// null, invalid, or not committed handle).
inline int check_datatype(Comm* comm, MPI_Datatype type, TypeArg* out,
                          const char* function) noexcept;
// The same for the datatype of a reduction (MPI_Reduce, MPI_Allreduce,
// MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan, MPI_Reduce_local): a
// padded pair type is taken as its C struct, contiguous, padding included,
// so that reductions fold user buffers in place with the struct kernels,
// and so is every pair of a derived type made of them (its reduction form,
// datatype::TypeDesc::reduction_segments): members of one reduction may
// pass the pair type and a derived type of the same signature, and their
// data must agree.
inline int check_reduction_datatype(Comm* comm, MPI_Datatype type, TypeArg* out,
                                    const char* function) noexcept;
// MPI_ERR_BUFFER for a null buffer with a non-zero count of a predefined
// datatype, which points at no data. A derived datatype may hold absolute
// addresses (MPI_Get_address) and take MPI_BOTTOM, which is NULL.
inline int check_buffer(Comm* comm, const void* buffer, MPI_Count count,
                        const TypeArg& type, const char* function) noexcept;
// A nonblocking operation keeps the datatypes it uses alive (MPI allows
// freeing them while it runs); no-ops for predefined types.
void retain_type(const TypeArg& type) noexcept;
void release_type(const TypeArg& type) noexcept;

struct UserOp;  // MPI_Op_create's operation (mpi/op.cpp)

// A checked reduction operation for a given datatype.
struct OpArg {
  MPI_Op handle = MPI_OP_NULL;
  datatype::OpKind kind = datatype::OpKind::kInvalid;  // predefined ops
  const UserOp* user = nullptr;  // MPI_Op_create's; kind is then kInvalid
  bool commutative = true;
};
// MPI_ERR_OP for a null or invalid handle, for MPI_REPLACE / MPI_NO_OP, and
// for a predefined op the datatype's elements do not support.
int check_op(Comm* comm, MPI_Op op, const TypeArg& type, OpArg* out,
             const char* function) noexcept;
// inout = in op inout for `count` elements of `type`, both in packed form.
// A user function is called as the standard says: (in, inout, len, type).
void apply_op(const OpArg& op, const TypeArg& type, const void* in, void* inout,
              std::size_t count);
void retain_op(const OpArg& op) noexcept;
void release_op(const OpArg& op) noexcept;
inline int check_dest(Comm* comm, int rank,
                      const char* function) noexcept;  // rank or PROC_NULL
inline int check_source(Comm* comm, int rank,
                        const char* function) noexcept;  // + ANY_SOURCE
inline int check_send_tag(Comm* comm, int tag, const char* function) noexcept;
inline int check_recv_tag(Comm* comm, int tag,
                          const char* function) noexcept;  // + ANY_TAG

inline constexpr int kTagUpperBound = 0x7fffffff;
static_assert(kTagUpperBound == INT32_MAX, "check_send_tag tests tag < 0 only");

// Source, tag, count and cancelled of `from` into `status` (unless
// MPI_STATUS_IGNORE); never MPI_ERROR (MPI 4.0 §3.2.5).
void fill_status(MPI_Status* status, const p2p::Status& from);
void set_status_count(MPI_Status* status, MPI_Count bytes);
MPI_Count status_bytes(const MPI_Status* status);

// ---- the argument checks, inline: every communication call makes several,
// and only their error reports (out of line, in core.cpp) are not hot.
namespace detail {
[[noreturn, gnu::cold]] void not_initialized(const char* function) noexcept;
[[gnu::cold]] int bad_comm(MPI_Comm handle, const char* function) noexcept;
[[gnu::cold]] int bad_count(Comm* comm, MPI_Count count,
                            const char* function) noexcept;
[[gnu::cold]] int bad_buffer(Comm* comm, MPI_Count count,
                             const char* function) noexcept;
[[gnu::cold]] int bad_rank(Comm* comm, int rank, bool as_source,
                           const char* function) noexcept;
[[gnu::cold]] int bad_tag(Comm* comm, int tag, bool receive,
                          const char* function) noexcept;
// check_datatype() for anything but a contiguous predefined type: derived
// types, and the padded pairs' packed form (with their predefined TypeMap).
// With `reduction`, a derived type of padded pairs takes its reduction form
// (datatype::TypeDesc::reduction_segments: the pairs as C structs).
int check_other_datatype(Comm* comm, MPI_Datatype type, TypeArg* out,
                         const char* function, bool reduction = false) noexcept;
}  // namespace detail

inline int check_initialized(const char* function) noexcept {
  if (initialized()) [[likely]] {
    return MPI_SUCCESS;
  }
  detail::not_initialized(function);
}

inline int check_comm(MPI_Comm handle, Comm** out,
                      const char* function) noexcept {
  Comm* comm = find_comm(handle);
  if (comm == nullptr) [[unlikely]] {
    return detail::bad_comm(handle, function);
  }
  *out = comm;
  return MPI_SUCCESS;
}

inline int check_count(Comm* comm, MPI_Count count,
                       const char* function) noexcept {
  if (count < 0) [[unlikely]] {
    return detail::bad_count(comm, count, function);
  }
  return MPI_SUCCESS;
}

inline int check_buffer(Comm* comm, const void* buffer, MPI_Count count,
                        const TypeArg& type, const char* function) noexcept {
  if (buffer == nullptr && count > 0) [[unlikely]] {
    // Only here, off the fast path: is it MPI_BOTTOM with a derived type?
    if (find_type(type.handle) != nullptr) {
      return detail::bad_buffer(comm, count, function);
    }
  }
  return MPI_SUCCESS;
}

namespace detail {
// A predefined type as a contiguous TypeArg of `extent`-byte elements.
inline void contiguous_basic(MPI_Datatype type,
                             const datatype::BasicType* basic,
                             TypeArg* out) noexcept {
  out->handle = type;
  out->element = basic;
  out->element_count = 1;
  out->packed = static_cast<std::size_t>(basic->extent);
  out->extent = basic->extent;
  out->true_lb = 0;
  out->map = nullptr;
}
}  // namespace detail

inline int check_datatype(Comm* comm, MPI_Datatype type, TypeArg* out,
                          const char* function) noexcept {
  const datatype::BasicType* basic = find_type(type);
  if (basic != nullptr && !datatype::padded(*basic)) [[likely]] {
    detail::contiguous_basic(type, basic, out);
    return MPI_SUCCESS;
  }
  return detail::check_other_datatype(comm, type, out, function);
}

inline int check_reduction_datatype(Comm* comm, MPI_Datatype type, TypeArg* out,
                                    const char* function) noexcept {
  if (const datatype::BasicType* basic = find_type(type)) [[likely]] {
    detail::contiguous_basic(type, basic, out);
    return MPI_SUCCESS;
  }
  return detail::check_other_datatype(comm, type, out, function, true);
}

inline int check_dest(Comm* comm, int rank, const char* function) noexcept {
  if (static_cast<unsigned>(rank) >=
          static_cast<unsigned>(comm->peer_count()) &&
      rank != MPI_PROC_NULL) [[unlikely]] {
    return detail::bad_rank(comm, rank, false, function);
  }
  return MPI_SUCCESS;
}

inline int check_source(Comm* comm, int rank, const char* function) noexcept {
  if (static_cast<unsigned>(rank) >=
          static_cast<unsigned>(comm->peer_count()) &&
      rank != MPI_PROC_NULL && rank != MPI_ANY_SOURCE) [[unlikely]] {
    return detail::bad_rank(comm, rank, true, function);
  }
  return MPI_SUCCESS;
}

inline int check_send_tag(Comm* comm, int tag, const char* function) noexcept {
  if (tag < 0) [[unlikely]] {  // kTagUpperBound is INT_MAX
    return detail::bad_tag(comm, tag, false, function);
  }
  return MPI_SUCCESS;
}

inline int check_recv_tag(Comm* comm, int tag, const char* function) noexcept {
  if (tag < 0 && tag != MPI_ANY_TAG) [[unlikely]] {
    return detail::bad_tag(comm, tag, true, function);
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
