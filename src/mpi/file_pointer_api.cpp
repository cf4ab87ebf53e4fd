// SPDX-License-Identifier: MIT
// The file pointers (MPI 4.0 §14.4.3-14.4.4): MPI_File_seek,
// MPI_File_get_position, MPI_File_seek_shared,
// MPI_File_get_position_shared, and MPI_File_get_byte_offset, all in etypes
// of the current view.
#include <mpi.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"

using namespace shmpi::mpi;

namespace {

// The view position, in etypes, of the end of the file: the first whole
// etype at or after its last byte.
int end_of_file(File& f, MPI_Offset* out, const char* function) {
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    const int error_number = errno;
    return fail_file(&f, io_error_class(error_number), function, "%s",
                     std::strerror(error_number));
  }
  const std::uint64_t stream = f.view.stream_before(st.st_size);
  *out = static_cast<MPI_Offset>((stream + f.etype_size - 1) / f.etype_size);
  return MPI_SUCCESS;
}

// Where a seek puts a pointer now at `current`.
int seek_target(File& f, MPI_Offset offset, int whence, MPI_Offset current,
                MPI_Offset* out, const char* function) {
  MPI_Offset base = 0;
  switch (whence) {
    case MPI_SEEK_SET:
      break;
    case MPI_SEEK_CUR:
      base = current;
      break;
    case MPI_SEEK_END:
      if (int rc = end_of_file(f, &base, function); rc != MPI_SUCCESS) {
        return rc;
      }
      break;
    default:
      return fail_file(&f, MPI_ERR_ARG, function,
                       "whence %d is not MPI_SEEK_SET, MPI_SEEK_CUR or "
                       "MPI_SEEK_END",
                       whence);
  }
  if (offset < 0 && base + offset < 0) {
    return fail_file(&f, MPI_ERR_ARG, function,
                     "the pointer would move before the view's start (to "
                     "etype %lld)",
                     static_cast<long long>(base + offset));
  }
  *out = base + offset;
  return MPI_SUCCESS;
}

int check_not_sequential(File& f, const char* function) {
  if (f.sequential()) {
    return fail_file(&f, MPI_ERR_UNSUPPORTED_OPERATION, function,
                     "the file was opened MPI_MODE_SEQUENTIAL");
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_File_seek(MPI_File fh, MPI_Offset offset,
                              int whence) noexcept {
  constexpr const char* kFunction = "MPI_File_seek";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_not_sequential(*f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  std::unique_lock<std::mutex> guard(f->pointer_mutex, std::defer_lock);
  if (state().thread_multiple) {
    guard.lock();
  }
  MPI_Offset target = 0;
  if (int rc =
          seek_target(*f, offset, whence, f->individual, &target, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  f->individual = target;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_seek);

extern "C" int PMPI_File_get_position(MPI_File fh,
                                      MPI_Offset* offset) noexcept {
  constexpr const char* kFunction = "MPI_File_get_position";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_not_sequential(*f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (offset == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "offset is NULL");
  }
  std::unique_lock<std::mutex> guard(f->pointer_mutex, std::defer_lock);
  if (state().thread_multiple) {
    guard.lock();
  }
  *offset = f->individual;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_position);

extern "C" int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset,
                                     int whence) noexcept {
  constexpr const char* kFunction = "MPI_File_seek_shared";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // Every member's earlier shared-pointer calls are done before rank 0
  // moves it (the barrier), and the others' later ones come after (the
  // broadcast of the outcome).
  int rc = PMPI_Barrier(f->comm->handle);
  if (rc != MPI_SUCCESS) {
    return rc;  // raised on the file already (Comm::file)
  }
  MPI_Offset target = -1;
  if (f->comm->rank == 0) {
    // Relaxed: the broadcast below publishes it.
    const MPI_Offset current =
        f->shared->position.load(std::memory_order_relaxed);
    if (seek_target(*f, offset, whence, current, &target, kFunction) ==
        MPI_SUCCESS) {
      f->shared->position.store(target, std::memory_order_relaxed);
    }
  }
  rc = PMPI_Bcast(&target, 1, MPI_OFFSET, 0, f->comm->handle);
  if (rc != MPI_SUCCESS) {
    return rc;
  }
  if (target < 0 && f->comm->rank != 0) {
    return fail_file(f, MPI_ERR_ARG, kFunction,
                     "file rank 0 refused the seek (offset %lld, whence %d)",
                     static_cast<long long>(offset), whence);
  }
  if (target < 0) {
    return MPI_ERR_ARG;  // rank 0 raised it in seek_target
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_seek_shared);

extern "C" int PMPI_File_get_position_shared(MPI_File fh,
                                             MPI_Offset* offset) noexcept {
  constexpr const char* kFunction = "MPI_File_get_position_shared";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (offset == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "offset is NULL");
  }
  // Relaxed: a snapshot; other members may move it at any time.
  *offset = f->shared->position.load(std::memory_order_relaxed);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_position_shared);

extern "C" int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                                         MPI_Offset* disp) noexcept {
  constexpr const char* kFunction = "MPI_File_get_byte_offset";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_not_sequential(*f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (offset < 0) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "negative offset %lld",
                     static_cast<long long>(offset));
  }
  if (disp == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "disp is NULL");
  }
  *disp =
      f->view.file_offset(static_cast<std::uint64_t>(offset) * f->etype_size);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_byte_offset);
