// SPDX-License-Identifier: MIT
// The two ways to another process's memory (rma/remote_memory.hpp): through
// the shared segment's mapping, or through process_vm_readv / _writev with
// one iovec per block of the remote layout.
#include "rma/remote_memory.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

#include "datatype/type_map.hpp"

namespace shmpi::rma {

namespace {

// Calls visit(address, length) for every block of `layout`'s data in
// packed order, adjacent blocks merged; stops early when visit returns
// false (and then returns false).
template <typename Visit>
bool for_each_block(const datatype::Layout& layout, Visit&& visit) {
  const auto base = reinterpret_cast<std::uint64_t>(layout.base);
  if (layout.bytes == 0) {
    return true;
  }
  if (layout.map == nullptr) {
    return visit(base, static_cast<std::uint64_t>(layout.bytes));
  }
  const datatype::TypeMap& map = *layout.map;
  const std::uint64_t elements = layout.bytes / map.packed;
  std::uint64_t run_at = 0;
  std::uint64_t run_length = 0;
  for (std::uint64_t i = 0; i < elements; ++i) {
    const std::uint64_t element =
        base +
        static_cast<std::uint64_t>(static_cast<std::int64_t>(i) * map.extent);
    for (const datatype::Segment& s : map.segments) {
      for (std::uint64_t k = 0; k < s.count; ++k) {
        const std::uint64_t at =
            element + static_cast<std::uint64_t>(
                          s.disp + static_cast<std::int64_t>(k) * s.stride);
        if (run_length != 0 && run_at + run_length == at) {
          run_length += s.length;
          continue;
        }
        if (run_length != 0 && !visit(run_at, run_length)) {
          return false;
        }
        run_at = at;
        run_length = s.length;
      }
    }
  }
  return run_length == 0 || visit(run_at, run_length);
}

CopyResult from_errno(int error) {
  CopyResult r;
  r.error_number = error;
  switch (error) {
    case EFAULT:
      r.kind = CopyResult::Kind::kFault;
      break;
    case EPERM:
    case ESRCH:
    case ENOSYS:
      r.kind = CopyResult::Kind::kDenied;
      break;
    default:
      r.kind = CopyResult::Kind::kOther;
      break;
  }
  return r;
}

// iovecs per system call: the kernel's limit (IOV_MAX, 1024 on Linux).
constexpr std::size_t kBatch = IOV_MAX < 1024 ? IOV_MAX : 1024;
// A non-contiguous local side goes through a staging buffer of this size.
constexpr std::size_t kStagingBytes = std::size_t{256} << 10;

// The kernel path: batches of remote blocks, each against one local
// contiguous range (the local data itself, or the staging buffer).
CopyResult kernel_copy(bool to_remote, pid_t pid,
                       const datatype::Layout& remote,
                       const datatype::Layout& local) noexcept {
  const bool staged = local.map != nullptr;
  std::vector<std::byte> staging;
  if (staged) {
    try {
      staging.resize(std::min(local.bytes, kStagingBytes));
    } catch (...) {
      return from_errno(ENOMEM);
    }
  }
  const std::size_t cap = staged ? staging.size() : local.bytes;
  iovec remote_iov[kBatch];
  std::size_t n = 0;
  std::size_t batch_bytes = 0;
  std::size_t done = 0;  // packed offset where the batch starts
  CopyResult result;
  auto flush = [&]() -> bool {
    if (batch_bytes == 0) {
      return true;
    }
    iovec local_iov{staged ? staging.data() : local.base + done, batch_bytes};
    if (to_remote && staged) {
      datatype::pack(local, done, staging.data(), batch_bytes);
    }
    const ssize_t moved =
        to_remote ? ::process_vm_writev(pid, &local_iov, 1, remote_iov, n, 0)
                  : ::process_vm_readv(pid, &local_iov, 1, remote_iov, n, 0);
    if (moved < 0) {
      result = from_errno(errno);
      return false;
    }
    if (static_cast<std::size_t>(moved) != batch_bytes) {
      // The kernel stops at the first remote byte it cannot reach.
      result.kind = CopyResult::Kind::kFault;
      return false;
    }
    if (!to_remote && staged) {
      datatype::unpack(local, done, staging.data(), batch_bytes);
    }
    done += batch_bytes;
    n = 0;
    batch_bytes = 0;
    return true;
  };
  const bool finished =
      for_each_block(remote, [&](std::uint64_t at, std::uint64_t length) {
        while (length > 0) {
          const std::uint64_t take =
              std::min<std::uint64_t>(length, cap - batch_bytes);
          // NOLINTNEXTLINE(performance-no-int-to-ptr): a remote address
          remote_iov[n] = iovec{reinterpret_cast<void*>(at), take};
          ++n;
          batch_bytes += take;
          at += take;
          length -= take;
          if ((n == kBatch || batch_bytes == cap) && !flush()) {
            return false;
          }
        }
        return true;
      });
  if (finished) {
    flush();
  }
  return result;
}

// The segment path, or a plain copy within this process; false when the
// remote data is not all inside the remote process's segment mapping.
bool local_copy(bool to_remote, const RemoteProcess& process,
                const LocalSegment& mine, const datatype::Layout& remote,
                const datatype::Layout& local) noexcept {
  datatype::Layout here = remote;
  here.base = direct_base(process, mine, remote);
  if (here.base == nullptr) {
    return false;
  }
  if (to_remote) {
    datatype::copy(local, 0, here, 0, local.bytes);
  } else {
    datatype::copy(here, 0, local, 0, remote.bytes);
  }
  return true;
}

}  // namespace

Span span_of(const datatype::Layout& layout) noexcept {
  const auto base = reinterpret_cast<std::uint64_t>(layout.base);
  if (layout.bytes == 0) {
    return {base, base};
  }
  if (layout.map == nullptr) {
    return {base, base + layout.bytes};
  }
  const datatype::TypeMap& map = *layout.map;
  std::int64_t lo = INT64_MAX;
  std::int64_t hi = INT64_MIN;
  for (const datatype::Segment& s : map.segments) {
    if (s.count == 0 || s.length == 0) {
      continue;
    }
    const std::int64_t first = s.disp;
    const std::int64_t last =
        s.disp + static_cast<std::int64_t>(s.count - 1) * s.stride;
    lo = std::min({lo, first, last});
    hi = std::max(hi,
                  std::max(first, last) + static_cast<std::int64_t>(s.length));
  }
  if (lo > hi) {
    return {base, base};
  }
  const std::int64_t last_element =
      static_cast<std::int64_t>(layout.bytes / map.packed - 1) * map.extent;
  lo += std::min<std::int64_t>(0, last_element);
  hi += std::max<std::int64_t>(0, last_element);
  return {base + static_cast<std::uint64_t>(lo),
          base + static_cast<std::uint64_t>(hi)};
}

std::byte* direct_base(const RemoteProcess& process, const LocalSegment& mine,
                       const datatype::Layout& remote) noexcept {
  if (process.same_process) {
    return remote.base;
  }
  const Span span = span_of(remote);
  if (span.lo < process.segment ||
      span.hi > process.segment + process.segment_bytes) {
    return nullptr;
  }
  return datatype::offset_address(
      mine.base,
      static_cast<std::int64_t>(reinterpret_cast<std::uint64_t>(remote.base) -
                                process.segment));
}

CopyResult write(const RemoteProcess& process, const LocalSegment& mine,
                 const datatype::Layout& remote,
                 const datatype::Layout& local) noexcept {
  if (local.bytes == 0 || local_copy(true, process, mine, remote, local)) {
    return {};
  }
  return kernel_copy(true, process.pid, remote, local);
}

CopyResult read(const RemoteProcess& process, const LocalSegment& mine,
                const datatype::Layout& remote,
                const datatype::Layout& local) noexcept {
  if (remote.bytes == 0 || local_copy(false, process, mine, remote, local)) {
    return {};
  }
  return kernel_copy(false, process.pid, remote, local);
}

CopyResult probe(pid_t pid, std::uint64_t address) noexcept {
  std::byte byte{};
  iovec local{&byte, 1};
  // NOLINTNEXTLINE(performance-no-int-to-ptr): a remote address
  iovec remote{reinterpret_cast<void*>(address), 1};
  const ssize_t moved = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
  if (moved < 0) {
    return from_errno(errno);
  }
  return {};
}

}  // namespace shmpi::rma
