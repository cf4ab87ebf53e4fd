// SPDX-License-Identifier: MIT
// Where communicator creation meets attribute caching: the creation and
// free paths call these, and mpi/keyval.cpp does the work.
#include "mpi/comm.hpp"
#include "mpi/keyval.hpp"

namespace shmpi::mpi {

int copy_attributes_hook(Comm& oldcomm, Comm& newcomm) noexcept {
  return copy_comm_attributes(oldcomm, newcomm);
}

int delete_attributes_hook(Comm& comm) noexcept {
  return delete_comm_attributes(comm);
}

}  // namespace shmpi::mpi
