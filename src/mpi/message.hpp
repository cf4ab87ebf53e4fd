// SPDX-License-Identifier: MIT
// The object behind an MPI_Message handle from MPI_Mprobe / MPI_Improbe
// (probe_api.cpp), until MPI_Mrecv / MPI_Imrecv takes the message.
#pragma once

#include <cstdint>

#include "mpi/core.hpp"
#include "mpi/handle_arena.hpp"
#include "p2p/unexpected.hpp"

namespace shmpi::mpi {

struct MessageBox {
  static constexpr std::uint32_t kMagic = 0x4d736731;  // "Msg1"
  std::uint32_t magic = kMagic;
  p2p::UnexpectedMessage* message = nullptr;
  Comm* comm = nullptr;
};

// Where they live (MPI_MESSAGE_NO_PROC is a constant, not in it).
HandleArena<MessageBox>& messages();

}  // namespace shmpi::mpi
