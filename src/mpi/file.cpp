// SPDX-License-Identifier: MIT
#include "mpi/file.hpp"

#include <unistd.h>

#include <cerrno>

#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"
#include "runtime/runtime.hpp"
#include "segment/shared_heap.hpp"

namespace shmpi::mpi {

HandleArena<File>& files() {
  static auto* arena = new HandleArena<File>(1u << 16);  // used until exit
  return *arena;
}

int check_file(MPI_File handle, File** out, const char* function) noexcept {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  File* file = files().find(handle);
  if (file == nullptr) [[unlikely]] {
    return handle == MPI_FILE_NULL
               ? fail_file(nullptr, MPI_ERR_FILE, function, "MPI_FILE_NULL")
               : fail_file(nullptr, MPI_ERR_FILE, function,
                           "%p is not an open file",
                           static_cast<void*>(handle));
  }
  *out = file;
  return MPI_SUCCESS;
}

int agree_range(File& file, std::int64_t value, std::int64_t* low,
                std::int64_t* high) noexcept {
  // The minimum of ~value is ~(the maximum of value): both in one
  // reduction, with no overflow at the ends of the range (as -value has).
  const std::int64_t mine[2] = {value, ~value};
  std::int64_t agreed[2] = {};
  if (int rc = PMPI_Allreduce(mine, agreed, 2, MPI_INT64_T, MPI_MIN,
                              file.comm->handle);
      rc != MPI_SUCCESS) {
    return rc;
  }
  *low = agreed[0];
  *high = ~agreed[1];
  return MPI_SUCCESS;
}

int io_error_class(int error_number) noexcept {
  switch (error_number) {
    case ENOENT:
      return MPI_ERR_NO_SUCH_FILE;
    case EACCES:
    case EPERM:
      return MPI_ERR_ACCESS;
    case EEXIST:
      return MPI_ERR_FILE_EXISTS;
    case ENOSPC:
    case EFBIG:
      return MPI_ERR_NO_SPACE;
    case EDQUOT:
      return MPI_ERR_QUOTA;
    case EROFS:
      return MPI_ERR_READ_ONLY;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
      return MPI_ERR_BAD_FILE;
    case ETXTBSY:
      return MPI_ERR_FILE_IN_USE;
    default:
      return MPI_ERR_IO;
  }
}

namespace {

void release_view_type(MPI_Datatype type) {
  if (Datatype* derived = find_derived(type)) {
    release(derived);
  }
}

}  // namespace

void destroy_file(File* file) noexcept {
  if (file->fd >= 0) {
    ::close(file->fd);
  }
  if (file->comm != nullptr && file->comm->rank == 0 &&
      file->shared != nullptr) {
    state().runtime->segment().heap().deallocate(file->shared);
  }
  release_view_type(file->etype);
  release_view_type(file->filetype);
  release_errhandler(file->errhandler);
  if (file->comm != nullptr) {
    file->comm->file = nullptr;
    MPI_Comm handle = file->comm->handle;
    PMPI_Comm_free(&handle);
  }
  files().destroy(file);
}

}  // namespace shmpi::mpi
