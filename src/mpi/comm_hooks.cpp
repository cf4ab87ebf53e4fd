// SPDX-License-Identifier: MIT
// Where communicator creation meets attribute caching. Until keyvals exist
// a communicator carries no user attributes, so there is nothing to copy or
// delete.
#include "mpi/comm.hpp"

namespace shmpi::mpi {

int copy_attributes_hook(Comm& /*oldcomm*/, Comm& /*newcomm*/) noexcept {
  return MPI_SUCCESS;
}

int delete_attributes_hook(Comm& /*comm*/) noexcept { return MPI_SUCCESS; }

}  // namespace shmpi::mpi
