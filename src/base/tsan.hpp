// SPDX-License-Identifier: MIT
// ThreadSanitizer sees one process. When two threads of this process touch
// the same shared memory one after the other and what orders them is a
// release/acquire chain through another process (a scratch block handed
// back and forth through the other ranks), it cannot see the order and
// reports a race. These name the chain's two ends in this process; they
// compile to nothing outside TSan builds.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
#endif

namespace shmpi::base {

// Everything this thread did with `object` happens before a later
// tsan_acquire(object) in this process.
inline void tsan_release([[maybe_unused]] const void* object) noexcept {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(const_cast<void*>(object));
#endif
}

inline void tsan_acquire([[maybe_unused]] const void* object) noexcept {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(const_cast<void*>(object));
#endif
}

}  // namespace shmpi::base
