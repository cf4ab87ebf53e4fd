// SPDX-License-Identifier: MIT
// Opening, closing and deleting files (MPI 4.0 §14.2.1-14.2.3):
// MPI_File_open, MPI_File_close, MPI_File_delete.
//
// MPI_File_open is collective: the members check that they passed the same
// access mode, file rank 0 opens first (it alone creates the file, so
// MPI_MODE_EXCL means what it says) and allocates the shared file pointer,
// and once it has, the others open the file it made. Every member returns
// the same error class.
#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <string>
#include <string_view>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"
#include "mpi/info.hpp"
#include "segment/shared_heap.hpp"

using namespace shmpi::mpi;

namespace {

constexpr int kAccessModes = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY;
constexpr int kKnownModes = kAccessModes | MPI_MODE_APPEND | MPI_MODE_CREATE |
                            MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_EXCL |
                            MPI_MODE_SEQUENTIAL | MPI_MODE_UNIQUE_OPEN;

// Why `amode` is not a valid access mode (MPI 4.0 §14.2.1), or nullptr.
const char* amode_error(int amode) {
  if ((amode & ~kKnownModes) != 0) {
    return "it has bits that are no MPI_MODE_ constant of MPI_File_open";
  }
  const int access = amode & kAccessModes;
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR &&
      access != MPI_MODE_WRONLY) {
    return "it needs exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and "
           "MPI_MODE_WRONLY";
  }
  if (access == MPI_MODE_RDONLY &&
      (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)) != 0) {
    return "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL";
  }
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL) != 0) {
    return "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL";
  }
  return nullptr;
}

// The path in a file name: ROMIO's "ufs:" and "nfs:" prefixes name the
// file system and are dropped.
std::string path_of(std::string_view name) {
  for (std::string_view prefix : {"ufs:", "nfs:"}) {
    if (name.substr(0, prefix.size()) == prefix) {
      return std::string(name.substr(prefix.size()));
    }
  }
  return std::string(name);
}

// The permissions of a valid "file_perm" hint (octal, as chmod takes
// it), or -1.
int permissions_hint(const std::string& value) {
  char* end = nullptr;
  const unsigned long mode = std::strtoul(value.c_str(), &end, 8);
  if (end != value.c_str() && *end == '\0' && mode <= 07777) {
    return static_cast<int>(mode);
  }
  return -1;
}

// The permissions a new file gets: the "file_perm" hint, else 0666; the
// umask applies either way.
mode_t file_permissions(const InfoEntries& hints) {
  for (const auto& [key, value] : hints) {
    if (key == "file_perm" && permissions_hint(value) >= 0) {
      return static_cast<mode_t>(permissions_hint(value));
    }
  }
  return 0666;
}

int open_flags(int amode, bool create) {
  // Never O_APPEND: Linux's pwrite would then ignore the offset.
  int flags = O_CLOEXEC;
  flags |= (amode & MPI_MODE_RDONLY) != 0   ? O_RDONLY
           : (amode & MPI_MODE_WRONLY) != 0 ? O_WRONLY
                                            : O_RDWR;
  if (create && (amode & MPI_MODE_CREATE) != 0) {
    flags |= O_CREAT;
    if ((amode & MPI_MODE_EXCL) != 0) {
      flags |= O_EXCL;
    }
  }
  return flags;
}

// What file rank 0 broadcasts once it has opened the file: its errno (0)
// and where the shared file pointer is.
struct Opening {
  std::int32_t error_number = 0;
  std::int32_t out_of_memory = 0;
  std::uint64_t shared_offset = 0;
};

int close_quietly(File* f) {
  destroy_file(f);
  return MPI_SUCCESS;
}

// The checks that need no other member, raised on MPI_FILE_NULL's handler.
int check_open_args(MPI_Comm comm, const char* filename, int amode,
                    MPI_Info info, MPI_File* fh, Comm** out,
                    const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = find_comm(comm);
  if (c == nullptr) {
    return fail_file(nullptr, MPI_ERR_COMM, function,
                     comm == MPI_COMM_NULL ? "communicator is MPI_COMM_NULL"
                                           : "invalid communicator handle");
  }
  if (c->is_inter) {
    return fail_file(nullptr, MPI_ERR_COMM, function,
                     "a file is opened on an intracommunicator");
  }
  if (filename == nullptr) {
    return fail_file(nullptr, MPI_ERR_ARG, function, "filename is NULL");
  }
  if (const char* why = amode_error(amode)) {
    return fail_file(nullptr, MPI_ERR_AMODE, function,
                     "invalid access mode 0x%x: %s",
                     static_cast<unsigned>(amode), why);
  }
  if (info != MPI_INFO_NULL && find_info(info) == nullptr) {
    return fail_file(nullptr, MPI_ERR_INFO, function, "invalid info object");
  }
  if (fh == nullptr) {
    return fail_file(nullptr, MPI_ERR_ARG, function, "fh is NULL");
  }
  *out = c;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_File_open(MPI_Comm comm, const char* filename, int amode,
                              MPI_Info info, MPI_File* fh) noexcept {
  constexpr const char* kFunction = "MPI_File_open";
  Comm* parent = nullptr;
  if (int rc =
          check_open_args(comm, filename, amode, info, fh, &parent, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const std::string path = path_of(filename);
  InfoEntries hints;
  if (info != MPI_INFO_NULL) {
    hints = find_info(info)->entries;
  }
  Comm* fc = nullptr;
  const char* why = "";
  if (int rc = dup_intracomm(*parent, &fc, &why); rc != MPI_SUCCESS) {
    return fail_file(nullptr, rc, kFunction, "%s", why);
  }
  fc->errhandler = MPI_ERRORS_RETURN;
  File* f = files().create();
  if (f == nullptr) {
    MPI_Comm handle = fc->handle;
    PMPI_Comm_free(&handle);
    return fail_file(nullptr, MPI_ERR_NO_MEM, kFunction, "out of file handles");
  }
  f->comm = fc;
  f->amode = amode;
  f->filename = filename;
  f->errhandler = default_file_errhandler();
  retain_errhandler(f->errhandler);

  // Every member passed the same access mode and file name.
  const std::uint64_t name_hash = std::hash<std::string_view>{}(filename);
  std::uint64_t mine[4] = {static_cast<std::uint64_t>(amode),
                           ~static_cast<std::uint64_t>(amode), name_hash,
                           ~name_hash};
  std::uint64_t agreed[4] = {};
  int rc = PMPI_Allreduce(mine, agreed, 4, MPI_UINT64_T, MPI_MAX, fc->handle);
  if (rc != MPI_SUCCESS) {
    close_quietly(f);
    return fail_file(nullptr, MPI_ERR_OTHER, kFunction,
                     "the members could not agree on the file");
  }
  if (agreed[0] != ~agreed[1] || agreed[2] != ~agreed[3]) {
    close_quietly(f);
    return fail_file(nullptr, MPI_ERR_NOT_SAME, kFunction,
                     agreed[0] != ~agreed[1]
                         ? "the members passed different access modes"
                         : "the members passed different file names");
  }

  const mode_t permissions = file_permissions(hints);
  Opening opening;
  if (fc->rank == 0) {
    f->fd = ::open(path.c_str(), open_flags(amode, true), permissions);
    if (f->fd < 0) {
      opening.error_number = errno;
    } else {
      void* line = state().runtime->segment().heap().allocate_aligned(
          sizeof(shmpi::io::FileShared), alignof(shmpi::io::FileShared));
      if (line == nullptr) {
        opening.out_of_memory = 1;
      } else {
        f->shared = new (line) shmpi::io::FileShared();
        opening.shared_offset = state().runtime->segment().offset_of(line);
      }
    }
  }
  rc = PMPI_Bcast(&opening, sizeof opening, MPI_BYTE, 0, fc->handle);
  int my_error = opening.error_number;
  if (rc == MPI_SUCCESS && fc->rank != 0 && my_error == 0 &&
      opening.out_of_memory == 0) {
    f->fd = ::open(path.c_str(), open_flags(amode, false));
    if (f->fd < 0) {
      my_error = errno;
    }
  }
  // The first failure among the members is everyone's.
  int first_error = my_error;
  if (rc == MPI_SUCCESS) {
    rc = PMPI_Allreduce(&my_error, &first_error, 1, MPI_INT, MPI_MAX,
                        fc->handle);
  }
  if (rc != MPI_SUCCESS || first_error != 0 || opening.out_of_memory != 0) {
    const int mpi_class = rc != MPI_SUCCESS ? MPI_ERR_OTHER
                          : opening.out_of_memory != 0
                              ? MPI_ERR_NO_MEM
                              : io_error_class(first_error);
    close_quietly(f);
    return fail_file(nullptr, mpi_class, kFunction, "%s: %s", filename,
                     opening.out_of_memory != 0
                         ? "out of shared memory for the shared file pointer"
                     : rc != MPI_SUCCESS ? "the members could not agree"
                                         : std::strerror(first_error));
  }
  if (fc->rank != 0) {
    f->shared = state().runtime->segment().at<shmpi::io::FileShared>(
        static_cast<std::size_t>(opening.shared_offset));
  }
  if ((amode & MPI_MODE_APPEND) != 0) {
    // Both file pointers start at the end of the file (the default view's
    // etype is a byte).
    struct stat st {};
    if (::fstat(f->fd, &st) == 0) {
      f->individual = st.st_size;
      if (fc->rank == 0) {
        // Relaxed: the barrier below publishes it.
        f->shared->position.store(st.st_size, std::memory_order_relaxed);
      }
    }
    PMPI_Barrier(fc->handle);
  }
  f->hints.emplace_back("filename", filename);
  // The hints in effect (MPI_File_get_info): "file_perm" only where it
  // was used, a valid value with MPI_MODE_CREATE.
  for (const auto& [key, value] : hints) {
    if (key == "file_perm" && (amode & MPI_MODE_CREATE) != 0 &&
        permissions_hint(value) >= 0) {
      f->hints.emplace_back(key, value);
      break;
    }
  }
  fc->file = f;
  *fh = f->handle();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_open);

extern "C" int PMPI_File_close(MPI_File* fh) noexcept {
  constexpr const char* kFunction = "MPI_File_close";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (fh == nullptr) {
    return fail_file(nullptr, MPI_ERR_ARG, kFunction, "fh is NULL");
  }
  File* f = nullptr;
  if (int rc = check_file(*fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // No member's descriptor closes, nor the shared pointer goes, while
  // another may still use it.
  const int rc = PMPI_Barrier(f->comm->handle);
  int unlinked = 0;
  if (rc == MPI_SUCCESS && (f->amode & MPI_MODE_DELETE_ON_CLOSE) != 0 &&
      f->comm->rank == 0) {
    unlinked = ::unlink(path_of(f->filename).c_str()) == 0 ? 0 : errno;
  }
  File reporter;  // the closed file's handler, for a report
  reporter.errhandler = f->errhandler;
  retain_errhandler(reporter.errhandler);
  destroy_file(f);
  *fh = MPI_FILE_NULL;
  int result = MPI_SUCCESS;
  if (rc != MPI_SUCCESS) {
    result = raise_file_code(&reporter, rc, kFunction);
  } else if (unlinked != 0 && unlinked != ENOENT) {
    result = fail_file(&reporter, io_error_class(unlinked), kFunction,
                       "MPI_MODE_DELETE_ON_CLOSE: %s", std::strerror(unlinked));
  }
  release_errhandler(reporter.errhandler);  // the reporter's hold on it
  return result;
}
SHMPI_PMPI_ALIAS(MPI_File_close);

extern "C" int PMPI_File_delete(const char* filename, MPI_Info info) noexcept {
  constexpr const char* kFunction = "MPI_File_delete";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (filename == nullptr) {
    return fail_file(nullptr, MPI_ERR_ARG, kFunction, "filename is NULL");
  }
  if (info != MPI_INFO_NULL && find_info(info) == nullptr) {
    return fail_file(nullptr, MPI_ERR_INFO, kFunction, "invalid info object");
  }
  if (::unlink(path_of(filename).c_str()) != 0) {
    const int error_number = errno;
    return fail_file(nullptr, io_error_class(error_number), kFunction, "%s: %s",
                     filename, std::strerror(error_number));
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_delete);
