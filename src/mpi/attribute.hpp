// SPDX-License-Identifier: MIT
// One cached attribute (MPI_Comm_set_attr, MPI_Type_set_attr): the keyval
// and the value. Objects that cache attributes keep a list of these in the
// order they were set (mpi/keyval.hpp runs the callbacks).
#pragma once

namespace shmpi::mpi {

struct Attribute {
  int keyval = 0;
  void* value = nullptr;
};

}  // namespace shmpi::mpi
