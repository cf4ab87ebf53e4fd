// SPDX-License-Identifier: MIT
// What a file is apart from its data (MPI 4.0 §14.2.4-14.2.8): its size
// (MPI_File_set_size, MPI_File_preallocate, MPI_File_get_size), its group
// and access mode, and its hints (MPI_File_set_info, MPI_File_get_info).
//
// The two size changes are collective: the members agree on the size in
// one allreduce, which also means every member has finished its earlier
// accesses, then file rank 0 changes the file and broadcasts the outcome,
// so that no member returns before the file has its new size and all of
// them return the same error class.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>

#include "io/posix_file.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"
#include "mpi/group.hpp"
#include "mpi/info.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

// ------------------------------------------------------------ size

namespace {

enum class SizeChange { kResize, kPreallocate };

int change_size(MPI_File fh, MPI_Offset size, SizeChange change,
                const char* function) {
  File* f = nullptr;
  if (int rc = check_file(fh, &f, function); rc != MPI_SUCCESS) {
    return rc;
  }
  // "If MPI_MODE_SEQUENTIAL mode was specified when the file was opened,
  // it is erroneous to call this routine" (MPI 4.0 §14.2.4, §14.2.5); the
  // class is the one MPICH's ROMIO gives seek on such a file.
  if (f->sequential()) {
    return fail_file(f, MPI_ERR_UNSUPPORTED_OPERATION, function,
                     "the file was opened MPI_MODE_SEQUENTIAL");
  }
  // Both count as writes to the file (MPI 4.0 §14.6.9). ROMIO checks this
  // in MPI_File_set_size only; its MPI_File_preallocate fails later with
  // MPI_ERR_IO, from writing through a read-only descriptor.
  if (!f->writable()) {
    return fail_file(f, MPI_ERR_READ_ONLY, function,
                     "the file was opened MPI_MODE_RDONLY");
  }
  // Settled together, so that every member raises the same class even
  // when only one of them passed a bad size.
  std::int64_t low = 0;
  std::int64_t high = 0;
  if (int rc = agree_range(*f, size, &low, &high); rc != MPI_SUCCESS) {
    return rc;
  }
  if (low < 0) {
    return size < 0 ? fail_file(f, MPI_ERR_ARG, function, "negative size %lld",
                                static_cast<long long>(size))
                    : fail_file(f, MPI_ERR_ARG, function,
                                "another member passed a negative size "
                                "(%lld)",
                                static_cast<long long>(low));
  }
  // "All processes in the group must pass identical values for size."
  // MPI_ERR_NOT_SAME as MPI_File_open has it for the access mode (ROMIO
  // says MPI_ERR_ARG here).
  if (low != high) {
    return fail_file(f, MPI_ERR_NOT_SAME, function,
                     "the members passed different sizes (%lld to %lld)",
                     static_cast<long long>(low), static_cast<long long>(high));
  }
  int error_number = 0;
  if (f->comm->rank == 0) {
    error_number = change == SizeChange::kResize ? io::resize(f->fd, size)
                                                 : io::preallocate(f->fd, size);
  }
  if (int rc = PMPI_Bcast(&error_number, 1, MPI_INT, 0, f->comm->handle);
      rc != MPI_SUCCESS) {
    return rc;  // raised on the file already (Comm::file)
  }
  if (error_number != 0) {
    return fail_file(
        f, io_error_class(error_number), function, "%s to %lld bytes: %s",
        change == SizeChange::kResize ? "resizing" : "preallocating",
        static_cast<long long>(size), std::strerror(error_number));
  }
  return MPI_SUCCESS;
}

}  // namespace

// The file pointers stay where they are, past the end of the file too
// (MPI 4.0 §14.2.4).
extern "C" int PMPI_File_set_size(MPI_File fh, MPI_Offset size) noexcept {
  return change_size(fh, size, SizeChange::kResize, "MPI_File_set_size");
}
SHMPI_PMPI_ALIAS(MPI_File_set_size);

extern "C" int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) noexcept {
  return change_size(fh, size, SizeChange::kPreallocate,
                     "MPI_File_preallocate");
}
SHMPI_PMPI_ALIAS(MPI_File_preallocate);

extern "C" int PMPI_File_get_size(MPI_File fh, MPI_Offset* size) noexcept {
  constexpr const char* kFunction = "MPI_File_get_size";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "size is NULL");
  }
  // In atomic mode the call is a data access that reads the whole file
  // (MPI 4.0 §14.2.6, §14.6.9): it waits for the writes in progress, whose
  // byte-range locks cover what they touch, so that it never sees a file
  // half extended by one. A shared lock needs a descriptor open for
  // reading; a write-only file takes an exclusive one.
  std::optional<io::RangeLock> lock;
  if (f->atomic.load(std::memory_order_relaxed)) {
    lock.emplace(f->fd, 0, std::numeric_limits<std::int64_t>::max(),
                 !f->readable());
    if (lock->error() != 0) {
      return fail_file(f, MPI_ERR_IO, kFunction,
                       "locking the file for atomic mode: %s",
                       std::strerror(lock->error()));
    }
  }
  const std::int64_t bytes = io::file_size(f->fd);
  if (bytes < 0) {
    const int error_number = static_cast<int>(-bytes);
    return fail_file(f, io_error_class(error_number), kFunction, "%s",
                     std::strerror(error_number));
  }
  *size = bytes;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_size);

// ------------------------------------------------------------ group, amode

extern "C" int PMPI_File_get_group(MPI_File fh, MPI_Group* group) noexcept {
  constexpr const char* kFunction = "MPI_File_get_group";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (group == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "group is NULL");
  }
  // The group of the communicator the file was opened on: its dup's.
  if (int rc = make_group(f->comm->lpids, group); rc != MPI_SUCCESS) {
    return fail_file(f, rc, kFunction, "out of group handles");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_group);

extern "C" int PMPI_File_get_amode(MPI_File fh, int* amode) noexcept {
  constexpr const char* kFunction = "MPI_File_get_amode";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (amode == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "amode is NULL");
  }
  *amode = f->amode;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_amode);

// ------------------------------------------------------------ hints
//
// File::hints holds what MPI_File_get_info reports: the hints in effect,
// which are the ones shmpi uses: "filename" (the name the file was opened
// with) and "file_perm" (the permissions a file created by MPI_File_open
// got). Neither can change once the file is open: MPI 4.0 §14.2.8 has
// "filename" ignored by MPI_File_set_info and "file_perm" useful only at
// creation, and every other key is one shmpi does not use, which the
// standard lets it ignore. So MPI_File_set_info checks its argument and
// changes nothing; it needs no communication either, since no hint has to
// be the same on every member.

extern "C" int PMPI_File_set_info(MPI_File fh, MPI_Info info) noexcept {
  constexpr const char* kFunction = "MPI_File_set_info";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // MPI_INFO_NULL passes no hints (MPICH 4.0.2 accepts it too).
  if (info != MPI_INFO_NULL && find_info(info) == nullptr) {
    return fail_file(f, MPI_ERR_INFO, kFunction, "invalid info handle %p",
                     static_cast<void*>(info));
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_set_info);

extern "C" int PMPI_File_get_info(MPI_File fh, MPI_Info* info_used) noexcept {
  constexpr const char* kFunction = "MPI_File_get_info";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (info_used == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "info_used is NULL");
  }
  Info* created = create_info();
  if (created == nullptr) {
    return fail_file(f, MPI_ERR_NO_MEM, kFunction, "out of info handles");
  }
  try {
    created->entries = f->hints;
  } catch (const std::bad_alloc&) {
    destroy_info(created);
    return fail_file(f, MPI_ERR_NO_MEM, kFunction, "out of memory");
  }
  // A new object, which the program frees (MPI 4.0 §14.2.8).
  *info_used = to_handle(created);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_info);
