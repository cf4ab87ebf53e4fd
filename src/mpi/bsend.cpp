// SPDX-License-Identifier: MIT
#include "mpi/bsend.hpp"

#include <cstring>
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

extern "C" int PMPI_Buffer_attach(void* buffer_address, int size) noexcept {
  if (int rc = check_initialized("MPI_Buffer_attach"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size < 0) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Buffer_attach", "negative size %d",
                size);
  }
  if (buffer_address == nullptr && size > 0) {
    return fail(nullptr, MPI_ERR_BUFFER, "MPI_Buffer_attach", "NULL buffer");
  }
  BsendBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  if (b.base != nullptr) {
    return fail(nullptr, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                "a buffer is already attached");
  }
  b.base = static_cast<std::byte*>(buffer_address);
  b.size = static_cast<std::size_t>(size);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Buffer_attach);

extern "C" int PMPI_Buffer_detach(void* buffer_address, int* size) noexcept {
  if (int rc = check_initialized("MPI_Buffer_detach"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (buffer_address == nullptr || size == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Buffer_detach", "NULL argument");
  }
  bsend_flush();
  BsendBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mutex);
  if (b.base == nullptr) {
    return fail(nullptr, MPI_ERR_BUFFER, "MPI_Buffer_detach",
                "no buffer is attached");
  }
  void* address = b.base;
  std::memcpy(buffer_address, &address, sizeof address);
  *size = static_cast<int>(b.size);
  b.base = nullptr;
  b.size = 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Buffer_detach);
