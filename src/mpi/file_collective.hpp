// SPDX-License-Identifier: MIT
// Collective buffering of the collective writes (MPI_File_write_at_all,
// write_all, write_ordered and their nonblocking and split forms) on one
// machine: when the members' views cut their data into many small file
// runs, each member packs its data into the shared heap, and a few members
// (the aggregators) each assemble one contiguous domain of the file from
// every member's data, through the segment, and write it with few pwrite
// calls. No data moves in messages. docs/design.md "Collective buffering".
#pragma once

#include <mpi.h>

#include "mpi/core.hpp"
#include "mpi/file.hpp"
#include "mpi/file_access.hpp"

namespace shmpi::mpi {

// transfer()'s write, for a collective call: every member of the file's
// communicator calls it in the same call, with its own checked data, to be
// written from etype `offset` of its view. Either every member writes
// through the aggregators or every member calls transfer() (the decision is
// collective: too few small runs anywhere, a non-native representation,
// atomic mode, or a member short of shared heap). Sets `*moved` and
// `status` as transfer() does. An aggregator's system-call error is
// returned by every member, with the same class (io_error_class), raised on
// the file. Blocks until every aggregator has written.
int collective_write(File& file, MPI_Offset offset, const FileData& data,
                     const TypeArg& type, MPI_Status* status, MPI_Offset* moved,
                     const char* function) noexcept;

// The part in collective_write()'s collective steps of a member whose call
// failed its checks: it makes every member write on its own (transfer()),
// so that none waits for it.
void collective_write_decline(File& file) noexcept;

}  // namespace shmpi::mpi
