// SPDX-License-Identifier: MIT
// libshmpi's replacement of malloc and its relatives (the glibc manual,
// "Replacing malloc": symbol interposition by a shared object). Large blocks
// come from the job's shared heap (shared_malloc.hpp says which); every other
// call goes straight to glibc's allocator through its exported __libc_*
// entry points, so a program that never calls MPI_Init sees glibc alone.
//
// Compiled without builtins and outside link-time optimisation: the compiler
// must not turn the code of one of these functions into a call to another
// (or to itself).
#include <dlfcn.h>
#include <malloc.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "shared_malloc/shared_malloc.hpp"

extern "C" {
void* __libc_malloc(std::size_t bytes) noexcept;
void __libc_free(void* pointer) noexcept;
void* __libc_calloc(std::size_t count, std::size_t size) noexcept;
void* __libc_realloc(void* pointer, std::size_t bytes) noexcept;
void* __libc_memalign(std::size_t alignment, std::size_t bytes) noexcept;
void* __libc_valloc(std::size_t bytes) noexcept;
void* __libc_pvalloc(std::size_t bytes) noexcept;
}

namespace sm = shmpi::shared_malloc;

// libshmpi hides what mpi.h does not name; these must be seen by the
// dynamic linker to replace glibc's.
#define SHMPI_MALLOC_API __attribute__((visibility("default")))

namespace {

constexpr std::size_t kPage = 4096;

bool power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

void* shared_or_null(std::size_t bytes, std::size_t alignment) {
  if (bytes < sm::kMinBytes) [[likely]] {
    return nullptr;
  }
  return sm::allocate(bytes, alignment);
}

}  // namespace

extern "C" {

SHMPI_MALLOC_API void* malloc(std::size_t bytes) noexcept {
  if (void* block = shared_or_null(bytes, 64)) {
    return block;
  }
  return __libc_malloc(bytes);
}

SHMPI_MALLOC_API void free(void* pointer) noexcept {
  if (sm::owns(pointer)) [[unlikely]] {
    sm::release(pointer);
    return;
  }
  __libc_free(pointer);
}

SHMPI_MALLOC_API void* calloc(std::size_t count, std::size_t size) noexcept {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  if (void* block = shared_or_null(bytes, 64)) {
    std::memset(block, 0, bytes);  // heap blocks are reused, not fresh pages
    return block;
  }
  return __libc_calloc(count, size);
}

SHMPI_MALLOC_API void* realloc(void* pointer, std::size_t bytes) noexcept {
  if (!sm::owns(pointer)) [[likely]] {
    return __libc_realloc(pointer, bytes);
  }
  if (bytes == 0) {  // as glibc: frees and returns NULL
    sm::release(pointer);
    return nullptr;
  }
  const std::size_t old_bytes = sm::usable_size(pointer);
  if (bytes <= old_bytes) {
    return pointer;
  }
  void* block = malloc(bytes);
  if (block == nullptr) {
    return nullptr;  // the old block stays, as realloc promises
  }
  std::memcpy(block, pointer, bytes < old_bytes ? bytes : old_bytes);
  sm::release(pointer);
  return block;
}

SHMPI_MALLOC_API void* memalign(std::size_t alignment,
                                std::size_t bytes) noexcept {
  if (power_of_two(alignment)) {
    if (void* block = shared_or_null(bytes, alignment)) {
      return block;
    }
  }
  return __libc_memalign(alignment, bytes);
}

SHMPI_MALLOC_API void* aligned_alloc(std::size_t alignment,
                                     std::size_t bytes) noexcept {
  return memalign(alignment, bytes);
}

SHMPI_MALLOC_API int posix_memalign(void** out, std::size_t alignment,
                                    std::size_t bytes) noexcept {
  if (!power_of_two(alignment) || alignment % sizeof(void*) != 0) {
    return EINVAL;
  }
  void* block = shared_or_null(bytes, alignment);
  if (block == nullptr) {
    const int saved = errno;  // posix_memalign leaves errno alone
    block = __libc_memalign(alignment, bytes);
    errno = saved;
    if (block == nullptr) {
      return ENOMEM;
    }
  }
  *out = block;
  return 0;
}

SHMPI_MALLOC_API void* valloc(std::size_t bytes) noexcept {
  if (void* block = shared_or_null(bytes, kPage)) {
    return block;
  }
  return __libc_valloc(bytes);
}

SHMPI_MALLOC_API void* pvalloc(std::size_t bytes) noexcept {
  const std::size_t rounded = (bytes + kPage - 1) & ~(kPage - 1);
  if (rounded >= bytes) {
    if (void* block = shared_or_null(rounded, kPage)) {
      return block;
    }
  }
  return __libc_pvalloc(bytes);
}

SHMPI_MALLOC_API std::size_t malloc_usable_size(void* pointer) noexcept {
  if (sm::owns(pointer)) {
    return sm::usable_size(pointer);
  }
  // glibc's own, found once (dlsym may allocate: that is malloc above).
  using Fn = std::size_t (*)(void*);
  static const Fn glibc = reinterpret_cast<Fn>(  // NOLINT: dlsym's type
      ::dlsym(RTLD_NEXT, "malloc_usable_size"));
  return glibc != nullptr ? glibc(pointer) : 0;
}

}  // extern "C"
