// SPDX-License-Identifier: MIT
// The MPI_T event catalog (element layouts, names, categories), the string
// convention, the choice of callback by safety level, and the registry
// under concurrent registration and raising, from their sources.
#include "mpi/tool_events.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "base/tool_event_hook.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_events_registry.hpp"

namespace shmpi::mpi::tool {
namespace {

namespace ev = base::tool_events;

TEST(ToolEventCatalog, ElementsDoNotOverlapAndFitTheirStruct) {
  const std::size_t struct_sizes[kEventTypeCount] = {
      sizeof(ev::UnexpectedMessageElements), sizeof(ev::WaitSleepElements),
      sizeof(ev::WaitWakeElements)};
  for (int i = 0; i < kEventTypeCount; ++i) {
    const EventTypeInfo& type = event_type(i);
    std::size_t end = 0;
    for (const EventElement& element : type.elements) {
      EXPECT_GE(element.displacement, end) << type.name << " " << element.name;
      EXPECT_EQ(element.displacement % element_size(element.type), 0U)
          << type.name << " " << element.name << " is misaligned";
      end = element.displacement + element_size(element.type);
    }
    EXPECT_EQ(element_buffer_extent(type.elements), end) << type.name;
    EXPECT_LE(end, struct_sizes[i]) << type.name;
  }
}

TEST(ToolEventCatalog, UnexpectedMessageLayoutIsPacked) {
  const EventTypeInfo& type =
      event_type(static_cast<int>(ev::EventType::kUnexpectedMessage));
  ASSERT_EQ(type.elements.size(), 4U);
  EXPECT_EQ(type.elements[0].displacement, 0U);
  EXPECT_EQ(type.elements[1].displacement, 8U);
  EXPECT_EQ(type.elements[2].displacement, 12U);
  EXPECT_EQ(type.elements[3].displacement, 16U);
  EXPECT_EQ(element_buffer_extent(type.elements), 20U);
  EXPECT_EQ(element_datatype(type.elements[0].type), MPI_INT64_T);
  EXPECT_EQ(element_datatype(type.elements[3].type), MPI_UINT32_T);
}

TEST(ToolEventCatalog, ExtentOfNoElementsIsZero) {
  EXPECT_EQ(element_buffer_extent({}), 0U);
}

TEST(ToolEventCatalog, NamesFindTheirIndex) {
  for (int i = 0; i < kEventTypeCount; ++i) {
    EXPECT_EQ(find_event_type(event_type(i).name), i);
  }
  EXPECT_EQ(find_event_type("shmpi_p2p_unexpected"), -1);
  EXPECT_EQ(find_event_type(""), -1);
}

TEST(ToolEventCatalog, EveryEventIsInOneCategory) {
  int total = 0;
  for (int cat = 0; cat < kCategoryCount; ++cat) {
    const int n = events_in_category(cat);
    std::vector<int> indices(static_cast<std::size_t>(n) + 1, -1);
    EXPECT_EQ(event_types_in_category(cat, n + 1, indices.data()), n);
    for (int k = 0; k < n; ++k) {
      EXPECT_EQ(event_type(indices[static_cast<std::size_t>(k)]).category, cat);
    }
    if (n > 0) {  // len limits what is written
      EXPECT_EQ(event_types_in_category(cat, n - 1, indices.data()), n - 1);
    }
    total += n;
  }
  EXPECT_EQ(total, kEventTypeCount);
  EXPECT_EQ(events_in_category(-1), 0);
  EXPECT_EQ(events_in_category(kCategoryCount), 0);
}

TEST(ToolStrings, LengthIncludesTheTerminator) {
  char buffer[16];
  int len = sizeof buffer;
  return_string("abc", buffer, &len);
  EXPECT_STREQ(buffer, "abc");
  EXPECT_EQ(len, 4);
}

TEST(ToolStrings, ShortBufferTruncatesAndReportsFullLength) {
  char buffer[3] = {'x', 'x', 'x'};
  int len = 3;
  return_string("abcdef", buffer, &len);
  EXPECT_STREQ(buffer, "ab");
  EXPECT_EQ(len, 7);
}

TEST(ToolStrings, NullBufferOrZeroLengthOnlyReportsTheLength) {
  int len = 0;
  char buffer[1] = {'x'};
  return_string("abc", buffer, &len);
  EXPECT_EQ(buffer[0], 'x');
  EXPECT_EQ(len, 4);
  len = 10;
  return_string("abc", nullptr, &len);
  EXPECT_EQ(len, 4);
  return_string("abc", buffer, nullptr);  // nothing at all
  EXPECT_EQ(buffer[0], 'x');
}

TEST(ToolCallbackSafety, RanksFollowTheStandardsOrder) {
  EXPECT_EQ(safety_rank(MPI_T_CB_REQUIRE_NONE), 0);
  EXPECT_EQ(safety_rank(MPI_T_CB_REQUIRE_MPI_RESTRICTED), 1);
  EXPECT_EQ(safety_rank(MPI_T_CB_REQUIRE_THREAD_SAFE), 2);
  EXPECT_EQ(safety_rank(MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE), 3);
  EXPECT_EQ(safety_rank(1), -1);
  EXPECT_EQ(safety_rank(-1), -1);
  for (int rank = 0; rank < kSafetyLevels; ++rank) {
    EXPECT_EQ(safety_rank(safety_of_rank(rank)), rank);
  }
}

void dummy_callback(MPI_T_event_instance, MPI_T_event_registration,
                    MPI_T_cb_safety, void*) {}

// The site needs `required`; callbacks exist at the ranks in `registered`.
int choose(int required, std::initializer_list<int> registered) {
  MPI_T_event_registration_t registration;
  for (int rank : registered) {
    registration.callbacks[static_cast<std::size_t>(rank)].function =
        &dummy_callback;
  }
  return choose_callback(registration, required);
}

TEST(ToolCallbackSafety, ChoosesTheLeastRestrictedCallbackTheSiteAllows) {
  EXPECT_EQ(choose(0, {0, 1, 3}), 0);
  EXPECT_EQ(choose(1, {0, 1, 3}), 1);
  EXPECT_EQ(choose(1, {0, 2, 3}), 2);
  EXPECT_EQ(choose(2, {0, 1, 3}), 3);
  EXPECT_EQ(choose(3, {3}), 3);
  EXPECT_EQ(choose(1, {0}), -1);  // a NONE callback never runs there
  EXPECT_EQ(choose(0, {}), -1);
}

// ---- the registry, driven by threads (the tsan preset checks it)

struct Counts {
  std::atomic<int> calls{0};
  std::atomic<int> wrong{0};  // calls that saw the wrong safety or elements
  std::atomic<int> frees{0};
};

void count_call(MPI_T_event_instance instance, MPI_T_event_registration,
                MPI_T_cb_safety safety, void* user_data) {
  auto* counts = static_cast<Counts*>(user_data);
  std::int64_t slept = 0;
  const bool readable = safety == MPI_T_CB_REQUIRE_MPI_RESTRICTED &&
                        current_instance(instance) != nullptr;
  if (readable) {
    std::memcpy(&slept, current_instance(instance)->elements, sizeof slept);
  }
  // Relaxed: counters read after the threads are joined. Good and bad
  // calls are kept apart: how many raises land depends on the machine.
  counts->calls.fetch_add(1, std::memory_order_relaxed);
  if (!readable || slept != 5) {
    counts->wrong.fetch_add(1, std::memory_order_relaxed);
  }
}

void count_free(MPI_T_event_registration, MPI_T_cb_safety, void* user_data) {
  // Relaxed: read after the threads are joined.
  static_cast<Counts*>(user_data)->frees.fetch_add(1,
                                                   std::memory_order_relaxed);
}

TEST(ToolEventRegistry, RegisteringWhileRaisingIsSafe) {
  int provided = 0;
  ASSERT_EQ(PMPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
  Counts counts;
  std::atomic<bool> stop{false};
  const int wake = static_cast<int>(ev::EventType::kWaitWake);
  std::thread raiser([&] {
    const ev::WaitWakeElements elements{5};
    // Relaxed: a stop flag; the join orders everything else.
    while (!stop.load(std::memory_order_relaxed)) {
      if (ev::armed(ev::EventType::kWaitWake)) {
        ev::raise(ev::EventType::kWaitWake, ev::SiteSafety::kMpiRestricted,
                  &elements);
      }
    }
  });
  constexpr int kRounds = 2000;
  for (int i = 0; i < kRounds; ++i) {
    MPI_T_event_registration handle = nullptr;
    ASSERT_EQ(allocate_registration(wake, &handle), MPI_SUCCESS);
    ASSERT_EQ(set_callback(handle, 1, &count_call, &counts), MPI_SUCCESS);
    ASSERT_EQ(free_registration(handle, &counts, &count_free), MPI_SUCCESS);
  }
  stop.store(true, std::memory_order_relaxed);
  raiser.join();
  EXPECT_EQ(counts.frees.load(std::memory_order_relaxed), kRounds);
  EXPECT_EQ(counts.wrong.load(std::memory_order_relaxed), 0)
      << "of " << counts.calls.load(std::memory_order_relaxed)
      << " callbacks, these read the wrong elements";
  EXPECT_FALSE(ev::armed(ev::EventType::kWaitWake));
  ASSERT_EQ(PMPI_T_finalize(), MPI_SUCCESS);
}

TEST(ToolEventRegistry, FreedHandlesAreRejected) {
  int provided = 0;
  ASSERT_EQ(PMPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
  MPI_T_event_registration handle = nullptr;
  ASSERT_EQ(allocate_registration(0, &handle), MPI_SUCCESS);
  EXPECT_EQ(check_registration(handle, -1), MPI_SUCCESS);
  EXPECT_EQ(check_registration(handle, 1), MPI_T_ERR_INVALID);
  ASSERT_EQ(free_registration(handle, nullptr, nullptr), MPI_SUCCESS);
  EXPECT_EQ(check_registration(handle, -1), MPI_T_ERR_INVALID_HANDLE);
  EXPECT_EQ(free_registration(handle, nullptr, nullptr),
            MPI_T_ERR_INVALID_HANDLE);
  EXPECT_EQ(current_instance(nullptr), nullptr);
  ASSERT_EQ(PMPI_T_finalize(), MPI_SUCCESS);
}

}  // namespace
}  // namespace shmpi::mpi::tool
