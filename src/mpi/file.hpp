// SPDX-License-Identifier: MIT
// Parallel I/O (MPI 4.0 chapter 14): the object behind an MPI_File handle,
// and what the file calls share.
//
// Every process opens the file itself with open(2), so each has its own
// descriptor and file description; data moves with pread/pwrite at the
// offsets the process's view gives (io/file_view.hpp), in the call: the
// nonblocking calls return requests that are already complete, and a split
// collective's begin does the work its end reports. Collective calls agree
// through a private dup of the file's communicator. The shared file pointer
// is an atomic in the segment (io/file_shared.hpp).
//
// Errors on a file go to the file's handler, MPI_ERRORS_RETURN unless
// MPI_File_set_errhandler changed it (MPI 4.0 §9.3); errors tied to no file
// (MPI_File_open, MPI_File_delete) to MPI_FILE_NULL's.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "io/file_shared.hpp"
#include "io/file_view.hpp"
#include "mpi/core.hpp"
#include "mpi/handle_arena.hpp"

namespace shmpi::mpi {

struct Datarep;  // mpi/datarep.hpp

// A split collective between its begin and its end (MPI 4.0 §14.4.5): one
// at a time per file handle.
struct SplitCollective {
  bool active = false;
  const char* begin = nullptr;  // the begin call's name, for the end's check
  MPI_Status status{};          // what the end reports
};

struct File {
  static constexpr std::uint32_t kMagic = 0x46696c31;  // "Fil1"
  std::uint32_t magic = kMagic;
  // A dup of the communicator the file was opened on: the collectives'
  // agreement, and MPI_File_get_group. Never seen by the program. Errors
  // raised on it are the file's (Comm::file).
  Comm* comm = nullptr;
  int fd = -1;
  int amode = 0;
  std::string filename;  // as given to MPI_File_open
  // The view (MPI_File_set_view): displacement, etype and filetype as the
  // program gave them (derived handles retained, for MPI_File_get_view),
  // the etype's size in bytes, and the mapping. In a non-native data
  // representation (`representation` set; mpi/datarep.hpp) the size and
  // the mapping are in file bytes (mpi/file_type.hpp).
  MPI_Offset disp = 0;
  MPI_Datatype etype = MPI_BYTE;
  MPI_Datatype filetype = MPI_BYTE;
  std::uint64_t etype_size = 1;
  std::string datarep = "native";
  const Datarep* representation = nullptr;  // nullptr: native, internal
  io::FileView view;
  // Whether every member's view is contiguous (io::FileView::contiguous;
  // MPI_File_set_view agrees on it): then no member's call has the many
  // small runs collective buffering is for, and collective writes skip the
  // vote on it (mpi/file_collective.cpp).
  bool views_contiguous = true;
  // The individual file pointer, in etypes of the view. Under
  // MPI_THREAD_MULTIPLE pointer_mutex covers its read-and-advance.
  MPI_Offset individual = 0;
  std::mutex pointer_mutex;
  // The shared file pointer: in the segment, allocated by file rank 0.
  io::FileShared* shared = nullptr;
  // MPI_File_set_atomicity. Relaxed everywhere: each access reads it once
  // to decide whether to lock, and a thread racing a collective
  // set_atomicity on the same handle is the program's race (MPI 4.0
  // §14.6.1 orders the modes by the collective call); atomic only so that
  // such a race is not undefined behaviour.
  std::atomic<bool> atomic{false};
  // Under MPI_THREAD_MULTIPLE: held by a sieving write for its call, and by
  // a plain write that must lock while one runs (mpi/file_write_guard.hpp).
  mutable std::mutex sieve_mutex;
  SplitCollective split;
  MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
  std::vector<std::pair<std::string, std::string>> hints;  // in effect

  MPI_File handle() {
    return reinterpret_cast<MPI_File>(this);  // NOLINT: handle is object
  }
  bool readable() const { return (amode & MPI_MODE_WRONLY) == 0; }
  bool writable() const { return (amode & MPI_MODE_RDONLY) == 0; }
  bool sequential() const { return (amode & MPI_MODE_SEQUENTIAL) != 0; }
};

HandleArena<File>& files();

// The live file behind a handle, or nullptr (MPI_FILE_NULL, closed,
// garbage).
inline File* find_file(MPI_File handle) {
  if (!initialized()) [[unlikely]] {
    return nullptr;
  }
  return files().find(handle);
}

// MPI_FILE_NULL's error handler: the handler of errors tied to no file and
// the one a newly opened file starts with (MPI_ERRORS_RETURN until
// MPI_File_set_errhandler(MPI_FILE_NULL, ...) changes it).
MPI_Errhandler& default_file_errhandler();

// Raises `mpi_class` on the file's error handler, as fail() does for a
// communicator. `file` nullptr: on MPI_FILE_NULL's handler.
[[gnu::format(printf, 4, 5)]] int fail_file(File* file, int mpi_class,
                                            const char* function,
                                            const char* detail, ...) noexcept;
int raise_file_code(File* file, int code, const char* function) noexcept;

// MPI is initialized and `handle` names an open file (MPI_ERR_FILE, raised
// on MPI_FILE_NULL's handler).
int check_file(MPI_File handle, File** out, const char* function) noexcept;

// For the collective calls whose members must pass the same value: the
// smallest and the largest value any member passed, from one allreduce on
// the file's communicator (whose errors are raised on the file already).
int agree_range(File& file, std::int64_t value, std::int64_t* low,
                std::int64_t* high) noexcept;

// The MPI error class of a failed system call's errno on a file (ENOENT:
// MPI_ERR_NO_SUCH_FILE, EACCES: MPI_ERR_ACCESS, ENOSPC: MPI_ERR_NO_SPACE,
// ...; MPI_ERR_IO for the rest).
int io_error_class(int error_number) noexcept;

// MPI_File_close's teardown: closes the descriptor, frees the shared
// pointer (file rank 0), the view's types, the communicator and the handle.
void destroy_file(File* file) noexcept;

}  // namespace shmpi::mpi
