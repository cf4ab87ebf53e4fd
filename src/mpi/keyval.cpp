// SPDX-License-Identifier: MIT
// The keyval table and the attribute lists of communicators (keyval.hpp).
#include "mpi/keyval.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

namespace shmpi::mpi {
namespace {

// Handle layout: bits 12..30 hold slot index + 1, bits 0..11 the slot's
// generation, so a handle is positive, never MPI_KEYVAL_INVALID (0), never
// one of the predefined keys (all below 1 << 12), and a stale handle of a
// recycled slot is rejected until the generation wraps.
constexpr int kIndexShift = 12;
constexpr std::uint32_t kGenerationMask = (1u << kIndexShift) - 1;
constexpr std::uint32_t kMaxKeyvals = (1u << (31 - kIndexShift)) - 1;
static_assert(MPI_KEYVAL_INVALID == 0 &&
                  MPI_LASTUSEDCODE < (1 << kIndexShift) &&
                  MPI_WIN_MODEL < (1 << kIndexShift),
              "user keyvals must not collide with the predefined ones");

// A callback of either kind, stored without its signature: the keyval's
// kind says which one to cast back to (a round trip through another
// function pointer type is well defined).
using AnyFunction = void (*)();

// What a caller needs to run a keyval's callbacks outside the table lock.
struct Callbacks {
  AttrKind kind = AttrKind::kComm;
  AnyFunction copy = nullptr;  // MPI_{Comm,Type}_copy_attr_function*
  AnyFunction del = nullptr;   // MPI_{Comm,Type}_delete_attr_function*
  void* extra_state = nullptr;
};

struct Keyval {
  Callbacks callbacks;
  std::uint32_t generation = 0;  // bumped when the slot is recycled
  int references = 0;            // program's handle + one per attribute
  bool in_use = false;           // slot holds a keyval
  bool program_freed = false;    // MPI_Comm_free_keyval was called
};

class KeyvalTable {
 public:
  int create(const Callbacks& callbacks, int* handle) {
    std::lock_guard lock(mutex_);
    std::uint32_t index = 0;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else if (slots_.size() < kMaxKeyvals) {
      slots_.emplace_back();
      index = static_cast<std::uint32_t>(slots_.size() - 1);
    } else {
      return MPI_ERR_NO_MEM;
    }
    Keyval& keyval = slots_[index];
    keyval.callbacks = callbacks;
    keyval.references = 1;
    keyval.in_use = true;
    keyval.program_freed = false;
    *handle = encode(index, keyval.generation);
    return MPI_SUCCESS;
  }

  // Valid for the program on objects of `kind`: live and not freed by it.
  bool usable(int handle, AttrKind kind) {
    std::lock_guard lock(mutex_);
    const Keyval* keyval = find(handle);
    return keyval != nullptr && keyval->callbacks.kind == kind &&
           !keyval->program_freed;
  }

  // Not yet released: usable, or freed by the program while attributes
  // still hold references.
  bool live(int handle, AttrKind kind) {
    std::lock_guard lock(mutex_);
    const Keyval* keyval = find(handle);
    return keyval != nullptr && keyval->callbacks.kind == kind;
  }

  int program_free(int handle, AttrKind kind) {
    std::lock_guard lock(mutex_);
    Keyval* keyval = find(handle);
    if (keyval == nullptr || keyval->callbacks.kind != kind ||
        keyval->program_freed) {
      return MPI_ERR_KEYVAL;
    }
    keyval->program_freed = true;
    release_locked(handle, *keyval);
    return MPI_SUCCESS;
  }

  // Callbacks of a keyval that attributes may still use (freed or not).
  std::optional<Callbacks> callbacks(int handle) {
    std::lock_guard lock(mutex_);
    const Keyval* keyval = find(handle);
    if (keyval == nullptr) {
      return std::nullopt;
    }
    return keyval->callbacks;
  }

  void retain(int handle) {
    std::lock_guard lock(mutex_);
    if (Keyval* keyval = find(handle)) {
      ++keyval->references;
    }
  }

  void release(int handle) {
    std::lock_guard lock(mutex_);
    if (Keyval* keyval = find(handle)) {
      release_locked(handle, *keyval);
    }
  }

 private:
  static int encode(std::uint32_t index, std::uint32_t generation) {
    return static_cast<int>(((index + 1) << kIndexShift) |
                            (generation & kGenerationMask));
  }

  Keyval* find(int handle) {
    if (handle < (1 << kIndexShift)) {
      return nullptr;
    }
    const auto bits = static_cast<std::uint32_t>(handle);
    const std::uint32_t index = (bits >> kIndexShift) - 1;
    if (index >= slots_.size()) {
      return nullptr;
    }
    Keyval& keyval = slots_[index];
    if (!keyval.in_use ||
        (keyval.generation & kGenerationMask) != (bits & kGenerationMask)) {
      return nullptr;
    }
    return &keyval;
  }

  void release_locked(int handle, Keyval& keyval) {
    if (--keyval.references > 0) {
      return;
    }
    keyval = Keyval{{}, keyval.generation + 1, 0, false, false};
    free_.push_back((static_cast<std::uint32_t>(handle) >> kIndexShift) - 1);
  }

  std::mutex mutex_;
  std::deque<Keyval> slots_;  // a deque: growing never moves a slot
  std::vector<std::uint32_t> free_;
};

KeyvalTable& table() {
  static KeyvalTable* instance = new KeyvalTable();  // used until exit
  return *instance;
}

std::vector<Attribute>::iterator find_attribute(std::vector<Attribute>& list,
                                                int keyval) {
  return std::find_if(list.begin(), list.end(), [keyval](const Attribute& a) {
    return a.keyval == keyval;
  });
}

int run_delete(const AttrHost& host, const Attribute& attribute) {
  std::optional<Callbacks> callbacks = table().callbacks(attribute.keyval);
  if (!callbacks || callbacks->del == nullptr) {
    return MPI_SUCCESS;
  }
  if (callbacks->kind == AttrKind::kType) {
    return reinterpret_cast<MPI_Type_delete_attr_function*>(callbacks->del)(
        static_cast<MPI_Datatype>(host.handle), attribute.keyval,
        attribute.value, callbacks->extra_state);
  }
  if (callbacks->kind == AttrKind::kWin) {
    return reinterpret_cast<MPI_Win_delete_attr_function*>(callbacks->del)(
        static_cast<MPI_Win>(host.handle), attribute.keyval, attribute.value,
        callbacks->extra_state);
  }
  return reinterpret_cast<MPI_Comm_delete_attr_function*>(callbacks->del)(
      static_cast<MPI_Comm>(host.handle), attribute.keyval, attribute.value,
      callbacks->extra_state);
}

// Removes the attribute under `keyval` (looked up again: a callback may have
// changed the list) and drops its reference on the keyval.
void remove_attribute(const AttrHost& host, int keyval) {
  auto it = find_attribute(host.list, keyval);
  if (it != host.list.end()) {
    host.list.erase(it);
    table().release(keyval);
  }
}

// Runs the copy callback of one attribute of `old`; appends the copy to
// `copies` (with a reference on its keyval) when the callback says so.
int copy_one(const AttrHost& old, const Attribute& attribute,
             std::vector<Attribute>& copies) {
  std::optional<Callbacks> callbacks = table().callbacks(attribute.keyval);
  if (!callbacks || callbacks->copy == nullptr) {
    return MPI_SUCCESS;
  }
  void* copied = nullptr;
  int flag = 0;
  const int rc =
      callbacks->kind == AttrKind::kType
          ? reinterpret_cast<MPI_Type_copy_attr_function*>(callbacks->copy)(
                static_cast<MPI_Datatype>(old.handle), attribute.keyval,
                callbacks->extra_state, attribute.value, &copied, &flag)
          : reinterpret_cast<MPI_Comm_copy_attr_function*>(callbacks->copy)(
                static_cast<MPI_Comm>(old.handle), attribute.keyval,
                callbacks->extra_state, attribute.value, &copied, &flag);
  if (rc != MPI_SUCCESS || flag == 0) {
    return rc;
  }
  copies.push_back({attribute.keyval, copied});
  table().retain(attribute.keyval);
  return MPI_SUCCESS;
}

// Runs the copy callbacks of `old`'s attributes in the order they were
// set, appending the copies to `copies`. Stops at the first failing
// callback and returns its code (copies made so far stay in `copies`).
int copy_all(const AttrHost& old, std::vector<Attribute>& copies) {
  // A snapshot: a copy callback may change old's list.
  const std::vector<Attribute> snapshot = old.list;
  for (const Attribute& attribute : snapshot) {
    void* current = nullptr;
    if (!get_attr(old.list, attribute.keyval, &current)) {
      continue;  // deleted by an earlier callback
    }
    if (int rc = copy_one(old, Attribute{attribute.keyval, current}, copies);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}

int create_keyval(const Callbacks& callbacks, int* keyval) noexcept {
  try {
    return table().create(callbacks, keyval);
  } catch (const std::bad_alloc&) {
    return MPI_ERR_NO_MEM;
  }
}

int free_keyval(int keyval, AttrKind kind) noexcept {
  try {
    return table().program_free(keyval, kind);
  } catch (const std::bad_alloc&) {  // the free list could not grow
    return MPI_ERR_NO_MEM;
  }
}

AttrHost host_of(Comm& comm) { return AttrHost{comm.handle, comm.attributes}; }

}  // namespace

bool is_predefined_comm_keyval(int keyval) noexcept {
  return keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE;
}

bool is_keyval(int keyval, AttrKind kind) noexcept {
  return table().usable(keyval, kind);
}

bool is_live_keyval(int keyval, AttrKind kind) noexcept {
  return table().live(keyval, kind);
}

bool is_comm_keyval(int keyval) noexcept {
  return is_keyval(keyval, AttrKind::kComm);
}

bool is_live_comm_keyval(int keyval) noexcept {
  return is_live_keyval(keyval, AttrKind::kComm);
}

int create_comm_keyval(MPI_Comm_copy_attr_function* copy,
                       MPI_Comm_delete_attr_function* del, void* extra_state,
                       int* keyval) noexcept {
  return create_keyval(
      Callbacks{AttrKind::kComm, reinterpret_cast<AnyFunction>(copy),
                reinterpret_cast<AnyFunction>(del), extra_state},
      keyval);
}

int create_type_keyval(MPI_Type_copy_attr_function* copy,
                       MPI_Type_delete_attr_function* del, void* extra_state,
                       int* keyval) noexcept {
  return create_keyval(
      Callbacks{AttrKind::kType, reinterpret_cast<AnyFunction>(copy),
                reinterpret_cast<AnyFunction>(del), extra_state},
      keyval);
}

int create_win_keyval(MPI_Win_copy_attr_function* copy,
                      MPI_Win_delete_attr_function* del, void* extra_state,
                      int* keyval) noexcept {
  return create_keyval(
      Callbacks{AttrKind::kWin, reinterpret_cast<AnyFunction>(copy),
                reinterpret_cast<AnyFunction>(del), extra_state},
      keyval);
}

int free_win_keyval(int keyval) noexcept {
  return free_keyval(keyval, AttrKind::kWin);
}

int free_comm_keyval(int keyval) noexcept {
  return free_keyval(keyval, AttrKind::kComm);
}

int free_type_keyval(int keyval) noexcept {
  return free_keyval(keyval, AttrKind::kType);
}

int set_attr(const AttrHost& host, int keyval, void* value) noexcept {
  auto it = find_attribute(host.list, keyval);
  if (it != host.list.end()) {
    // MPI 4.0 section 7.7.2: "as if MPI_COMM_DELETE_ATTR was first called
    // to delete the previous value", so the old value's delete callback
    // runs first and the attribute counts as set now: it moves to the end
    // of the set order (MPICH keeps its place; the standard's wording
    // decides).
    if (int rc = run_delete(host, *it); rc != MPI_SUCCESS) {
      return rc;
    }
    it = find_attribute(host.list, keyval);  // the callback may change it
    if (it != host.list.end()) {
      std::rotate(it, it + 1, host.list.end());
      host.list.back().value = value;
      return MPI_SUCCESS;
    }
  }
  try {
    host.list.push_back({keyval, value});
  } catch (const std::bad_alloc&) {
    return MPI_ERR_NO_MEM;
  }
  table().retain(keyval);
  return MPI_SUCCESS;
}

bool get_attr(const std::vector<Attribute>& list, int keyval,
              void** value) noexcept {
  for (const Attribute& attribute : list) {
    if (attribute.keyval == keyval) {
      *value = attribute.value;
      return true;
    }
  }
  return false;
}

int delete_attr(const AttrHost& host, int keyval) noexcept {
  auto it = find_attribute(host.list, keyval);
  if (it == host.list.end()) {
    return MPI_SUCCESS;
  }
  if (int rc = run_delete(host, *it); rc != MPI_SUCCESS) {
    return rc;
  }
  remove_attribute(host, keyval);
  return MPI_SUCCESS;
}

int copy_attributes(const AttrHost& old, const AttrHost& fresh) noexcept {
  try {
    // Straight into the new list: a callback that fails has the copies
    // already attached deleted with their delete callbacks.
    if (int rc = copy_all(old, fresh.list); rc != MPI_SUCCESS) {
      delete_attributes(fresh);  // its errors are secondary
      return rc;
    }
  } catch (const std::bad_alloc&) {
    delete_attributes(fresh);
    return MPI_ERR_NO_MEM;
  }
  return MPI_SUCCESS;
}

int delete_attributes(const AttrHost& host) noexcept {
  int first_error = MPI_SUCCESS;
  while (!host.list.empty()) {
    const Attribute last = host.list.back();
    const int rc = run_delete(host, last);
    if (rc != MPI_SUCCESS && first_error == MPI_SUCCESS) {
      first_error = rc;
    }
    remove_attribute(host, last.keyval);
  }
  return first_error;
}

int set_comm_attr(Comm& comm, int keyval, void* value) noexcept {
  return set_attr(host_of(comm), keyval, value);
}

bool get_comm_attr(const Comm& comm, int keyval, void** value) noexcept {
  return get_attr(comm.attributes, keyval, value);
}

int delete_comm_attr(Comm& comm, int keyval) noexcept {
  return delete_attr(host_of(comm), keyval);
}

int copy_comm_attributes(Comm& oldcomm, Comm& newcomm) noexcept {
  return copy_attributes(host_of(oldcomm), host_of(newcomm));
}

int stage_comm_attributes(Comm& oldcomm,
                          std::vector<Attribute>& copies) noexcept {
  int rc = MPI_SUCCESS;
  try {
    rc = copy_all(host_of(oldcomm), copies);
  } catch (const std::bad_alloc&) {
    rc = MPI_ERR_NO_MEM;
  }
  if (rc != MPI_SUCCESS) {
    drop_staged_attributes(copies);
  }
  return rc;
}

void drop_staged_attributes(std::vector<Attribute>& copies) noexcept {
  for (const Attribute& attribute : copies) {
    table().release(attribute.keyval);
  }
  copies.clear();
}

int delete_comm_attributes(Comm& comm) noexcept {
  return delete_attributes(host_of(comm));
}

}  // namespace shmpi::mpi
