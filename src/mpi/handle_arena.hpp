// SPDX-License-Identifier: MIT
// HandleArena<T>: the objects behind one kind of MPI handle. Objects live in
// one reserved address range, so validating a handle is a range check, an
// alignment check and a magic word: a garbage handle gets its error class
// instead of a crash. Freed objects keep a dead magic and go on a free list.
// create() and destroy() take the arena's mutex when the arena is
// thread-safe (MPI_THREAD_MULTIPLE); find() takes no lock.
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <utility>

namespace shmpi::mpi {

template <typename T>
class HandleArena {
 public:
  explicit HandleArena(std::size_t max_objects) : capacity_(max_objects) {}
  ~HandleArena() = default;  // process lifetime; the OS reclaims the range
  HandleArena(const HandleArena&) = delete;
  HandleArena& operator=(const HandleArena&) = delete;

  // Constructs a T; nullptr when the arena is full or memory is short.
  template <typename... Args>
  T* create(Args&&... args) {
    std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
    if (thread_safe_) {
      lock.lock();
    }
    if (!reserve()) {
      return nullptr;
    }
    Slot* slot;
    if (free_ != nullptr) {
      slot = free_;
      free_ = free_->freed.next_free;
    } else {
      if (used_ == capacity_) {
        return nullptr;
      }
      slot = &slots_[used_++];
    }
    return new (&slot->object) T(std::forward<Args>(args)...);
  }

  void destroy(T* object) {
    object->~T();
    auto* slot = reinterpret_cast<Slot*>(
        object);  // NOLINT: object is the slot's first member
    slot->freed.dead_magic = kDeadMagic;
    std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
    if (thread_safe_) {
      lock.lock();
    }
    slot->freed.next_free = free_;
    free_ = slot;
  }

  // Calls fn(T&) for every live object (introspection, not hot paths).
  template <typename Fn>
  void for_each(Fn&& fn) {
    std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
    if (thread_safe_) {
      lock.lock();
    }
    for (std::size_t i = 0; i < used_; ++i) {
      T& object = slots_[i].object;
      if (object.magic == T::kMagic) {
        fn(object);
      }
    }
  }

  // Locks are taken only once the program asked for MPI_THREAD_MULTIPLE.
  void set_thread_safe(bool thread_safe) { thread_safe_ = thread_safe; }

  // The live object a handle points to, or nullptr.
  T* find(const void* handle) const {
    auto address = reinterpret_cast<std::uintptr_t>(handle);
    auto base = reinterpret_cast<std::uintptr_t>(slots_);
    if (slots_ == nullptr || address < base ||
        address >= base + used_ * sizeof(Slot) ||
        (address - base) % sizeof(Slot) != 0) {
      return nullptr;
    }
    auto* object =
        reinterpret_cast<T*>(address);  // NOLINT: validated slot address
    return object->magic == T::kMagic ? object : nullptr;
  }

 private:
  static constexpr std::uint32_t kDeadMagic = 0xdeadbeef;
  union Slot;
  struct FreeSlot {
    std::uint32_t
        dead_magic;  // overlays T::magic, so find() rejects freed slots
    Slot* next_free;
  };
  union Slot {
    T object;
    FreeSlot freed;
    Slot() {}
    ~Slot() {}
  };
  static_assert(offsetof(T, magic) == 0, "the magic word comes first");

  bool reserve() {
    if (slots_ != nullptr) {
      return true;
    }
    // Reserve address space only; pages appear as objects are created.
    void* memory =
        ::mmap(nullptr, capacity_ * sizeof(Slot), PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
      return false;
    }
    slots_ = static_cast<Slot*>(memory);
    return true;
  }

  std::mutex mutex_;
  bool thread_safe_ = true;
  Slot* slots_ = nullptr;
  Slot* free_ = nullptr;
  std::atomic<std::size_t> used_{
      0};  // grows under mutex_; read racily by find()
  std::size_t capacity_;
};

}  // namespace shmpi::mpi
