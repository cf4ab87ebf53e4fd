// SPDX-License-Identifier: MIT
#include "mpi/bsend.hpp"

#include <climits>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "mpi/detail/pmpi.hpp"
#include "p2p/engine.hpp"

namespace shmpi::mpi {

namespace {

// Blocks in the attached buffer, first fit. Each block charges
// MPI_BSEND_OVERHEAD bytes on top of the data, as the standard's sizing
// rule (pack size + MPI_BSEND_OVERHEAD per message) promises users.
struct BsendBuffer {
  std::mutex mutex;
  std::byte* base = nullptr;
  std::size_t size = 0;
  std::map<std::size_t, std::size_t> blocks;  // offset -> charged bytes
  std::size_t pending = 0;                    // internal sends in flight

  std::byte* allocate(std::size_t bytes) {
    const std::size_t charged = bytes + MPI_BSEND_OVERHEAD;
    std::size_t cursor = 0;
    for (const auto& [offset, length] : blocks) {
      if (offset - cursor >= charged) {
        break;
      }
      cursor = offset + length;
    }
    if (base == nullptr || cursor + charged > size) {
      return nullptr;
    }
    blocks.emplace(cursor, charged);
    return base + cursor;
  }
  void release(std::byte* block) {
    blocks.erase(static_cast<std::size_t>(block - base));
  }
};

BsendBuffer& buffer() {
  static BsendBuffer* instance = new BsendBuffer();
  return *instance;
}

}  // namespace

int bsend_start(Comm* comm, const datatype::Layout& data, int dest, int tag,
                const char* function) noexcept {
  BsendBuffer& b = buffer();
  std::byte* block;
  {
    std::lock_guard<std::mutex> lock(b.mutex);
    block = b.allocate(data.bytes);
    if (block == nullptr) {
      return fail(
          comm, MPI_ERR_BUFFER, function,
          "the attached buffer (%zu bytes) has no room for %zu more bytes "
          "(+MPI_BSEND_OVERHEAD)",
          b.size, data.bytes);
    }
    ++b.pending;
  }
  datatype::pack(data, 0, block, data.bytes);
  p2p::Request* request = state().requests.create();
  if (request == nullptr) {
    std::lock_guard<std::mutex> lock(b.mutex);
    b.release(block);
    --b.pending;
    return fail(comm, MPI_ERR_NO_MEM, function, "out of request handles");
  }
  request->kind = p2p::RequestKind::kSend;
  request->internal = true;
  request->user_object = block;
  request->layout = datatype::Layout{block, data.bytes, nullptr};
  request->peer = dest;
  request->tag = tag;
  request->my_rank = comm->rank;
  request->context_id = comm->context_id;
  request->peer_slot = comm->slots[static_cast<std::size_t>(dest)];
  request->comm = comm;
  state().engine->start_send(*request);
  return MPI_SUCCESS;
}

void bsend_release(p2p::Request* request) noexcept {
  BsendBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.release(static_cast<std::byte*>(request->user_object));
  request->user_object = nullptr;
  --b.pending;
}

void bsend_flush() noexcept {
  BsendBuffer& b = buffer();
  state().engine->wait_until([&b] {
    std::lock_guard<std::mutex> lock(b.mutex);
    return b.pending == 0;
  });
}

}  // namespace shmpi::mpi

using namespace shmpi::mpi;

namespace {

int buffer_attach(void* buffer_address, MPI_Count size, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size < 0) {
    return fail(nullptr, MPI_ERR_ARG, function, "negative size %lld",
                static_cast<long long>(size));
  }
  if (buffer_address == nullptr && size > 0) {
    return fail(nullptr, MPI_ERR_BUFFER, function, "NULL buffer");
  }
  BsendBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  if (b.base != nullptr) {
    return fail(nullptr, MPI_ERR_BUFFER, function,
                "a buffer is already attached");
  }
  b.base = static_cast<std::byte*>(buffer_address);
  b.size = static_cast<std::size_t>(size);
  return MPI_SUCCESS;
}
}  // namespace

extern "C" int PMPI_Buffer_attach(void* buffer_address, int size) noexcept {
  return buffer_attach(buffer_address, size, "MPI_Buffer_attach");
}
SHMPI_PMPI_ALIAS(MPI_Buffer_attach);

extern "C" int PMPI_Buffer_attach_c(void* buffer_address,
                                    MPI_Count size) noexcept {
  return buffer_attach(buffer_address, size, "MPI_Buffer_attach_c");
}
SHMPI_PMPI_ALIAS(MPI_Buffer_attach_c);

namespace {

// `limit` is the largest size the caller's binding can return: the int
// form cannot return a buffer attached with MPI_Buffer_attach_c beyond
// INT_MAX, and leaves it attached rather than lose its size.
int buffer_detach(void* buffer_address, MPI_Count* size, MPI_Count limit,
                  const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (buffer_address == nullptr || size == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "NULL argument");
  }
  bsend_flush();
  BsendBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  // With no buffer attached MPI behaves as if a zero-sized one were (MPI 4.0
  // section 3.6), so a library can detach, attach its own and later restore
  // whatever it found, including nothing.
  if (static_cast<MPI_Count>(b.size) > limit) {
    return fail(nullptr, MPI_ERR_VALUE_TOO_LARGE, function,
                "the attached buffer's %zu bytes do not fit an int; use "
                "MPI_Buffer_detach_c",
                b.size);
  }
  void* address = b.base;
  std::memcpy(buffer_address, &address, sizeof address);
  *size = static_cast<MPI_Count>(b.size);
  b.base = nullptr;
  b.size = 0;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Buffer_detach(void* buffer_address, int* size) noexcept {
  MPI_Count bytes = 0;
  int rc = buffer_detach(buffer_address, size != nullptr ? &bytes : nullptr,
                         INT_MAX, "MPI_Buffer_detach");
  if (rc == MPI_SUCCESS) {
    *size = static_cast<int>(bytes);
  }
  return rc;
}
SHMPI_PMPI_ALIAS(MPI_Buffer_detach);

extern "C" int PMPI_Buffer_detach_c(void* buffer_address,
                                    MPI_Count* size) noexcept {
  return buffer_detach(buffer_address, size,
                       std::numeric_limits<MPI_Count>::max(),
                       "MPI_Buffer_detach_c");
}
SHMPI_PMPI_ALIAS(MPI_Buffer_detach_c);
