// SPDX-License-Identifier: MIT
// The event types shmpi raises, their element layouts and categories, and
// the event source's clock (docs/design.md#tool-events).
#include <algorithm>
#include <array>
#include <cstring>

#include "mpi/tool.hpp"
#include "mpi/tool_events.hpp"

namespace shmpi::mpi::tool {
namespace {

namespace ev = base::tool_events;

constexpr std::array kUnexpectedElements{
    EventElement{ElementType::kInt64,
                 offsetof(ev::UnexpectedMessageElements, bytes), "bytes"},
    EventElement{ElementType::kInt32,
                 offsetof(ev::UnexpectedMessageElements, source), "source"},
    EventElement{ElementType::kInt32,
                 offsetof(ev::UnexpectedMessageElements, tag), "tag"},
    EventElement{ElementType::kUint32,
                 offsetof(ev::UnexpectedMessageElements, context_id),
                 "context_id"},
};
constexpr std::array kSleepElements{
    EventElement{ElementType::kInt64,
                 offsetof(ev::WaitSleepElements, polled_ns), "polled_ns"},
};
constexpr std::array kWakeElements{
    EventElement{ElementType::kInt64, offsetof(ev::WaitWakeElements, slept_ns),
                 "slept_ns"},
};

constexpr std::array<EventTypeInfo, kEventTypeCount> kEventTypes{{
    {"shmpi_p2p_unexpected_message",
     "a point-to-point message arrived before a matching receive was posted "
     "and was queued as unexpected; elements: bytes (MPI_INT64_T, message "
     "length), source (MPI_INT32_T, sender's rank in the communicator), tag "
     "(MPI_INT32_T), context_id (MPI_UINT32_T, the communicator's receive "
     "context id); raised in the receiving thread, MPI-restricted",
     MPI_T_VERBOSITY_USER_DETAIL, static_cast<int>(Category::kPointToPoint),
     kUnexpectedElements},
    {"shmpi_progress_wait_sleep",
     "a rank waiting inside an MPI call stopped polling and is about to "
     "sleep until a peer wakes it; element: polled_ns (MPI_INT64_T, how long "
     "this wait polled and yielded first, 0 if the tool registered during "
     "it); MPI-restricted, thread-safe under MPI_THREAD_MULTIPLE",
     MPI_T_VERBOSITY_TUNER_DETAIL, static_cast<int>(Category::kProgress),
     kSleepElements},
    {"shmpi_progress_wait_wake",
     "a rank that slept inside an MPI call woke (woken by a peer or at "
     "SHMPI_SLEEP_TIMEOUT_MS); element: slept_ns (MPI_INT64_T); "
     "MPI-restricted, thread-safe under MPI_THREAD_MULTIPLE",
     MPI_T_VERBOSITY_TUNER_DETAIL, static_cast<int>(Category::kProgress),
     kWakeElements},
}};

// The element structs are the ABI of MPI_T_event_copy: no element may
// overlap the next one, and each must fit inside its struct.
static_assert(sizeof(ev::UnexpectedMessageElements) >= 20);
static_assert(offsetof(ev::UnexpectedMessageElements, context_id) == 16,
              "elements are packed in the order get_info reports them");

}  // namespace

const EventTypeInfo& event_type(int event_index) noexcept {
  return kEventTypes[static_cast<std::size_t>(event_index)];
}

int find_event_type(std::string_view name) noexcept {
  for (int i = 0; i < kEventTypeCount; ++i) {
    if (name == kEventTypes[static_cast<std::size_t>(i)].name) {
      return i;
    }
  }
  return -1;
}

int event_types_in_category(int cat_index, int len, int* indices) noexcept {
  int written = 0;
  for (int i = 0; i < kEventTypeCount && written < len; ++i) {
    if (kEventTypes[static_cast<std::size_t>(i)].category == cat_index) {
      indices[written++] = i;
    }
  }
  return written;
}

int events_in_category(int cat_index) noexcept {
  return static_cast<int>(std::count_if(kEventTypes.begin(), kEventTypes.end(),
                                        [cat_index](const EventTypeInfo& type) {
                                          return type.category == cat_index;
                                        }));
}

std::size_t element_size(ElementType type) noexcept {
  switch (type) {
    case ElementType::kInt32:
    case ElementType::kUint32:
      return 4;
    case ElementType::kInt64:
      return 8;
  }
  return 0;
}

MPI_Datatype element_datatype(ElementType type) noexcept {
  switch (type) {
    case ElementType::kInt32:
      return MPI_INT32_T;
    case ElementType::kUint32:
      return MPI_UINT32_T;
    case ElementType::kInt64:
      return MPI_INT64_T;
  }
  return MPI_DATATYPE_NULL;
}

std::size_t element_buffer_extent(
    std::span<const EventElement> elements) noexcept {
  std::size_t end = 0;
  for (const EventElement& element : elements) {
    end = std::max(end, element.displacement + element_size(element.type));
  }
  return end;
}

MPI_Count source_timestamp() noexcept {
  return base::tool_events::monotonic_ns();
}

void return_string(std::string_view text, char* name, int* name_len) noexcept {
  if (name_len == nullptr) {
    return;
  }
  if (name != nullptr && *name_len > 0) {
    const std::size_t n =
        std::min(text.size(), static_cast<std::size_t>(*name_len - 1));
    std::memcpy(name, text.data(), n);
    name[n] = '\0';
  }
  *name_len = static_cast<int>(text.size() + 1);
}

}  // namespace shmpi::mpi::tool
