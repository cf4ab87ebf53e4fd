// SPDX-License-Identifier: MIT
#include "mpi/datarep.hpp"

#include <deque>
#include <mutex>

#include "datatype/external32.hpp"

namespace shmpi::mpi {

namespace {

// Every representation with a Datarep, "external32" first. A deque: adding
// one leaves the others where they are, and a File points at its own.
struct Registry {
  std::mutex mutex;
  std::deque<Datarep> reps;
};

Registry& registry() {
  static auto* r = [] {
    auto* fresh = new Registry();  // used until exit
    Datarep external32;
    external32.kind = Datarep::Kind::kExternal32;
    external32.name = "external32";
    fresh->reps.push_back(std::move(external32));
    return fresh;
  }();
  return *r;
}

bool is_native_name(std::string_view name) {
  return name == "native" || name == "internal";
}

// The two fields of a value-index pair type (MPI 4.0 §6.9.4), or nulls.
std::pair<MPI_Datatype, MPI_Datatype> pair_fields_of(
    const datatype::BasicType& type) {
  const MPI_Datatype pair = handle_of(type);
  if (pair == MPI_FLOAT_INT) {
    return {MPI_FLOAT, MPI_INT};
  }
  if (pair == MPI_DOUBLE_INT) {
    return {MPI_DOUBLE, MPI_INT};
  }
  if (pair == MPI_LONG_INT) {
    return {MPI_LONG, MPI_INT};
  }
  if (pair == MPI_2INT) {
    return {MPI_INT, MPI_INT};
  }
  if (pair == MPI_SHORT_INT) {
    return {MPI_SHORT, MPI_INT};
  }
  if (pair == MPI_LONG_DOUBLE_INT) {
    return {MPI_LONG_DOUBLE, MPI_INT};
  }
  if (pair == MPI_2REAL) {
    return {MPI_REAL, MPI_REAL};
  }
  if (pair == MPI_2DOUBLE_PRECISION) {
    return {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION};
  }
  if (pair == MPI_2INTEGER) {
    return {MPI_INTEGER, MPI_INTEGER};
  }
  return {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
}

}  // namespace

bool find_datarep(std::string_view name, const Datarep** out) {
  if (is_native_name(name)) {
    *out = nullptr;
    return true;
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mutex);
  for (const Datarep& rep : r.reps) {
    if (rep.name == name) {
      *out = &rep;
      return true;
    }
  }
  return false;
}

bool register_datarep(Datarep rep) {
  if (is_native_name(rep.name)) {
    return false;
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mutex);
  for (const Datarep& known : r.reps) {
    if (known.name == rep.name) {
      return false;
    }
  }
  r.reps.push_back(std::move(rep));
  return true;
}

int FileExtents::of(const datatype::BasicType& type, std::int64_t* out) {
  if (rep_.kind == Datarep::Kind::kExternal32) {
    // Byte aligned: an element's extent is its size (MPI 4.0 §14.5.2).
    *out = static_cast<std::int64_t>(datatype::external32_size(type));
    return MPI_SUCCESS;
  }
  for (const auto& [id, extent] : known_) {
    if (id == type.id) {
      *out = extent;
      return MPI_SUCCESS;
    }
  }
  std::int64_t extent = 0;
  if (type.cls == datatype::TypeClass::kPair) {
    const auto [value, index] = pair_fields_of(type);
    std::int64_t value_extent = 0;
    std::int64_t index_extent = 0;
    if (int rc = ask(value, &value_extent); rc != MPI_SUCCESS) {
      return rc;
    }
    if (int rc = ask(index, &index_extent); rc != MPI_SUCCESS) {
      return rc;
    }
    extent = value_extent + index_extent;
  } else if (int rc = ask(handle_of(type), &extent); rc != MPI_SUCCESS) {
    return rc;
  }
  known_.emplace_back(type.id, extent);
  *out = extent;
  return MPI_SUCCESS;
}

int FileExtents::ask(MPI_Datatype type, std::int64_t* out) {
  MPI_Aint extent = -1;
  const int rc = rep_.file_extent(type, &extent, rep_.extra_state);
  const datatype::BasicType* basic =
      datatype::find_predefined(reinterpret_cast<std::uintptr_t>(type));
  const char* name = basic != nullptr ? basic->name : "?";
  if (rc != MPI_SUCCESS) {
    why_ = "the dtype_file_extent_fn of data representation \"" + rep_.name +
           "\" failed for " + name + " (error " + std::to_string(rc) + ")";
    return MPI_ERR_CONVERSION;
  }
  if (extent < 0) {
    why_ = "the dtype_file_extent_fn of data representation \"" + rep_.name +
           "\" gave " + name + " the negative extent " + std::to_string(extent);
    return MPI_ERR_CONVERSION;
  }
  *out = extent;
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
