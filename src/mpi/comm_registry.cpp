// SPDX-License-Identifier: MIT
#include "contextid/context_id.hpp"
#include "mpi/comm.hpp"

namespace shmpi::mpi {

void init_predefined_comms(MpiState& s, const runtime::WorldInfo& world) {
  using contextid::collective;
  using contextid::from_mask_index;
  Comm& w = s.world;
  w.context_id = w.recv_context_id = from_mask_index(0);  // mask bit 0
  w.coll_context_id = w.coll_recv_context_id = collective(w.context_id);
  w.rank = static_cast<int>(world.rank);
  w.size = w.remote_size = static_cast<int>(world.size);
  w.slots.resize(world.size);
  w.lpids.resize(world.size);
  for (std::uint32_t r = 0; r < world.size; ++r) {
    w.slots[r] = r;  // the first world occupies slots 0..size-1
    w.lpids[r] = static_cast<std::int32_t>(r);  // lpid = world rank (seed 002)
  }
  w.predefined = true;
  w.name = "MPI_COMM_WORLD";
  w.handle = MPI_COMM_WORLD;

  Comm& self = s.self;
  self.context_id = self.recv_context_id = from_mask_index(1);  // mask bit 1
  self.coll_context_id = self.coll_recv_context_id =
      collective(self.context_id);
  self.rank = 0;
  self.size = self.remote_size = 1;
  self.slots = {world.slot};
  self.lpids = {static_cast<std::int32_t>(world.rank)};
  self.predefined = true;
  self.name = "MPI_COMM_SELF";
  self.handle = MPI_COMM_SELF;
  // Mask bit 2 stays reserved, as the seeds reserve it for the third
  // predefined communicator (MPICH's internal ICOMM_WORLD).
}

}  // namespace shmpi::mpi
