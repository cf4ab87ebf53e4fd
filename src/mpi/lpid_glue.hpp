// SPDX-License-Identifier: MIT
// Process IDs as communicator code needs them: gpids for what leaders
// exchange, lpids for groups, segment slots for the connection table.
#pragma once

#include <cstdint>
#include <vector>

namespace shmpi::mpi {

std::vector<std::uint64_t> gpids_of_lpids(
    const std::vector<std::int32_t>& lpids);
// False if some gpid names no process this job knows.
bool lpids_of_gpids(const std::vector<std::uint64_t>& gpids,
                    std::vector<std::int32_t>* lpids);
std::vector<std::uint32_t> slots_of_lpids(
    const std::vector<std::int32_t>& lpids);

}  // namespace shmpi::mpi
