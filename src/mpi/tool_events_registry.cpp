// SPDX-License-Identifier: MIT
// Event-registration handles and the sink that runs their callbacks when the
// runtime raises an event (tool_events_registry.hpp).
#include "mpi/tool_events_registry.hpp"

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#include "base/small_vector.hpp"
#include "base/tool_event_hook.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_events.hpp"

namespace shmpi::mpi::tool {
namespace {

namespace ev = base::tool_events;

struct Registry {
  std::mutex mutex;  // a leaf lock: never held while user code runs
  std::vector<MPI_T_event_registration_t*> live;  // allocated, not yet freed
};

Registry& registry() {
  static Registry instance;
  return instance;
}

// The instance whose callbacks this thread is running (event_read & co.
// accept only it), or nullptr.
thread_local const MPI_T_event_instance_t* t_current_instance = nullptr;

bool is_live(const Registry& r, const MPI_T_event_registration_t* handle) {
  return std::find(r.live.begin(), r.live.end(), handle) != r.live.end();
}

// Called with the registry locked after any change of callbacks.
void update_armed_mask(const Registry& r) {
  std::uint32_t mask = 0;
  for (const MPI_T_event_registration_t* registration : r.live) {
    for (const auto& callback : registration->callbacks) {
      if (callback.function != nullptr) {
        mask |= 1U << static_cast<unsigned>(registration->event_index);
      }
    }
  }
  ev::set_armed_mask(mask);
}

// Runs the free callback and deletes: once no raise uses the registration.
void destroy(MPI_T_event_registration_t* registration, MPI_T_cb_safety safety) {
  if (registration->free_function != nullptr) {
    registration->free_function(registration, safety,
                                registration->free_user_data);
  }
  registration->magic = 0;
  delete registration;
}

struct PendingCall {
  MPI_T_event_registration_t* registration;
  MPI_T_event_cb_function* function;
  void* user_data;
};

// The sink of base/tool_event_hook.hpp: runs, in this thread, the chosen
// callback of every registration for `type`, then lets go of them.
void raise_event(ev::EventType type, ev::SiteSafety safety,
                 const void* elements) noexcept {
  if (!initialized()) {
    return;  // MPI_T_finalize'd: the registrations are out of reach
  }
  const MPI_T_event_instance_t instance{static_cast<int>(type),
                                        source_timestamp(), elements};
  const int required = static_cast<int>(safety);
  const MPI_T_cb_safety invoked_as = safety_of_rank(required);
  boost::container::small_vector<PendingCall, 4> calls;
  Registry& r = registry();
  try {
    const std::lock_guard lock(r.mutex);
    for (MPI_T_event_registration_t* registration : r.live) {
      if (registration->event_index != instance.event_index) {
        continue;
      }
      const int rank = choose_callback(*registration, required);
      if (rank < 0) {
        continue;
      }
      const auto& callback =
          registration->callbacks[static_cast<std::size_t>(rank)];
      calls.push_back({registration, callback.function, callback.user_data});
      ++registration->active_raises;
    }
  } catch (const std::bad_alloc&) {
    // Too many registrations to copy: the ones copied so far still run.
    // Those left out would be dropped events; there is no room to count
    // them either, so the dropped handlers are not told.
  }
  if (calls.empty()) {
    return;
  }
  const MPI_T_event_instance_t* const outer = t_current_instance;
  t_current_instance = &instance;
  for (const PendingCall& call : calls) {
    call.function(const_cast<MPI_T_event_instance_t*>(&instance),
                  call.registration, invoked_as, call.user_data);
  }
  t_current_instance = outer;
  boost::container::small_vector<MPI_T_event_registration_t*, 4> finished;
  {
    const std::lock_guard lock(r.mutex);
    for (const PendingCall& call : calls) {
      if (--call.registration->active_raises == 0 && call.registration->freed) {
        finished.push_back(call.registration);  // fits: calls.size() >= it
      }
    }
  }
  for (MPI_T_event_registration_t* registration : finished) {
    destroy(registration, invoked_as);
  }
}

}  // namespace

int safety_rank(int cb_safety) noexcept {
  switch (cb_safety) {
    case MPI_T_CB_REQUIRE_NONE:
      return 0;
    case MPI_T_CB_REQUIRE_MPI_RESTRICTED:
      return 1;
    case MPI_T_CB_REQUIRE_THREAD_SAFE:
      return 2;
    case MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE:
      return 3;
    default:
      return -1;
  }
}

MPI_T_cb_safety safety_of_rank(int rank) noexcept {
  constexpr std::array<MPI_T_cb_safety, kSafetyLevels> kLevels{
      MPI_T_CB_REQUIRE_NONE, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
      MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE};
  return kLevels[static_cast<std::size_t>(rank)];
}

int choose_callback(const MPI_T_event_registration_t& registration,
                    int required_rank) noexcept {
  for (int rank = required_rank; rank < kSafetyLevels; ++rank) {
    if (registration.callbacks[static_cast<std::size_t>(rank)].function !=
        nullptr) {
      return rank;
    }
  }
  return -1;
}

int allocate_registration(int event_index,
                          MPI_T_event_registration* out) noexcept {
  try {
    auto* registration = new MPI_T_event_registration_t();
    registration->event_index = event_index;
    Registry& r = registry();
    {
      const std::lock_guard lock(r.mutex);
      r.live.push_back(registration);
    }
    ev::set_sink(&raise_event);
    *out = registration;
    return MPI_SUCCESS;
  } catch (const std::bad_alloc&) {
    return MPI_T_ERR_MEMORY;
  }
}

int free_registration(MPI_T_event_registration handle, void* user_data,
                      MPI_T_event_free_cb_function* free_function) noexcept {
  Registry& r = registry();
  {
    const std::lock_guard lock(r.mutex);
    const auto it = std::find(r.live.begin(), r.live.end(), handle);
    if (it == r.live.end()) {
      return MPI_T_ERR_INVALID_HANDLE;
    }
    r.live.erase(it);
    update_armed_mask(r);
    handle->free_function = free_function;
    handle->free_user_data = user_data;
    if (handle->active_raises > 0) {
      handle->freed = true;  // the last raise destroys it
      return MPI_SUCCESS;
    }
  }
  // No requirement here: we are in the program's own MPI_T call.
  destroy(handle, MPI_T_CB_REQUIRE_NONE);
  return MPI_SUCCESS;
}

int set_callback(MPI_T_event_registration handle, int rank,
                 MPI_T_event_cb_function* function, void* user_data) noexcept {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!is_live(r, handle)) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  handle->callbacks[static_cast<std::size_t>(rank)] = {function, user_data};
  update_armed_mask(r);
  return MPI_SUCCESS;
}

int set_dropped_handler(MPI_T_event_registration handle,
                        MPI_T_event_dropped_cb_function* handler) noexcept {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!is_live(r, handle)) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  // Kept, never called: callbacks run synchronously where the event
  // happens, so no event is ever dropped.
  handle->dropped_handler = handler;
  return MPI_SUCCESS;
}

int check_registration(MPI_T_event_registration handle, int rank) noexcept {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!is_live(r, handle)) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  if (rank >= 0 &&
      handle->callbacks[static_cast<std::size_t>(rank)].function == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  return MPI_SUCCESS;
}

const MPI_T_event_instance_t* current_instance(
    MPI_T_event_instance handle) noexcept {
  return handle != nullptr && handle == t_current_instance ? t_current_instance
                                                           : nullptr;
}

}  // namespace shmpi::mpi::tool
