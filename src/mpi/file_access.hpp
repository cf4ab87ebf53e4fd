// SPDX-License-Identifier: MIT
// The data-access calls' common part (MPI 4.0 §14.4): the checks each
// makes, and the transfer between a memory buffer and the view's stream of
// a file, whichever way the call positions it (explicit offset, individual
// or shared file pointer) and whether it is blocking, nonblocking, split
// collective or collective.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "mpi/core.hpp"
#include "mpi/file.hpp"

namespace shmpi::mpi {

// A call's memory side: `count` elements of `type` at `buffer`.
struct FileData {
  const void* buffer = nullptr;  // written into by reads
  MPI_Count count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// The checks every data-access call makes, raised on the file, in this
// order: the file is open for reading (write false) or writing (else:
// MPI_ERR_ACCESS, MPI_ERR_READ_ONLY), the count (MPI_ERR_COUNT), the
// datatype (MPI_ERR_TYPE), the buffer (MPI_ERR_BUFFER) and that the data is
// whole etypes (MPI_ERR_IO, as ROMIO; in file bytes when the view has a
// non-native representation). `*etypes` gets how many etypes it is.
int check_data(File& file, bool write, const FileData& data, TypeArg* type,
               MPI_Offset* etypes, const char* function) noexcept;

// Moves checked data between memory and the view's stream from etype
// `offset` on (file stream bytes offset * etype size): a write writes all
// of it; a read stops at the end of the file. Takes a byte-range lock over
// the bytes touched in atomic mode. Sets `*moved` to the etypes moved and
// `status` (MPI_STATUS_IGNORE allowed) to the bytes of `type` moved.
// System-call errors are raised on the file (io_error_class). A view in a
// non-native representation goes through convert_transfer()
// (file_convert.hpp).
int transfer(File& file, bool write, MPI_Offset offset, const FileData& data,
             const TypeArg& type, MPI_Status* status, MPI_Offset* moved,
             const char* function) noexcept;

// The status of a call that moved `bytes` of data (count, no source or
// tag, as MPICH's ROMIO reports it); MPI_STATUS_IGNORE is skipped.
void set_io_status(MPI_Status* status, MPI_Count bytes) noexcept;

}  // namespace shmpi::mpi

namespace shmpi::mpi {

// How a data-access call positions itself (MPI 4.0 §14.4.1).
enum class Positioning {
  kExplicit,    // the offset argument
  kIndividual,  // the process's own file pointer
  kShared,      // the shared file pointer, first come first served
  kOrdered,     // the shared file pointer, in rank order (collective)
};

// How it synchronises: blocking, nonblocking (a request that is complete
// when returned), or the begin of a split collective. Whether the call is
// collective is FileCall::collective.
enum class AccessForm { kBlocking, kNonblocking, kSplitBegin };

struct FileCall {
  MPI_File handle = MPI_FILE_NULL;
  const char* function = "";
  bool write = false;
  Positioning positioning = Positioning::kExplicit;
  AccessForm form = AccessForm::kBlocking;
  MPI_Request* request = nullptr;  // kNonblocking
  // A collective call (_all, _ordered): every member of the file's
  // communicator makes it, so a write may go through collective buffering
  // (file_collective.hpp).
  bool collective = false;
};

// A whole data-access call after its entry point: the checks, the
// positioning, the transfer, and the status, request or split state.
int file_access(const FileCall& call, MPI_Offset offset, const FileData& data,
                MPI_Status* status) noexcept;

// The end of a split collective (MPI_File_read_all_end, ...): `begin` is the
// name of the begin call it must follow.
int file_split_end(MPI_File handle, const void* buffer, MPI_Status* status,
                   const char* begin, const char* function) noexcept;

}  // namespace shmpi::mpi
