// SPDX-License-Identifier: MIT
// Performance-experiment sessions and performance-variable handles (MPI
// 4.0 section 15.3.7): MPI_T_pvar_session_create/_free, _handle_alloc/_free,
// _start, _stop, _read, _write, _reset, _readreset. Each handle keeps its
// own view of its variable (PvarHandleValue), so sessions and handles are
// independent. Sessions and handles are heap objects listed under
// tool::state_mutex(), which every call here holds throughout: a stale or
// foreign handle is recognised instead of followed, and a read and a reset
// of one handle use one sample of the source.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_live_objects.hpp"
#include "mpi/tool_pvar_value.hpp"
#include "mpi/tool_vars.hpp"

namespace shmpi::mpi::tool {
namespace {

struct PvarHandle {
  int index;
  PvarHandleValue value;
};

struct PvarSession {
  LiveObjects<PvarHandle, MPI_T_pvar_handle> handles;
};

using PvarSessions = LiveObjects<PvarSession, MPI_T_pvar_session>;

// Live sessions. Guarded by state_mutex().
PvarSessions& sessions() {
  static auto* live = new PvarSessions();
  return *live;
}

// Lookups, with state_mutex() held.
PvarSession* find_session(MPI_T_pvar_session session) {
  return sessions().find(session);
}

PvarHandle* find_handle(PvarSession& session, MPI_T_pvar_handle handle) {
  return session.handles.find(handle);
}

const PvarInfo& info_of(int index) {
  return pvars()[static_cast<std::size_t>(index)];
}

// A high-water mark's source reports its peak since it was last asked, so
// every handle of the variable, in every session, is given it at once.
// Then the current sample. With state_mutex() held.
std::uint64_t sample_of(int index) {
  const PvarInfo& info = info_of(index);
  if (info.take_peak != nullptr) {
    const std::uint64_t peak = info.take_peak();
    for (const auto& session : sessions()) {
      for (const auto& handle : session->handles) {
        if (handle->index == index) {
          handle->value.observe_peak(peak);
        }
      }
    }
  }
  return info.sample();
}

// The session and handle of a call on one handle (not
// MPI_T_PVAR_ALL_HANDLES), or the error. With state_mutex() held.
int find(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
         PvarHandle** found) {
  PvarSession* s = find_session(session);
  if (s == nullptr) {
    return MPI_T_ERR_INVALID_SESSION;
  }
  *found = find_handle(*s, handle);
  return *found == nullptr ? MPI_T_ERR_INVALID_HANDLE : MPI_SUCCESS;
}

enum class Op { kStart, kStop, kReset };

// Start, stop or reset one handle, or every handle of a session where
// MPI_T_PVAR_ALL_HANDLES asks it (those it cannot apply to are skipped).
int apply(MPI_T_pvar_session session, MPI_T_pvar_handle handle, Op op) {
  if (const int rc = check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::lock_guard lock(state_mutex());
  PvarSession* s = find_session(session);
  if (s == nullptr) {
    return MPI_T_ERR_INVALID_SESSION;
  }
  const auto applies = [op](const PvarInfo& info) {
    return op == Op::kReset ? !info.readonly : !info.continuous;
  };
  const auto run = [op](PvarHandle& h) {
    const std::uint64_t sample = sample_of(h.index);
    switch (op) {
      case Op::kStart:
        h.value.start(sample);
        break;
      case Op::kStop:
        h.value.stop(sample);
        break;
      case Op::kReset:
        h.value.reset(sample);
        break;
    }
  };
  if (handle == MPI_T_PVAR_ALL_HANDLES) {
    for (const auto& h : s->handles) {
      if (applies(info_of(h->index))) {
        run(*h);
      }
    }
    return MPI_SUCCESS;
  }
  PvarHandle* h = find_handle(*s, handle);
  if (h == nullptr) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  if (!applies(info_of(h->index))) {
    return op == Op::kReset ? MPI_T_ERR_PVAR_NO_WRITE
                            : MPI_T_ERR_PVAR_NO_STARTSTOP;
  }
  run(*h);
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace shmpi::mpi::tool

using namespace shmpi::mpi;

extern "C" int PMPI_T_pvar_session_create(
    MPI_T_pvar_session* session) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (session == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  try {
    auto object = std::make_unique<tool::PvarSession>();
    const std::lock_guard lock(tool::state_mutex());
    *session = tool::sessions().add(std::move(object));
  } catch (const std::bad_alloc&) {
    return MPI_T_ERR_MEMORY;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_session_create);

extern "C" int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (session == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const std::lock_guard lock(tool::state_mutex());
  if (!tool::sessions().erase(*session)) {  // and its handles
    return MPI_T_ERR_INVALID_SESSION;
  }
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_session_free);

extern "C" int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session,
                                        int pvar_index, void* /*obj_handle*/,
                                        MPI_T_pvar_handle* handle,
                                        int* count) noexcept {
  // obj_handle is ignored: every variable binds MPI_T_BIND_NO_OBJECT.
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::lock_guard lock(tool::state_mutex());
  tool::PvarSession* s = tool::find_session(session);
  if (s == nullptr) {
    return MPI_T_ERR_INVALID_SESSION;
  }
  if (pvar_index < 0 ||
      static_cast<std::size_t>(pvar_index) >= tool::pvars().size()) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (handle == nullptr || count == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const tool::PvarInfo& info = tool::info_of(pvar_index);
  try {
    // Before the new handle exists: the peaks so far are not its own.
    const std::uint64_t sample = tool::sample_of(pvar_index);
    std::unique_ptr<tool::PvarHandle> object(new tool::PvarHandle{
        pvar_index, tool::PvarHandleValue(info.kind, info.continuous, sample)});
    *handle = s->handles.add(std::move(object));
  } catch (const std::bad_alloc&) {
    return MPI_T_ERR_MEMORY;
  }
  *count = 1;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_handle_alloc);

extern "C" int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                                       MPI_T_pvar_handle* handle) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (handle == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const std::lock_guard lock(tool::state_mutex());
  tool::PvarSession* s = tool::find_session(session);
  if (s == nullptr) {
    return MPI_T_ERR_INVALID_SESSION;
  }
  if (!s->handles.erase(*handle)) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_handle_free);

extern "C" int PMPI_T_pvar_start(MPI_T_pvar_session session,
                                 MPI_T_pvar_handle handle) noexcept {
  return tool::apply(session, handle, tool::Op::kStart);
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_start);

extern "C" int PMPI_T_pvar_stop(MPI_T_pvar_session session,
                                MPI_T_pvar_handle handle) noexcept {
  return tool::apply(session, handle, tool::Op::kStop);
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_stop);

extern "C" int PMPI_T_pvar_reset(MPI_T_pvar_session session,
                                 MPI_T_pvar_handle handle) noexcept {
  return tool::apply(session, handle, tool::Op::kReset);
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_reset);

extern "C" int PMPI_T_pvar_read(MPI_T_pvar_session session,
                                MPI_T_pvar_handle handle, void* buf) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::lock_guard lock(tool::state_mutex());
  tool::PvarHandle* h = nullptr;
  if (const int rc = tool::find(session, handle, &h); rc != MPI_SUCCESS) {
    return rc;
  }
  if (buf == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const std::uint64_t value = h->value.read(tool::sample_of(h->index));
  tool::store_value(tool::ValueType::kUnsignedLongLong, value, buf);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_read);

extern "C" int PMPI_T_pvar_write(MPI_T_pvar_session session,
                                 MPI_T_pvar_handle handle,
                                 const void* buf) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::lock_guard lock(tool::state_mutex());
  tool::PvarHandle* h = nullptr;
  if (const int rc = tool::find(session, handle, &h); rc != MPI_SUCCESS) {
    return rc;
  }
  if (tool::info_of(h->index).readonly) {
    return MPI_T_ERR_PVAR_NO_WRITE;
  }
  if (buf == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const std::uint64_t value =
      tool::load_value(tool::ValueType::kUnsignedLongLong, buf);
  h->value.write(value, tool::sample_of(h->index));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_write);

extern "C" int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                                     MPI_T_pvar_handle handle,
                                     void* buf) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::lock_guard lock(tool::state_mutex());
  tool::PvarHandle* h = nullptr;
  if (const int rc = tool::find(session, handle, &h); rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::PvarInfo& info = tool::info_of(h->index);
  if (info.readonly) {
    return MPI_T_ERR_PVAR_NO_WRITE;
  }
  if (!info.atomic) {
    return MPI_T_ERR_PVAR_NO_ATOMIC;
  }
  if (buf == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  // One sample for both: nothing the source counts in between is lost.
  const std::uint64_t sample = tool::sample_of(h->index);
  tool::store_value(tool::ValueType::kUnsignedLongLong, h->value.read(sample),
                    buf);
  h->value.reset(sample);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_readreset);
