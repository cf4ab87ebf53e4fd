// SPDX-License-Identifier: MIT
// Data representations of files (MPI 4.0 §14.5): how the data of a view is
// laid out in the file.
//
// "native" and "internal" store the bytes as memory holds them: shmpi runs
// on one machine, whose processes share one memory layout, so its own
// representation ("internal", which MPI leaves to the implementation) is
// the native one. Neither has a Datarep: a file in them has none
// (File::representation is nullptr) and takes the unconverted path.
// "external32" (§14.5.2: big-endian, IEEE, fixed sizes, byte aligned) and
// the representations MPI_Register_datarep adds (§14.5.3) have one, and
// their data is converted between the packed native form and the file's
// (mpi/file_convert.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datatype/predefined.hpp"

namespace shmpi::mpi {

// A non-native data representation. Immutable once registered, and never
// freed (MPI has no call that removes one), so a File may point at it.
struct Datarep {
  enum class Kind : std::uint8_t { kExternal32, kUser };
  Kind kind = Kind::kUser;
  std::string name;
  // kUser: the functions as registered. A conversion that is null was
  // MPI_CONVERSION_FN_NULL: that direction moves native bytes. `large`:
  // registered with MPI_Register_datarep_c, whose functions take an
  // MPI_Count count (read_fn_c, write_fn_c) instead of an int (read_fn,
  // write_fn).
  bool large = false;
  MPI_Datarep_conversion_function* read_fn = nullptr;
  MPI_Datarep_conversion_function* write_fn = nullptr;
  MPI_Datarep_conversion_function_c* read_fn_c = nullptr;
  MPI_Datarep_conversion_function_c* write_fn_c = nullptr;
  MPI_Datarep_extent_function* file_extent = nullptr;
  void* extra_state = nullptr;

  // Whether reads (write false: writes) call a conversion function; when
  // not, the file holds the native bytes.
  bool converts(bool writing) const {
    if (kind == Kind::kExternal32) {
      return true;
    }
    return writing ? (write_fn_c != nullptr || write_fn != nullptr)
                   : (read_fn_c != nullptr || read_fn != nullptr);
  }
};

// Finds the representation called `name`: true with *out nullptr for
// "native" and "internal", true with the Datarep for the others, false when
// no representation has that name. Thread-safe.
[[nodiscard]] bool find_datarep(std::string_view name, const Datarep** out);

// Adds a user representation (MPI_Register_datarep): false when the name is
// taken already, by a predefined representation or a registered one.
// Thread-safe.
[[nodiscard]] bool register_datarep(Datarep rep);

// The file extents of predefined types in one representation: the bytes an
// element takes in the file, byte aligned (MPI 4.0 §14.5.2 and §14.5.3).
// A user representation's dtype_file_extent_fn is asked once per type and
// object, and only when needed: MPI calls it only with predefined types the
// program uses. A value-index pair (MPI_DOUBLE_INT, ...) is the struct of
// its two fields (MPI 4.0 §6.9.4): its file extent is theirs added up. One
// object per call; not shared between threads.
class FileExtents {
 public:
  explicit FileExtents(const Datarep& rep) : rep_(rep) {}

  // MPI_SUCCESS with the extent, or MPI_ERR_CONVERSION when
  // dtype_file_extent_fn failed or gave a negative extent (why() says
  // which).
  int of(const datatype::BasicType& type, std::int64_t* out);
  const std::string& why() const { return why_; }
  const Datarep& rep() const { return rep_; }

 private:
  int ask(MPI_Datatype type, std::int64_t* out);

  const Datarep& rep_;
  std::vector<std::pair<std::uint16_t, std::int64_t>> known_;  // by type id
  std::string why_;
};

// The handle of a predefined type.
inline MPI_Datatype handle_of(const datatype::BasicType& type) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): predefined handles are ids
  return reinterpret_cast<MPI_Datatype>(static_cast<std::uintptr_t>(type.id));
}

}  // namespace shmpi::mpi
