// SPDX-License-Identifier: MIT
// The live objects behind one kind of MPI_T handle (control-variable
// handles, performance-variable sessions, a session's handles): each
// handle is its object's address, valid from add() until erase().
// Not synchronised: callers hold tool::state_mutex().
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

namespace shmpi::mpi::tool {

template <typename T, typename Handle>
class LiveObjects {
 public:
  static Handle handle_of(const T* object) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast,cppcoreguidelines-pro-type-const-cast)
    return reinterpret_cast<Handle>(const_cast<T*>(object));
  }

  // The object `handle` names, or nullptr (freed, null, garbage).
  T* find(Handle handle) const {
    for (const auto& live : objects_) {
      if (handle_of(live.get()) == handle) {
        return live.get();
      }
    }
    return nullptr;
  }

  // Takes `object` over; its handle.
  Handle add(std::unique_ptr<T> object) {
    const Handle handle = handle_of(object.get());
    objects_.push_back(std::move(object));
    return handle;
  }

  // Destroys the object `handle` names; false when there is none.
  bool erase(Handle handle) {
    const auto it = std::find_if(
        objects_.begin(), objects_.end(),
        [&](const auto& live) { return handle_of(live.get()) == handle; });
    if (it == objects_.end()) {
      return false;
    }
    objects_.erase(it);
    return true;
  }

  auto begin() const { return objects_.begin(); }
  auto end() const { return objects_.end(); }

 private:
  std::vector<std::unique_ptr<T>> objects_;
};

}  // namespace shmpi::mpi::tool
