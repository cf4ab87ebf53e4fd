// SPDX-License-Identifier: MIT
#include "mpi/file_access.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include "datatype/pack.hpp"
#include "io/posix_file.hpp"
#include "io/sieve.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file_collective.hpp"
#include "mpi/file_convert.hpp"
#include "mpi/file_write_guard.hpp"
#include "mpi/p2p_common.hpp"

namespace shmpi::mpi {

namespace {

// Reads stream bytes [position, position + bytes) of the view into
// `memory` (stream byte p at memory + (p - position)); returns the bytes
// read, fewer at the end of the file, and sets *error_number on failure.
std::uint64_t read_stream(const File& file, std::uint64_t position,
                          std::uint64_t bytes, std::byte* memory,
                          int* error_number) {
  io::SievingReader reader(file.fd);
  file.view.for_each_run(
      position, bytes,
      [&](std::int64_t at, std::uint64_t from, std::uint64_t length) {
        return reader.add(at, memory + (from - position), length);
      });
  reader.flush();
  *error_number = reader.error_number();
  return reader.got();
}

// Writes stream bytes [position, position + bytes) of the view from
// `memory` (stream byte p at memory + (p - position)); returns the bytes
// written and sets *error_number on failure. A call of many small runs
// sieves (SievingWriter); the others write run by run, announced to
// sieving writers (PlainWriteGuard). In atomic mode the caller holds an
// exclusive lock over all of it: run by run, nothing more.
std::uint64_t write_stream(File& file, std::uint64_t position,
                           std::uint64_t bytes, const std::byte* memory,
                           int* error_number) {
  const bool atomic = file.atomic.load(std::memory_order_relaxed);
  // Whether to sieve: many small runs, most of them near the one before.
  std::uint64_t runs = 0;
  std::uint64_t near = 0;
  if (!atomic) {
    std::int64_t end = 0;
    file.view.for_each_run(
        position, bytes,
        [&](std::int64_t at, std::uint64_t, std::uint64_t length) {
          if (runs++ > 0 && at >= end &&
              static_cast<std::uint64_t>(at - end) <= io::kSieveWriteGap) {
            ++near;
          }
          end = at + static_cast<std::int64_t>(length);
          return true;
        });
  }
  if (runs >= io::kSieveMinRuns && bytes < runs * io::kSieveRunBytes &&
      2 * near >= runs) {
    SievingWriteGuard sieving(file);
    io::SievingWriter writer(file.fd);
    file.view.for_each_run(
        position, bytes,
        [&](std::int64_t at, std::uint64_t from, std::uint64_t length) {
          return writer.add(at, memory + (from - position), length);
        });
    writer.flush();
    *error_number = writer.error_number();
    return writer.written();
  }
  std::optional<PlainWriteGuard> plain;
  if (!atomic) {
    const io::FileView::Span span = file.view.span(position, bytes);
    plain.emplace(file, span.first, span.end);
  }
  std::uint64_t done = 0;
  file.view.for_each_run(
      position, bytes,
      [&](std::int64_t at, std::uint64_t from, std::uint64_t length) {
        const std::int64_t n =
            io::write_at(file.fd, memory + (from - position), length, at);
        if (n < 0) {
          *error_number = static_cast<int>(-n);
          return false;
        }
        done += static_cast<std::uint64_t>(n);
        return true;
      });
  return done;
}

}  // namespace

void set_io_status(MPI_Status* status, MPI_Count bytes) noexcept {
  if (status == MPI_STATUS_IGNORE) {
    return;
  }
  set_status_count(status, bytes);
  status->MPI_internal[2] = 0;  // not cancelled
}

int check_data(File& file, bool write, const FileData& data, TypeArg* type,
               MPI_Offset* etypes, const char* function) noexcept {
  if (write && !file.writable()) {
    return fail_file(&file, MPI_ERR_READ_ONLY, function,
                     "the file was opened MPI_MODE_RDONLY");
  }
  if (!write && !file.readable()) {
    return fail_file(&file, MPI_ERR_ACCESS, function,
                     "the file was opened MPI_MODE_WRONLY");
  }
  if (data.count < 0) {
    return fail_file(&file, MPI_ERR_COUNT, function, "negative count %lld",
                     static_cast<long long>(data.count));
  }
  // Raised on the file's communicator, whose errors are the file's.
  if (int rc = check_datatype(file.comm, data.type, type, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc =
          check_buffer(file.comm, data.buffer, data.count, *type, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::uint64_t bytes = type->bytes(static_cast<std::size_t>(data.count));
  // A view in another data representation counts etypes in file bytes,
  // each basic element taking its file extent (MPI 4.0 §14.5).
  if (file.representation != nullptr) {
    if (int rc = file_data_bytes(file, write, data, &bytes, function);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (bytes % file.etype_size != 0) {
    // MPICH's ROMIO raises MPI_ERR_IO here too.
    return fail_file(&file, MPI_ERR_IO, function,
                     "%llu bytes of data are not a whole number of etypes "
                     "(%llu bytes each)",
                     static_cast<unsigned long long>(bytes),
                     static_cast<unsigned long long>(file.etype_size));
  }
  *etypes = static_cast<MPI_Offset>(bytes / file.etype_size);
  return MPI_SUCCESS;
}

int transfer(File& file, bool write, MPI_Offset offset, const FileData& data,
             const TypeArg& type, MPI_Status* status, MPI_Offset* moved,
             const char* function) noexcept {
  if (file.representation != nullptr) [[unlikely]] {
    // Data converted to and from another representation (MPI 4.0 §14.5):
    // a path of its own, so that this one stays copy-free.
    return convert_transfer(file, write, offset, data, type, status, moved,
                            function);
  }
  const std::uint64_t bytes = type.bytes(static_cast<std::size_t>(data.count));
  const datatype::Layout layout =
      type.layout(data.buffer, static_cast<std::size_t>(data.count));
  const std::uint64_t position =
      static_cast<std::uint64_t>(offset) * file.etype_size;
  std::uint64_t done = 0;
  int error_number = 0;
  if (bytes > 0) {
    // Atomic mode: the bytes this call touches are locked against the
    // other processes' calls (MPI 4.0 §14.6.1).
    std::optional<io::RangeLock> lock;
    if (file.atomic.load(std::memory_order_relaxed)) {
      const io::FileView::Span span = file.view.span(position, bytes);
      lock.emplace(file.fd, span.first, span.end, write);
      if (lock->error() != 0) {
        return fail_file(&file, MPI_ERR_IO, function,
                         "locking the bytes for atomic mode: %s",
                         std::strerror(lock->error()));
      }
    }
    if (!write && layout.map == nullptr) {
      // Contiguous memory: the runs straight into it.
      done = read_stream(file, position, bytes, layout.base, &error_number);
    } else if (layout.map == nullptr) {
      // Contiguous memory: the runs straight from it.
      done = write_stream(file, position, bytes, layout.base, &error_number);
    } else {
      std::byte* stage = io::scratch(io::kStageBytes, 0);
      if (stage == nullptr) {
        return fail_file(&file, MPI_ERR_NO_MEM, function,
                         "no memory for a %llu-byte staging buffer",
                         static_cast<unsigned long long>(io::kStageBytes));
      }
      for (std::uint64_t chunk = 0; chunk < bytes;) {
        const std::uint64_t length = std::min(io::kStageBytes, bytes - chunk);
        if (write) {
          datatype::pack(layout, chunk, stage, length);
        }
        std::uint64_t got = 0;
        if (write) {
          got = write_stream(file, position + chunk, length, stage,
                             &error_number);
        } else {
          got =
              read_stream(file, position + chunk, length, stage, &error_number);
          datatype::unpack(layout, chunk, stage, got);
        }
        done += got;
        chunk += got;
        if (got < length) {
          break;
        }
      }
    }
  }
  if (error_number != 0) {
    return fail_file(&file, io_error_class(error_number), function, "%s",
                     std::strerror(error_number));
  }
  *moved = static_cast<MPI_Offset>(done / file.etype_size);
  set_io_status(status, static_cast<MPI_Count>(done));
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi

namespace shmpi::mpi {

namespace {

// The request of a nonblocking call, complete: the data moved already.
int complete_request(File& file, const FileCall& call, MPI_Count bytes) {
  p2p::Request* r = new_request(file.comm, call.function);
  if (r == nullptr) {
    return fail_file(&file, MPI_ERR_NO_MEM, call.function,
                     "out of request handles");
  }
  // Errors of file requests belong to no communicator: the file may be
  // closed before the request is waited for.
  r->comm = nullptr;
  r->status = p2p::Status{};
  r->status.bytes = static_cast<std::uint64_t>(bytes);
  // Release: pairs with the waiter's acquire of `complete` (as
  // complete_proc_null does).
  r->complete.store(true, std::memory_order_release);
  *call.request = to_handle(r);
  return MPI_SUCCESS;
}

// The ordered calls' start: every member's count in etypes, in rank order,
// gives each its place after the shared file pointer, which file rank 0
// advances past them all (MPI 4.0 §14.4.4: "as if the accesses were
// performed in rank order").
int ordered_start(File& file, MPI_Offset etypes, MPI_Offset* start) {
  std::vector<MPI_Offset> counts(static_cast<std::size_t>(file.comm->size));
  int rc = PMPI_Allgather(&etypes, 1, MPI_OFFSET, counts.data(), 1, MPI_OFFSET,
                          file.comm->handle);
  MPI_Offset base = 0;
  if (rc == MPI_SUCCESS && file.comm->rank == 0) {
    MPI_Offset total = 0;
    for (MPI_Offset c : counts) {
      total += c;
    }
    // Relaxed: the broadcast orders it for the others.
    base = file.shared->position.fetch_add(total, std::memory_order_relaxed);
  }
  if (rc == MPI_SUCCESS) {
    rc = PMPI_Bcast(&base, 1, MPI_OFFSET, 0, file.comm->handle);
  }
  if (rc != MPI_SUCCESS) {
    return rc;  // raised on the file already (Comm::file)
  }
  for (int i = 0; i < file.comm->rank; ++i) {
    base += counts[static_cast<std::size_t>(i)];
  }
  *start = base;
  return MPI_SUCCESS;
}

// The checks of a data-access call before its data's (check_data).
int check_call(File& file, const FileCall& call, MPI_Offset offset) {
  if (call.form == AccessForm::kNonblocking && call.request == nullptr) {
    return fail_file(&file, MPI_ERR_ARG, call.function, "request is NULL");
  }
  if (call.form == AccessForm::kSplitBegin && file.split.active) {
    // MPI_ERR_IO, as MPICH's ROMIO raises it (the standard names no class).
    return fail_file(&file, MPI_ERR_IO, call.function,
                     "%s has not been ended yet: one split collective at a "
                     "time per file",
                     file.split.begin);
  }
  const bool by_pointer = call.positioning == Positioning::kShared ||
                          call.positioning == Positioning::kOrdered;
  if (file.sequential() && !by_pointer) {
    return fail_file(&file, MPI_ERR_UNSUPPORTED_OPERATION, call.function,
                     "the file was opened MPI_MODE_SEQUENTIAL: only the "
                     "shared file pointer calls may access it");
  }
  if (call.positioning == Positioning::kExplicit && offset < 0) {
    return fail_file(&file, MPI_ERR_ARG, call.function, "negative offset %lld",
                     static_cast<long long>(offset));
  }
  return MPI_SUCCESS;
}

// A collective call that failed its checks here still takes its part in
// the collective steps the other members make, so that a bad argument on
// one member is an error there and not a hang everywhere: the ordered
// calls' exchange of counts (with none of its own) and the collective
// writes' vote on buffering (which it makes every member decline).
// Returns `rc`.
int collective_refusal(File& file, const FileCall& call, int rc) {
  if (!call.collective) {
    return rc;
  }
  if (call.positioning == Positioning::kOrdered) {
    MPI_Offset ignored = 0;
    ordered_start(file, 0, &ignored);
  }
  if (call.write) {
    collective_write_decline(file);
  }
  return rc;
}

}  // namespace

int file_access(const FileCall& call, MPI_Offset offset, const FileData& data,
                MPI_Status* status) noexcept {
  File* f = nullptr;
  if (int rc = check_file(call.handle, &f, call.function); rc != MPI_SUCCESS) {
    return rc;
  }
  File& file = *f;
  if (int rc = check_call(file, call, offset); rc != MPI_SUCCESS) {
    return collective_refusal(file, call, rc);
  }
  TypeArg type;
  MPI_Offset etypes = 0;
  if (int rc =
          check_data(file, call.write, data, &type, &etypes, call.function);
      rc != MPI_SUCCESS) {
    return collective_refusal(file, call, rc);
  }
  MPI_Offset moved = 0;
  MPI_Status local{};
  // The data from etype `start` on: a collective write may go through the
  // aggregators (file_collective.hpp), with the same results.
  auto move_data = [&](MPI_Offset start) {
    return call.collective && call.write
               ? collective_write(file, start, data, type, &local, &moved,
                                  call.function)
               : transfer(file, call.write, start, data, type, &local, &moved,
                          call.function);
  };
  int rc = MPI_SUCCESS;
  switch (call.positioning) {
    case Positioning::kExplicit:
      rc = move_data(offset);
      break;
    case Positioning::kIndividual: {
      std::unique_lock<std::mutex> guard(file.pointer_mutex, std::defer_lock);
      if (state().thread_multiple) {
        guard.lock();
      }
      rc = move_data(file.individual);
      if (rc == MPI_SUCCESS) {
        file.individual += moved;
      }
      break;
    }
    case Positioning::kShared: {
      // Relaxed: the reservation is all that is shared (file_shared.hpp).
      const MPI_Offset start =
          file.shared->position.fetch_add(etypes, std::memory_order_relaxed);
      rc = move_data(start);
      break;
    }
    case Positioning::kOrdered: {
      MPI_Offset start = 0;
      rc = ordered_start(file, etypes, &start);
      if (rc == MPI_SUCCESS) {
        rc = move_data(start);
      }
      break;
    }
  }
  if (rc != MPI_SUCCESS) {
    return rc;
  }
  switch (call.form) {
    case AccessForm::kBlocking:
      if (status != MPI_STATUS_IGNORE) {
        set_io_status(status, status_bytes(&local));
      }
      return MPI_SUCCESS;
    case AccessForm::kNonblocking:
      return complete_request(file, call, status_bytes(&local));
    case AccessForm::kSplitBegin:
      file.split.active = true;
      file.split.begin = call.function;
      file.split.status = local;
      return MPI_SUCCESS;
  }
  return MPI_SUCCESS;
}

int file_split_end(MPI_File handle, const void* buffer, MPI_Status* status,
                   const char* begin, const char* function) noexcept {
  (void)buffer;  // the begin call moved the data
  File* f = nullptr;
  if (int rc = check_file(handle, &f, function); rc != MPI_SUCCESS) {
    return rc;
  }
  // The begin call's name, or its _c form's.
  const std::size_t n = std::strlen(begin);
  const bool matches =
      f->split.active && std::strncmp(f->split.begin, begin, n) == 0 &&
      (f->split.begin[n] == '\0' || std::strcmp(f->split.begin + n, "_c") == 0);
  if (!matches) {
    return fail_file(f, MPI_ERR_IO, function,
                     f->split.active ? "the split collective begun is %s, "
                                       "not %s"
                                     : "no split collective was begun (%s%s)",
                     f->split.active ? f->split.begin : "", begin);
  }
  f->split.active = false;
  if (status != MPI_STATUS_IGNORE) {
    set_io_status(status, status_bytes(&f->split.status));
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
