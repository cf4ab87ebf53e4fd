// SPDX-License-Identifier: MIT
// File consistency (MPI 4.0 §14.6.1): MPI_File_set_atomicity,
// MPI_File_get_atomicity and MPI_File_sync.
//
// Every process reaches the file through the same kernel page cache, so a
// write is visible to the others' reads once its call returns: nonatomic
// mode needs nothing more. Atomic mode makes each data access take a
// byte-range lock over the bytes it touches (transfer() in
// mpi/file_access.cpp), so that conflicting accesses do not interleave.
// MPI_File_sync flushes to the storage device.
#include <mpi.h>

#include <cstdint>
#include <cstring>

#include "io/posix_file.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

extern "C" int PMPI_File_set_atomicity(MPI_File fh, int flag) noexcept {
  constexpr const char* kFunction = "MPI_File_set_atomicity";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // "All processes in the group must pass identical values for flag"; as
  // logicals, so 1 and 2 are the same. MPICH's ROMIO compares with rank
  // 0's flag and raises MPI_ERR_ARG on the members that differ from it;
  // here every member raises MPI_ERR_NOT_SAME, the class of collective
  // arguments that differ.
  const bool atomic = flag != 0;
  std::int64_t low = 0;
  std::int64_t high = 0;
  if (int rc = agree_range(*f, atomic ? 1 : 0, &low, &high);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (low != high) {
    return fail_file(f, MPI_ERR_NOT_SAME, kFunction,
                     "the members passed different flags (this one %s, "
                     "another %s)",
                     atomic ? "true" : "false", atomic ? "false" : "true");
  }
  // Only data accesses that start after this call see the new mode
  // (MPI 4.0 §14.6.1), and every access completes in its call. File::atomic
  // is a plain bool: an access another thread makes on the same handle
  // during this call has no defined mode in MPI, and it is the program's
  // race here too.
  f->atomic.store(atomic != 0, std::memory_order_relaxed);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_set_atomicity);

extern "C" int PMPI_File_get_atomicity(MPI_File fh, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_File_get_atomicity";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "flag is NULL");
  }
  *flag = f->atomic.load(std::memory_order_relaxed) ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_atomicity);

// A file opened MPI_MODE_RDONLY may be synced too: the call also makes the
// other processes' updates visible to this one's later reads, which is
// what a reader does in the sync-barrier-sync construct of MPI 4.0
// §14.6.1. (MPICH's ROMIO refuses it with MPI_ERR_READ_ONLY.)
extern "C" int PMPI_File_sync(MPI_File fh) noexcept {
  constexpr const char* kFunction = "MPI_File_sync";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  const int mine = io::sync(f->fd);
  // Collective: no member returns before every member's writes reached
  // the device, and a failure anywhere is every member's (the largest
  // errno, as MPI_File_open reports its members' failures).
  int first = mine;
  if (int rc =
          PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MAX, f->comm->handle);
      rc != MPI_SUCCESS) {
    return rc;  // raised on the file already (Comm::file)
  }
  if (first != 0) {
    return fail_file(
        f, io_error_class(first), kFunction, "%s%s",
        mine == first ? "" : "on another member: ", std::strerror(first));
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_sync);
