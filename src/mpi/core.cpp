// SPDX-License-Identifier: MIT
#include "mpi/core.hpp"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "base/log.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/unsupported.hpp"
#include "mpi/errors.hpp"
#include "mpi/file.hpp"
#include "mpi/session.hpp"
#include "mpi/window.hpp"

namespace shmpi::mpi {

static_assert(
    MPI_ERR_TRUNCATE == 15 && MPI_ERR_OTHER == 16 && MPI_ERR_ARG == 13 &&
        MPI_ERR_NO_MEM == 39,
    "internal modules use these class numbers (segment.cpp, engine.cpp)");
static_assert(sizeof(MPI_Status) == 8 * sizeof(int), "ABI status layout");

std::atomic<MpiState*> detail::state_instance{nullptr};

MpiState& detail::make_state() {
  static MpiState* instance =
      new MpiState();  // never destroyed: used until exit
  // Release: pairs with state()'s acquire load.
  state_instance.store(instance, std::memory_order_release);
  return *instance;
}

namespace {

int world_rank() {
  runtime::Runtime* runtime = runtime::Runtime::get();
  return runtime != nullptr ? static_cast<int>(runtime->world().rank) : 0;
}

[[noreturn]] void fatal(int code) {
  runtime::Runtime* runtime = runtime::Runtime::get();
  // The class is the exit status where it fits one (a class the program
  // added is far above 255, and its low byte may well be 0).
  int exit_code = error_class_of(code);
  if (exit_code <= 0 || exit_code > 255) {
    exit_code = 1;
  }
  if (runtime != nullptr) {
    runtime->abort_job(exit_code);
  }
  ::_exit(exit_code);
}

// The communicator an error is raised on: `comm`, or for an error tied to
// no object MPI_COMM_SELF (MPI 4.0 §9.3, World Model). Before MPI_Init and
// after MPI_Finalize SELF does not exist and there is none (nullptr).
Comm* raised_on(Comm* comm) {
  if (comm != nullptr) {
    return comm;
  }
  return world_initialized() ? &state().self : nullptr;
}

// Applies `handler`; a user handler gets `comm`, `session` or `win`,
// whichever its kind takes.
int apply(MPI_Errhandler handler, Comm* comm, Session* session, int code,
          const char* message, Window* win = nullptr, File* file = nullptr) {
  if (handler == MPI_ERRORS_RETURN) {
    return code;
  }
  if (handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_ABORT ||
      handler == MPI_ERRHANDLER_NULL) {
    base::log_error("rank %d: %s", world_rank(), message);
    fatal(code);
  }
  if (Errhandler* user = state().errhandlers.find(handler)) {
    int code_copy = code;
    if (comm != nullptr && user->function != nullptr) {
      MPI_Comm handle = comm->handle;
      user->function(&handle, &code_copy);
    } else if (session != nullptr && user->session_function != nullptr) {
      MPI_Session handle = session_handle(session);
      user->session_function(&handle, &code_copy);
    } else if (win != nullptr && user->win_function != nullptr) {
      MPI_Win handle = win->handle();
      user->win_function(&handle, &code_copy);
    } else if (user->file_function != nullptr) {
      // A file's handler, or MPI_FILE_NULL's (file nullptr).
      MPI_File handle = file != nullptr ? file->handle() : MPI_FILE_NULL;
      user->file_function(&handle, &code_copy);
    }
  }
  return code;
}

int apply_handler(Comm* comm, int code, const char* message) {
  Comm* target = raised_on(comm);
  if (target != nullptr && target->window != nullptr) {
    Window* win = target->window;
    return apply(win->errhandler, nullptr, nullptr, code, message, win);
  }
  if (target != nullptr && target->file != nullptr) {
    File* file = target->file;
    return apply(file->errhandler, nullptr, nullptr, code, message, nullptr,
                 file);
  }
  // Without a communicator the initial error handler applies (MPI 4.0
  // §9.3): MPI_ERRORS_ARE_FATAL, as shmpirun takes no mpi_initial_errhandler.
  MPI_Errhandler handler =
      target != nullptr ? target->errhandler : MPI_ERRORS_ARE_FATAL;
  return apply(handler, target, nullptr, code, message);
}

int apply_session_handler(Session* session, int code, const char* message) {
  if (session == nullptr) {
    return apply_handler(nullptr, code, message);
  }
  return apply(session->errhandler, nullptr, session, code, message);
}

}  // namespace

namespace {

// The message of an error raised with a formatted detail (`text`: the
// function and the detail with its per-call values) and its code, whose
// own message names the function and the class only, so repeated errors
// reuse one interned message.
int compose(char (&text)[512], int mpi_class, const char* function,
            const char* detail, std::va_list args) {
  int used = std::snprintf(text, sizeof text, "%s: ", function);
  std::vsnprintf(text + used, sizeof text - static_cast<std::size_t>(used),
                 detail, args);
  char short_text[160];
  std::snprintf(short_text, sizeof short_text, "%s: %s", function,
                std::string_view(error_string(mpi_class)).data());
  return make_error_code(mpi_class, short_text);
}

// The message of a code raised as it is: its own string, or its number.
void describe(char (&text)[512], int code, const char* function) {
  std::string_view what = error_string(code);
  if (what.empty()) {
    // A code the program added without a string, or not a code at all.
    std::snprintf(text, sizeof text, "%s: error code %d (class %d)", function,
                  code, error_class_of(code));
  } else {
    std::snprintf(text, sizeof text, "%s: %.*s", function,
                  static_cast<int>(what.size()), what.data());
  }
}

}  // namespace

int fail(Comm* comm, int mpi_class, const char* function, const char* detail,
         ...) noexcept {
  char text[512];
  std::va_list args;
  va_start(args, detail);
  const int code = compose(text, mpi_class, function, detail, args);
  va_end(args);
  return apply_handler(comm, code, text);
}

int fail_static(Comm* comm, int mpi_class, const char* function,
                const char* detail) noexcept {
  char text[512];
  std::snprintf(text, sizeof text, "%s: %s", function, detail);
  return apply_handler(comm, make_error_code(mpi_class, text), text);
}

int fail_session(Session* session, int mpi_class, const char* function,
                 const char* detail, ...) noexcept {
  char text[512];
  std::va_list args;
  va_start(args, detail);
  const int code = compose(text, mpi_class, function, detail, args);
  va_end(args);
  return apply_session_handler(session, code, text);
}

int raise_session_code(Session* session, int code,
                       const char* function) noexcept {
  char text[512];
  describe(text, code, function);
  return apply_session_handler(session, code, text);
}

int fail_win(Window* win, int mpi_class, const char* function,
             const char* detail, ...) noexcept {
  char text[512];
  std::va_list args;
  va_start(args, detail);
  const int code = compose(text, mpi_class, function, detail, args);
  va_end(args);
  if (win == nullptr) {
    return apply_handler(nullptr, code, text);
  }
  return apply(win->errhandler, nullptr, nullptr, code, text, win);
}

int raise_win_code(Window* win, int code, const char* function) noexcept {
  char text[512];
  describe(text, code, function);
  if (win == nullptr) {
    return apply_handler(nullptr, code, text);
  }
  return apply(win->errhandler, nullptr, nullptr, code, text, win);
}

MPI_Errhandler& default_file_errhandler() {
  static MPI_Errhandler handler = MPI_ERRORS_RETURN;  // MPI 4.0 §9.3
  return handler;
}

namespace {

int apply_file_handler(File* file, int code, const char* text) {
  const MPI_Errhandler handler =
      file != nullptr ? file->errhandler : default_file_errhandler();
  return apply(handler, nullptr, nullptr, code, text, nullptr, file);
}

}  // namespace

int fail_file(File* file, int mpi_class, const char* function,
              const char* detail, ...) noexcept {
  char text[512];
  std::va_list args;
  va_start(args, detail);
  const int code = compose(text, mpi_class, function, detail, args);
  va_end(args);
  return apply_file_handler(file, code, text);
}

int raise_file_code(File* file, int code, const char* function) noexcept {
  char text[512];
  describe(text, code, function);
  return apply_file_handler(file, code, text);
}

bool is_errhandler(MPI_Errhandler handler) {
  return handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_RETURN ||
         handler == MPI_ERRORS_ABORT ||
         state().errhandlers.find(handler) != nullptr;
}

void retain_errhandler(MPI_Errhandler handler) {
  if (Errhandler* user = state().errhandlers.find(handler)) {
    ++user->references;
  }
}

void release_errhandler(MPI_Errhandler handler) {
  if (Errhandler* user = state().errhandlers.find(handler)) {
    if (--user->references == 0) {
      state().errhandlers.destroy(user);
    }
  }
}

int raise_code(Comm* comm, int code, const char* function) noexcept {
  char text[512];
  describe(text, code, function);
  return apply_handler(comm, code, text);
}

void detail::not_initialized(const char* function) noexcept {
  base::log_error("%s called %s", function,
                  runtime::lifecycle().load() == runtime::kFinalized
                      ? "after MPI_Finalize, with no session open"
                      : "before MPI_Init or MPI_Session_init");
  ::_exit(1);
}

int detail::bad_comm(MPI_Comm handle, const char* function) noexcept {
  if (handle == MPI_COMM_NULL) {
    return fail(nullptr, MPI_ERR_COMM, function,
                "communicator is MPI_COMM_NULL");
  }
  return fail(nullptr, MPI_ERR_COMM, function, "invalid communicator handle %p",
              static_cast<void*>(handle));
}

int detail::bad_count(Comm* comm, MPI_Count count,
                      const char* function) noexcept {
  return fail(comm, MPI_ERR_COUNT, function, "negative count %lld",
              static_cast<long long>(count));
}

int check_type(Comm* comm, MPI_Datatype type, const datatype::BasicType** out,
               const char* function) noexcept {
  const datatype::BasicType* found = find_type(type);
  if (found == nullptr) [[unlikely]] {
    if (type == MPI_DATATYPE_NULL) {
      return fail(comm, MPI_ERR_TYPE, function,
                  "datatype is MPI_DATATYPE_NULL");
    }
    return fail(comm, MPI_ERR_TYPE, function, "invalid datatype handle %p",
                static_cast<void*>(type));
  }
  *out = found;
  return MPI_SUCCESS;
}

int detail::check_other_datatype(Comm* comm, MPI_Datatype type, TypeArg* out,
                                 const char* function,
                                 bool reduction) noexcept {
  out->handle = type;
  if (const datatype::BasicType* basic = find_type(type)) {
    // A padded pair type: its data only, through the TypeMap of its
    // predefined description (static, lives for the process).
    const datatype::TypeDesc& desc = *datatype::basic_desc(*basic);
    out->element = basic;
    out->element_count = 1;
    out->packed = desc.packed;
    out->extent = desc.extent();
    out->true_lb = desc.true_lb;
    out->map = desc.map.get();
    return MPI_SUCCESS;
  }
  const Datatype* derived = find_derived(type);
  if (derived == nullptr) [[unlikely]] {
    if (type == MPI_DATATYPE_NULL) {
      return fail(comm, MPI_ERR_TYPE, function,
                  "datatype is MPI_DATATYPE_NULL");
    }
    return fail(comm, MPI_ERR_TYPE, function, "invalid datatype handle %p",
                static_cast<void*>(type));
  }
  if (!derived->committed) [[unlikely]] {
    return fail(comm, MPI_ERR_TYPE, function,
                "datatype %p is not committed (call MPI_Type_commit first)",
                static_cast<void*>(type));
  }
  const datatype::TypeDesc& desc = *derived->desc;
  out->element = desc.element;
  out->element_count = desc.element_count;
  out->packed = desc.packed;
  out->extent = desc.extent();
  out->true_lb = desc.true_lb;
  out->map = desc.map.get();
  if (reduction && desc.reduction_packed != 0) {
    // Made of padded pairs: each as its C struct (check_reduction_datatype).
    out->packed = desc.reduction_packed;
    out->map = desc.reduction_map.get();
  }
  return MPI_SUCCESS;
}

void retain_type(const TypeArg& type) noexcept {
  if (Datatype* derived = find_derived(type.handle)) {
    retain(derived);
  }
}

void release_type(const TypeArg& type) noexcept {
  if (Datatype* derived = find_derived(type.handle)) {
    release(derived);
  }
}

int detail::bad_buffer(Comm* comm, MPI_Count count,
                       const char* function) noexcept {
  return fail(comm, MPI_ERR_BUFFER, function, "null buffer with count %lld",
              static_cast<long long>(count));
}

int detail::bad_rank(Comm* comm, int rank, bool as_source,
                     const char* function) noexcept {
  return fail(comm, MPI_ERR_RANK, function, "invalid rank %d%s (%s size %d)",
              rank, as_source ? " as source" : "",
              comm->is_inter ? "remote group" : "communicator",
              comm->peer_count());
}

int detail::bad_tag(Comm* comm, int tag, bool receive,
                    const char* function) noexcept {
  return fail(comm, MPI_ERR_TAG, function, "invalid tag %d (valid: %s)", tag,
              receive ? "0..MPI_TAG_UB or MPI_ANY_TAG" : "0..MPI_TAG_UB");
}

void set_status_count(MPI_Status* status, MPI_Count bytes) {
  auto value = static_cast<std::uint64_t>(bytes);
  status->MPI_internal[0] = static_cast<int>(value & 0xffffffffU);
  status->MPI_internal[1] = static_cast<int>(value >> 32);
}

MPI_Count status_bytes(const MPI_Status* status) {
  std::uint64_t low = static_cast<std::uint32_t>(status->MPI_internal[0]);
  std::uint64_t high = static_cast<std::uint32_t>(status->MPI_internal[1]);
  return static_cast<MPI_Count>((high << 32) | low);
}

void fill_status(MPI_Status* status, const p2p::Status& from) {
  if (status == MPI_STATUS_IGNORE) {
    return;
  }
  // Not MPI_ERROR: MPI 4.0 §3.2.5 leaves it alone except in the calls that
  // return several statuses, and there only with MPI_ERR_IN_STATUS.
  status->MPI_SOURCE = from.source;
  status->MPI_TAG = from.tag;
  set_status_count(status, static_cast<MPI_Count>(from.bytes));
  status->MPI_internal[2] = from.cancelled ? 1 : 0;
}

}  // namespace shmpi::mpi

extern "C" int shmpi_mpi_unsupported(const char* function_name) noexcept {
  using namespace shmpi::mpi;
  char detail[160];
  std::snprintf(detail, sizeof detail, "%s is not supported by shmpi yet",
                function_name);
  int code = make_error_code(MPI_ERR_UNSUPPORTED_OPERATION, detail);
  // The stub does not look at the function's arguments, so there is no
  // object to raise the error on: MPI_COMM_SELF, or the initial handler.
  return raise_code(nullptr, code, function_name);
}

static_assert(MPI_ANY_SOURCE == shmpi::matching::kAnySource &&
                  MPI_ANY_TAG == shmpi::matching::kAnyTag,
              "the matching engine uses mpi.h's wildcard values");
