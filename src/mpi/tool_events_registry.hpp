// SPDX-License-Identifier: MIT
// Event-registration handles, their callbacks, and the sink through which
// the runtime's raise sites reach them (docs/design.md#tool-events).
//
// Thread safety: every call may come from any thread. One registry mutex
// (a leaf: never held while a user callback runs) guards the registrations;
// a raise copies the callbacks it will run under it, runs them without it,
// and a registration freed meanwhile is deleted, and its free callback run,
// by the last raise that still uses it.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>

// The object behind an MPI_T_event_registration.
struct MPI_T_event_registration_t {
  static constexpr std::uint32_t kMagic = 0x54457652;  // "TEvR"
  struct Callback {
    MPI_T_event_cb_function* function = nullptr;
    void* user_data = nullptr;
  };
  std::uint32_t magic = kMagic;
  int event_index = 0;
  // By safety rank (shmpi::mpi::tool::safety_rank): NONE, MPI_RESTRICTED,
  // THREAD_SAFE, ASYNC_SIGNAL_SAFE.
  std::array<Callback, 4> callbacks{};
  MPI_T_event_dropped_cb_function* dropped_handler = nullptr;
  // Raises running this registration's callbacks now.
  int active_raises = 0;
  // Set by MPI_T_event_handle_free while raises were active.
  bool freed = false;
  MPI_T_event_free_cb_function* free_function = nullptr;
  void* free_user_data = nullptr;
};

// The object behind an MPI_T_event_instance: on the raising thread's stack,
// valid while that thread runs the callbacks for it.
struct MPI_T_event_instance_t {
  int event_index;
  MPI_Count timestamp;
  const void* elements;
};

namespace shmpi::mpi::tool {

inline constexpr int kSafetyLevels = 4;

// 0..3 in increasing restriction, or -1 for a value that is not an
// MPI_T_cb_safety.
int safety_rank(int cb_safety) noexcept;
MPI_T_cb_safety safety_of_rank(int rank) noexcept;

// The callback a raise site needing `required_rank` runs: the registered one
// with the lowest rank that is still >= required_rank (the least restricted
// callback the site can honour), or -1 when none qualifies.
int choose_callback(const MPI_T_event_registration_t& registration,
                    int required_rank) noexcept;

// All return MPI_SUCCESS or an MPI_T error code.
int allocate_registration(int event_index,
                          MPI_T_event_registration* out) noexcept;
// Removes the handle; runs free_function (if any) now, or from the last
// raise that still uses the registration.
int free_registration(MPI_T_event_registration handle, void* user_data,
                      MPI_T_event_free_cb_function* free_function) noexcept;
int set_callback(MPI_T_event_registration handle, int rank,
                 MPI_T_event_cb_function* function, void* user_data) noexcept;
int set_dropped_handler(MPI_T_event_registration handle,
                        MPI_T_event_dropped_cb_function* handler) noexcept;
// MPI_SUCCESS for a live handle; MPI_T_ERR_INVALID when `rank` >= 0 and no
// callback is registered at that rank.
int check_registration(MPI_T_event_registration handle, int rank) noexcept;

// The instance a callback of this thread is running for, if `handle` is it;
// nullptr otherwise (outside a callback, or another thread's instance).
const MPI_T_event_instance_t* current_instance(
    MPI_T_event_instance handle) noexcept;

}  // namespace shmpi::mpi::tool
