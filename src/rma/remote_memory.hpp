// SPDX-License-Identifier: MIT
// Copies between this process's memory and another process's, for
// one-sided communication (mpi/window.hpp). The other process's data is
// described by a datatype::Layout whose base is an address in *its* space.
// When that data lies inside the other process's mapping of the job's
// segment, the copy goes through this process's mapping of the same
// segment (a memcpy, no system call); otherwise through the kernel
// (process_vm_readv / process_vm_writev), which needs ptrace access to
// the other process (Yama; win_create_api.cpp asks for it).
//
// Independent of the MPI layer: it knows addresses, layouts and pids.
// Not thread-safe in any interesting sense: every call is a copy, and two
// calls touching the same bytes race as two memcpys would.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "datatype/pack.hpp"

namespace shmpi::rma {

// The process that owns the remote memory.
struct RemoteProcess {
  pid_t pid = 0;
  // Where that process mapped the job's segment (its address), and how
  // many bytes the mapping has (the same in every process).
  std::uint64_t segment = 0;
  std::uint64_t segment_bytes = 0;
  // True when the remote process is this one: every address is local.
  bool same_process = false;
};

// This process's mapping of the job's segment.
struct LocalSegment {
  std::byte* base = nullptr;
};

// Bytes [lo, hi) that a layout's data touches, as integer addresses (the
// base may be a remote address). Empty layouts give lo == hi.
struct Span {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
};
[[nodiscard]] Span span_of(const datatype::Layout& layout) noexcept;

// How a copy ended. kFault: the kernel could not reach some of the remote
// bytes (EFAULT, or a short transfer: part of the range is not mapped
// there); kDenied: no permission to the process (EPERM, ESRCH) or no
// process_vm_* in this kernel (ENOSYS); kOther: anything else.
// `error_number` is the errno of a failed call (0 for a short one).
struct CopyResult {
  enum class Kind : std::uint8_t { kOk, kFault, kDenied, kOther };
  Kind kind = Kind::kOk;
  int error_number = 0;
  bool ok() const { return kind == Kind::kOk; }
};

// Where `remote`'s data is in this process when it can be reached without
// the kernel: the remote process is this one, or the data lies inside its
// mapping of the segment. nullptr otherwise. The result is `remote.base`
// translated; the layout's map applies to it unchanged.
[[nodiscard]] std::byte* direct_base(const RemoteProcess& process,
                                     const LocalSegment& mine,
                                     const datatype::Layout& remote) noexcept;

// Copies local.bytes packed bytes from `local` (this process) to `remote`
// (in `process`); both layouts must hold the same number of packed bytes.
[[nodiscard]] CopyResult write(const RemoteProcess& process,
                               const LocalSegment& mine,
                               const datatype::Layout& remote,
                               const datatype::Layout& local) noexcept;

// Copies remote.bytes packed bytes from `remote` (in `process`) to `local`.
[[nodiscard]] CopyResult read(const RemoteProcess& process,
                              const LocalSegment& mine,
                              const datatype::Layout& remote,
                              const datatype::Layout& local) noexcept;

// Whether this process may read `pid`'s memory at `address` through the
// kernel: a one-byte process_vm_readv.
[[nodiscard]] CopyResult probe(pid_t pid, std::uint64_t address) noexcept;

}  // namespace shmpi::rma
