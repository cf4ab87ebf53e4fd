// SPDX-License-Identifier: MIT
// HandleArena<T>: the objects behind one kind of MPI handle. Objects live in
// one reserved address range, so validating a handle is a range check, an
// alignment check and a magic word: a garbage handle gets its error class
// instead of a crash. Freed objects keep a dead magic and go on a free list.
// create() and destroy() take the arena's mutex when the arena is
// thread-safe (MPI_THREAD_MULTIPLE); find() takes no lock, so it may run
// while another thread creates the arena's first object.
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
      // Relaxed: both change only under the mutex, which we hold.
      const std::size_t used = used_.load(std::memory_order_relaxed);
      if (used == capacity_) {
        return nullptr;
      }
      slot = slots_.load(std::memory_order_relaxed) + used;
      // Relaxed: find() needs the new count only for handles this object
      // becomes, which reach other threads through the program's own
      // synchronisation (that orders this store before their find()).
      used_.store(used + 1, std::memory_order_relaxed);
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
    // Relaxed: both change only under the mutex, which we hold.
    Slot* const slots = slots_.load(std::memory_order_relaxed);
    const std::size_t used = used_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < used; ++i) {
      T& object = slots[i].object;
      if (object.magic == T::kMagic) {
        fn(object);
      }
    }
  }

  // Locks are taken only once the program asked for MPI_THREAD_MULTIPLE.
  void set_thread_safe(bool thread_safe) { thread_safe_ = thread_safe; }

  // The live object a handle points to, or nullptr.
  // Takes no lock, so another thread may be creating the first object
  // (mapping the range) or a later one meanwhile.
  T* find(const void* handle) const {
    auto address = reinterpret_cast<std::uintptr_t>(handle);
    // Acquire: pairs with reserve()'s release, so a range we see is mapped.
    Slot* const slots = slots_.load(std::memory_order_acquire);
    auto base = reinterpret_cast<std::uintptr_t>(slots);
    // Relaxed: a handle another thread created reached this one through
    // the program's synchronisation, which orders the count that covers
    // it before this load; for any other address a stale count only
    // rejects it sooner.
    const std::size_t used = used_.load(std::memory_order_relaxed);
    if (slots == nullptr || address < base ||
        address >= base + used * sizeof(Slot) ||
        (address - base) % sizeof(Slot) != 0) {
      return nullptr;
    }
    auto* object =
        reinterpret_cast<T*>(address);  // NOLINT: validated slot address
    return object->magic == T::kMagic ? object : nullptr;
  }

  // The slot a live object (one find() or create() returned) occupies: its
  // place in the range, fixed for the object's life and reused only after
  // destroy(). Fortran handles are made of it (mpi/fortran_handle.hpp).
  std::size_t index_of(const T* object) const {
    // Relaxed: the caller holds a live object, so the range it lies in
    // reached this thread with it (the object's own synchronisation).
    const Slot* const slots = slots_.load(std::memory_order_relaxed);
    return static_cast<std::size_t>(
        reinterpret_cast<const Slot*>(object) -  // NOLINT: first member
        slots);
  }

  // The live object in slot `index`, or nullptr (never handed out, or
  // freed). Takes no lock, as find() does, for the same reasons.
  T* at(std::size_t index) const {
    // Acquire: pairs with reserve()'s release, so a range we see is mapped.
    Slot* const slots = slots_.load(std::memory_order_acquire);
    // Relaxed: as in find(), an index made from a live object reached this
    // thread after the count that covers it.
    const std::size_t used = used_.load(std::memory_order_relaxed);
    if (slots == nullptr || index >= used) {
      return nullptr;
    }
    T* object = &slots[index].object;
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
    // Relaxed: only create() stores it, under the mutex we hold.
    if (slots_.load(std::memory_order_relaxed) != nullptr) {
      return true;
    }
    // Reserve address space only; pages appear as objects are created.
    void* memory =
        ::mmap(nullptr, capacity_ * sizeof(Slot), PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
      return false;
    }
    // Release: a find() in another thread that sees the range sees it
    // mapped (pairs with find()'s acquire).
    slots_.store(static_cast<Slot*>(memory), std::memory_order_release);
    return true;
  }

  std::mutex mutex_;
  bool thread_safe_ = true;
  // Both set under mutex_ (when thread-safe) and read by find() without
  // it: the range (mapped on first use) and how many slots were handed out.
  std::atomic<Slot*> slots_{nullptr};
  Slot* free_ = nullptr;
  std::atomic<std::size_t> used_{0};
  std::size_t capacity_;
};

}  // namespace shmpi::mpi
