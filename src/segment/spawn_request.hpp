// SPDX-License-Identifier: MIT
// The request that MPI_Comm_spawn's root hands to shmpirun through the
// segment, and the answer it gets back (docs/design.md#spawn). The root
// writes a SpawnRequest into the shared heap and sends its offset down the
// job's spawn pipe; the launcher forks the new processes into free slots,
// writes the answer and releases `state`; the new processes read the
// parents' gpids from the same block. Encoding and decoding of the command
// list live here so the launcher never trusts what it reads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/cache_line.hpp"
#include "base/result.hpp"

namespace shmpi::segment {

// One command of MPI_Comm_spawn_multiple (MPI_Comm_spawn has one).
struct SpawnCommand {
  std::uint32_t maxprocs = 0;
  // The counts the info key "soft" allows, ascending; empty: exactly
  // maxprocs.
  std::vector<std::uint32_t> allowed;
  std::string wdir;               // info "wdir"; empty: the launcher's
  std::string path;               // info "path": directories, ':'-separated
  std::vector<std::string> argv;  // argv[0] is the command

  friend bool operator==(const SpawnCommand&, const SpawnCommand&) = default;
};

enum class SpawnState : std::uint32_t { kQueued = 0, kDone = 1 };

enum class SpawnError : std::int32_t {
  kNone = 0,
  kNoRoom = 1,      // fewer free slots than the request needs
  kExecFailed = 2,  // a command could not be started
  kBadRequest = 3,  // the block does not decode (a bug or a stray write)
};

// The block: this header, then the parents' packed gpids
// (parent_size x u64), then the encoded commands (commands_bytes), then
// (8-byte aligned) how many processes the launcher started for each
// command (command_count x u32, written with the answer).
struct SpawnRequest {
  static constexpr std::uint64_t kMagic = 0x73686d7069537077;  // "shmpiSpw"
  static constexpr std::size_t kMessageBytes = 240;

  // Request line: written by the root before it sends the offset; read by
  // the launcher and the new processes after they see the offset.
  alignas(kFalseSharingRange) std::uint64_t magic;
  std::uint64_t commands_bytes;
  std::uint32_t requester_slot;  // woken when the answer is written
  std::uint32_t parent_size;     // gpids that follow the header
  std::int32_t parent_root;      // the root's rank among the parents
  std::uint32_t command_count;   // as encoded; started() has one per command
  std::uint64_t world_block;     // offset of the new world's CommBlock
  std::uint64_t world_barrier;   // offset of its WorldBarrierBlock

  // Answer line: written by the launcher, then `state` released; read by
  // the root and the new processes after their acquire of `state`.
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> state;  // SpawnState
  std::int32_t error;                                            // SpawnError
  std::uint32_t first_slot;     // the new processes hold [first, first + procs)
  std::uint32_t procs;          // processes started
  std::uint32_t pg;             // their process group
  char message[kMessageBytes];  // why, when error != kNone

  // Reference line: the root holds one, the launcher adds one per process
  // it started before it releases `state`; each drops its own once it has
  // read what it needs, and the last one frees the block.
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> references;

  std::uint64_t* parent_gpids() {
    return reinterpret_cast<std::uint64_t*>(this + 1);
  }
  std::byte* commands() {
    return reinterpret_cast<std::byte*>(parent_gpids() + parent_size);
  }
  std::uint32_t* started() {
    return reinterpret_cast<std::uint32_t*>(commands() +
                                            ((commands_bytes + 7) & ~7ULL));
  }
  static std::size_t bytes_for(std::size_t parent_size,
                               std::size_t commands_bytes,
                               std::size_t command_count) {
    return sizeof(SpawnRequest) + parent_size * sizeof(std::uint64_t) +
           ((commands_bytes + 7) & ~std::size_t{7}) +
           command_count * sizeof(std::uint32_t);
  }
};
static_assert(std::is_standard_layout_v<SpawnRequest>, "shared by offset");
static_assert(sizeof(SpawnRequest) % kFalseSharingRange == 0,
              "the gpids that follow start on a line of their own");
static_assert(std::atomic<std::uint32_t>::is_always_lock_free,
              "shared between processes: address-free atomics only");

// The command list as bytes (little-endian words and length-prefixed
// strings; see spawn_request.cpp) and back. decode_spawn_commands refuses
// anything that does not parse exactly: the launcher reads what a rank
// wrote.
std::vector<std::byte> encode_spawn_commands(
    std::span<const SpawnCommand> commands);
Result<std::vector<SpawnCommand>> decode_spawn_commands(
    std::span<const std::byte> bytes);

// How many processes a command gets when `free_slots` are left: maxprocs,
// or with "soft" the largest allowed count that fits; -1 when none fits.
std::int64_t spawn_count(const SpawnCommand& command, std::uint64_t free_slots);

// The info key "soft" (MPI 4.0 §11.3.4): a comma-separated list of a,
// a:b and a:b:c triplets (a to b in steps of c), each count at most
// maxprocs. The allowed counts, ascending and distinct; an error for a
// malformed list.
Result<std::vector<std::uint32_t>> parse_soft(std::string_view text,
                                              std::uint32_t maxprocs);

}  // namespace shmpi::segment
