// SPDX-License-Identifier: MIT
// The MPI_T event types shmpi raises and the one event source that stamps
// them (MPI 4.0 section 15.3.8; docs/design.md#tool-events): the catalog
// (names, categories, element layouts) and the helpers the MPI_T_event_*,
// MPI_T_source_* and category calls share. The events themselves are raised
// by the runtime through base/tool_event_hook.hpp; tool_events_registry.cpp
// finds the callbacks.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "base/tool_event_hook.hpp"

namespace shmpi::mpi::tool {

// How many event types belong to category `cat_index` (0 for an index out of
// range): for MPI_T_category_get_info and MPI_T_category_get_num_events.
int events_in_category(int cat_index) noexcept;

// ---- the catalog

// The C type of one element; its MPI datatype comes from element_datatype().
enum class ElementType : std::uint8_t { kInt32, kUint32, kInt64 };

struct EventElement {
  ElementType type;
  std::size_t displacement;  // bytes from the start of the element buffer
  const char* name;          // for the description only
};

struct EventTypeInfo {
  const char* name;
  const char* description;
  int verbosity;  // MPI_T_VERBOSITY_*
  int category;   // index into kCategories
  std::span<const EventElement> elements;
};

// Event indices are 0 .. event_type_count() - 1, in the order of
// base::tool_events::EventType.
inline constexpr int kEventTypeCount = base::tool_events::kEventTypeCount;
const EventTypeInfo& event_type(int event_index) noexcept;
// The index of the event type called `name`, or -1.
int find_event_type(std::string_view name) noexcept;
// The indices of the event types in category `cat_index`, in index order:
// writes at most `len` of them and returns how many it wrote.
int event_types_in_category(int cat_index, int len, int* indices) noexcept;

std::size_t element_size(ElementType type) noexcept;
MPI_Datatype element_datatype(ElementType type) noexcept;
// The bytes MPI_T_event_copy writes: the end of the last element.
std::size_t element_buffer_extent(
    std::span<const EventElement> elements) noexcept;

// ---- the event source (one: CLOCK_MONOTONIC in nanoseconds)

inline constexpr int kSourceCount = 1;
inline constexpr MPI_Count kTicksPerSecond = 1'000'000'000;
MPI_Count source_timestamp() noexcept;

// ---- strings (MPI 4.0 section 15.3.3)

// Returns `text` through name/name_len: nothing when name_len is NULL;
// otherwise at most *name_len - 1 characters and a NUL into `name` (when it
// is not NULL and *name_len > 0), and *name_len set to the characters the
// whole string needs, its NUL included.
void return_string(std::string_view text, char* name, int* name_len) noexcept;

}  // namespace shmpi::mpi::tool
