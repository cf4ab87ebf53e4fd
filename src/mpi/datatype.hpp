// SPDX-License-Identifier: MIT
// The object behind a derived MPI_Datatype handle: the datatype module's
// description plus what the MPI layer keeps about it (committed, name, the
// constructor's arguments for MPI_Type_get_contents). Reference counted: the
// user's handle holds one reference, every derived type built from it one,
// every nonblocking operation using it one (retain_type), and every handle
// MPI_Type_get_contents returned one.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "datatype/darray.hpp"
#include "datatype/type_map.hpp"
#include "mpi/attribute.hpp"
#include "mpi/handle_arena.hpp"

namespace shmpi::mpi {

struct Datatype {
  static constexpr std::uint32_t kMagic = 0x54797031;  // "Typ1"
  std::uint32_t magic = kMagic;
  std::atomic<std::int32_t> references{1};
  bool committed = false;
  datatype::DescPtr desc;
  std::string name;
  // MPI_Type_get_envelope / get_contents: the combiner and its arguments.
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> integers;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Count> large_counts;
  std::vector<MPI_Datatype> types;  // derived ones hold a reference
  // MPI_Type_set_attr, in set order (mpi/keyval.hpp). Not locked: as for
  // any one object, the program does not change them from two threads.
  std::vector<Attribute> attributes;

  MPI_Datatype handle() {
    return reinterpret_cast<MPI_Datatype>(this);  // NOLINT: handle is object
  }
};

HandleArena<Datatype>& datatypes();

// A type MPI_Type_create_f90_real, _complex or _integer returned: a derived
// object here, but predefined for the program (MPI 4.0 §19.1.9), which may
// not free it (mpi/type_f90_api.cpp).
inline bool is_f90(const Datatype& type) {
  return type.combiner == MPI_COMBINER_F90_REAL ||
         type.combiner == MPI_COMBINER_F90_COMPLEX ||
         type.combiner == MPI_COMBINER_F90_INTEGER;
}
// Drops the references the f90 types' cache holds, when the runtime
// ends: as other predefined objects, they live until then (a type built
// from one keeps its own reference), and a later start makes them anew.
void release_f90_types() noexcept;

// The derived datatype behind a handle, or nullptr (predefined, null or
// garbage handles).
inline Datatype* find_derived(MPI_Datatype handle) {
  return datatypes().find(handle);
}

// A datatype's description, predefined or derived (nullptr: invalid).
datatype::DescPtr describe(MPI_Datatype handle);

// A datatype argument of a constructor, query or attribute call: predefined
// or derived, not necessarily committed. Fills `desc` on success; raises
// MPI_ERR_TYPE on MPI_COMM_SELF otherwise.
int check_any_type(MPI_Datatype type, datatype::DescPtr* desc,
                   const char* function);

// The common head of every constructor: MPI is initialized, the old type
// is valid and newtype is not NULL.
int check_constructor(MPI_Datatype oldtype, MPI_Datatype* newtype,
                      datatype::DescPtr* old, const char* function);

// The array constructors' (subarray, darray) ndims and storage order.
int check_array_shape(int ndims, int order, const char* function);

// One dimension of MPI_Type_create_darray's arguments (validated) in the
// datatype module's terms.
datatype::DarrayDimension darray_dimension(std::int64_t gsize, int distrib,
                                           int darg, int psize);

// Makes the handle for a new derived type; records the constructor's
// arguments (MPI_Type_get_contents) and takes references on the derived
// types among `types`.
int make_handle(datatype::DescPtr desc, int combiner, std::vector<int> integers,
                std::vector<MPI_Aint> addresses,
                std::vector<MPI_Count> large_counts,
                std::vector<MPI_Datatype> types, MPI_Datatype* newtype,
                const char* function);

// MPI_Type_set_attr and friends: the attribute list of a valid datatype
// (a predefined one's is kept aside, for the life of the process).
std::vector<Attribute>& type_attributes(MPI_Datatype type);

void retain(Datatype* type) noexcept;
// Drops one reference; the last one frees the object and releases the
// datatypes it was built from.
void release(Datatype* type) noexcept;

}  // namespace shmpi::mpi
