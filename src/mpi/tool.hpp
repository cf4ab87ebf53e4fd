// SPDX-License-Identifier: MIT
// The state the tool information interface (MPI_T_*, MPI 4.0 chapter 15.3)
// shares between its parts: whether MPI_T is initialized, and the fixed list
// of categories that control variables, performance variables and events
// are grouped in. The variables live in tool_cvars.cpp and tool_pvars.cpp,
// the events in tool_events_catalog.cpp; each reports which of its entries
// belong to a category.
//
// MPI_T may be used before MPI_Init and after MPI_Finalize, from any thread,
// and its calls return their error codes without invoking an error handler
// (MPI 4.0 section 15.3.1), so nothing here touches a communicator.
#pragma once

#include <array>
#include <mutex>

namespace shmpi::mpi::tool {

// The categories, in index order. Indices are stable for the life of the
// process (they never change, so MPI_T_category_changed's stamp stays 0).
enum class Category : int {
  kPointToPoint,
  kCollectives,
  kMemory,
  kProgress,
  kIo,
  kCount
};

struct CategoryInfo {
  const char* name;
  const char* description;
};

inline constexpr std::array<CategoryInfo, static_cast<int>(Category::kCount)>
    kCategories{{
        {"shmpi_p2p",
         "point-to-point messages: eager limits, the per-pair rings and "
         "matching"},
        {"shmpi_coll", "collectives in the shared scratch area"},
        {"shmpi_memory", "the shared segment and its heap"},
        {"shmpi_progress", "waiting: how long a rank spins before it sleeps"},
        {"shmpi_io", "parallel I/O"},
    }};

inline constexpr int kCategoryCount = static_cast<int>(Category::kCount);

// True between the first MPI_T_init_thread and the matching last
// MPI_T_finalize (the calls nest, MPI 4.0 section 15.3.4).
bool initialized() noexcept;

// MPI_SUCCESS while initialized, MPI_T_ERR_NOT_INITIALIZED otherwise: the
// first check of every MPI_T call but the two above.
int check_initialized() noexcept;

// Serialises MPI_T calls that change tool state (handles, sessions,
// registrations): MPI_T_init_thread provides MPI_THREAD_MULTIPLE.
std::mutex& state_mutex() noexcept;

}  // namespace shmpi::mpi::tool
