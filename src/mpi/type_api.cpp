// SPDX-License-Identifier: MIT
// Datatype entry points (MPI 4.0 chapter 5): the derived-datatype
// constructors, commit/free/dup, sizes and extents, names, envelope and
// contents, pack/unpack, and the status queries that depend on a datatype
// (MPI_Get_count, MPI_Get_elements, MPI_Status_set_elements). The type
// arithmetic lives in datatype/type_map; this file checks arguments, keeps
// the handles and records the constructor arguments.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/keyval.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace shmpi::mpi {

HandleArena<Datatype>& datatypes() {
  static auto* arena = new HandleArena<Datatype>(1u << 20);  // never freed
  return *arena;
}

datatype::DescPtr describe(MPI_Datatype handle) {
  if (const datatype::BasicType* basic = find_type(handle)) {
    return datatype::basic_desc(*basic);
  }
  if (const Datatype* derived = find_derived(handle)) {
    return derived->desc;
  }
  return nullptr;
}

void retain(Datatype* type) noexcept {
  // Relaxed: taking a reference needs no ordering; whoever takes it already
  // holds one (the handle it was found through), so the count cannot reach
  // zero concurrently.
  type->references.fetch_add(1, std::memory_order_relaxed);
}

void release(Datatype* type) noexcept {
  // acq_rel: the thread that drops the last reference must see every other
  // holder's use of the object before it destroys it.
  if (type->references.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    return;
  }
  const std::vector<MPI_Datatype> children = std::move(type->types);
  datatypes().destroy(type);
  for (MPI_Datatype child : children) {
    if (Datatype* derived = find_derived(child)) {
      release(derived);
    }
  }
}

int check_any_type(MPI_Datatype type, datatype::DescPtr* desc,
                   const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  *desc = describe(type);
  if (*desc == nullptr) {
    if (type == MPI_DATATYPE_NULL) {
      return fail(nullptr, MPI_ERR_TYPE, function,
                  "datatype is MPI_DATATYPE_NULL");
    }
    return fail(nullptr, MPI_ERR_TYPE, function, "invalid datatype handle %p",
                static_cast<void*>(type));
  }
  return MPI_SUCCESS;
}

int make_handle(datatype::DescPtr desc, int combiner, std::vector<int> integers,
                std::vector<MPI_Aint> addresses,
                std::vector<MPI_Count> large_counts,
                std::vector<MPI_Datatype> types, MPI_Datatype* newtype,
                const char* function) {
  Datatype* type = datatypes().create();
  if (type == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, function, "out of datatype handles");
  }
  type->desc = std::move(desc);
  type->combiner = combiner;
  type->integers = std::move(integers);
  type->addresses = std::move(addresses);
  type->large_counts = std::move(large_counts);
  type->types = std::move(types);
  for (MPI_Datatype child : type->types) {
    if (Datatype* derived = find_derived(child)) {
      retain(derived);
    }
  }
  *newtype = type->handle();
  return MPI_SUCCESS;
}

int check_array_shape(int ndims, int order, const char* function) {
  if (ndims <= 0) {
    return fail(nullptr, MPI_ERR_ARG, function, "ndims %d is not positive",
                ndims);
  }
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
  }
  return MPI_SUCCESS;
}

int check_constructor(MPI_Datatype oldtype, MPI_Datatype* newtype,
                      datatype::DescPtr* old, const char* function) {
  if (int rc = check_any_type(oldtype, old, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newtype == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "newtype is NULL");
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi

namespace {

// MPI_Type_set_name on predefined types (MPI allows it): the new names.
struct PredefinedNames {
  std::mutex mutex;
  std::array<std::string, kPredefinedLimit> names;
};
PredefinedNames& predefined_names() {
  static auto* names = new PredefinedNames();  // never freed
  return *names;
}

template <typename T>
int check_nonnegative(T value, int error_class, const char* what,
                      const char* function) {
  if (value < 0) {
    return fail(nullptr, error_class, function, "negative %s %lld", what,
                static_cast<long long>(value));
  }
  return MPI_SUCCESS;
}

int check_array(const void* array, MPI_Count count, const char* what,
                const char* function) {
  if (array == nullptr && count > 0) {
    return fail(nullptr, MPI_ERR_ARG, function, "%s is NULL", what);
  }
  return MPI_SUCCESS;
}

// Constructor arguments are recorded as ints for the int-count functions
// and as large counts for the _c ones (MPI 4.0 §5.1.13). Only count types
// (int or MPI_Count) are tested this way: MPI_Aint may be MPI_Count's type.
template <typename C>
constexpr bool kLarge = std::is_same_v<C, MPI_Count>;

template <typename C>
void record(std::vector<int>& integers, std::vector<MPI_Count>& large,
            C value) {
  if constexpr (kLarge<C>) {
    large.push_back(value);
  } else {
    integers.push_back(value);
  }
}

template <typename C>
int contiguous_impl(C count, MPI_Datatype oldtype, MPI_Datatype* newtype,
                    const char* function) {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_nonnegative(count, MPI_ERR_COUNT, "count", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::vector<int> ints;
  std::vector<MPI_Count> large;
  record(ints, large, count);
  return make_handle(
      datatype::make_contiguous(static_cast<std::uint64_t>(count), old),
      MPI_COMBINER_CONTIGUOUS, std::move(ints), {}, std::move(large), {oldtype},
      newtype, function);
}

// vector (stride in elements) and hvector (stride in bytes).
template <typename C, typename S>
int vector_impl(C count, C blocklength, S stride, bool bytes,
                MPI_Datatype oldtype, MPI_Datatype* newtype,
                const char* function) {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_nonnegative(count, MPI_ERR_COUNT, "count", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc =
          check_nonnegative(blocklength, MPI_ERR_ARG, "blocklength", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::vector<int> ints;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Count> large;
  record(ints, large, count);
  record(ints, large, blocklength);
  if constexpr (kLarge<C>) {
    large.push_back(static_cast<MPI_Count>(stride));
  } else if (bytes) {
    addresses.push_back(static_cast<MPI_Aint>(stride));
  } else {
    ints.push_back(static_cast<int>(stride));
  }
  const std::int64_t byte_stride =
      bytes ? static_cast<std::int64_t>(stride)
            : static_cast<std::int64_t>(stride) * old->extent();
  return make_handle(
      datatype::make_hvector(static_cast<std::uint64_t>(count),
                             static_cast<std::uint64_t>(blocklength),
                             byte_stride, old),
      bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, std::move(ints),
      std::move(addresses), std::move(large), {oldtype}, newtype, function);
}

// indexed / hindexed / indexed_block / hindexed_block. `lengths` is null
// for the block forms (every block has `blocklength` elements).
template <typename C, typename L, typename D>
int indexed_impl(C count, const L* lengths, C blocklength, const D* disps,
                 bool bytes, MPI_Datatype oldtype, MPI_Datatype* newtype,
                 int combiner, const char* function) {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_nonnegative(count, MPI_ERR_COUNT, "count", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const bool block = combiner == MPI_COMBINER_INDEXED_BLOCK ||
                     combiner == MPI_COMBINER_HINDEXED_BLOCK;
  if (!block) {
    if (int rc = check_array(lengths, count, "array_of_blocklengths", function);
        rc != MPI_SUCCESS) {
      return rc;
    }
  } else if (int rc = check_nonnegative(blocklength, MPI_ERR_ARG, "blocklength",
                                        function);
             rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array(disps, count, "array_of_displacements", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::uint64_t> block_lengths(n);
  std::vector<std::int64_t> byte_disps(n);
  std::vector<int> ints;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Count> large;
  record(ints, large, count);
  if (block) {
    record(ints, large, blocklength);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto length = block ? static_cast<MPI_Count>(blocklength)
                              : static_cast<MPI_Count>(lengths[i]);
    if (length < 0) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "negative blocklength %lld at index %zu",
                  static_cast<long long>(length), i);
    }
    block_lengths[i] = static_cast<std::uint64_t>(length);
    if (!block) {
      record(ints, large, static_cast<L>(lengths[i]));
    }
    byte_disps[i] = bytes ? static_cast<std::int64_t>(disps[i])
                          : static_cast<std::int64_t>(disps[i]) * old->extent();
  }
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (kLarge<C>) {
      large.push_back(static_cast<MPI_Count>(disps[i]));
    } else if (bytes) {
      addresses.push_back(static_cast<MPI_Aint>(disps[i]));
    } else {
      ints.push_back(static_cast<int>(disps[i]));
    }
  }
  return make_handle(datatype::make_hindexed(block_lengths, byte_disps, old),
                     combiner, std::move(ints), std::move(addresses),
                     std::move(large), {oldtype}, newtype, function);
}

template <typename C, typename D>
int struct_impl(C count, const C* lengths, const D* disps,
                const MPI_Datatype* types, MPI_Datatype* newtype,
                const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_nonnegative(count, MPI_ERR_COUNT, "count", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array(lengths, count, "array_of_blocklengths", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array(disps, count, "array_of_displacements", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array(types, count, "array_of_types", function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (newtype == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "newtype is NULL");
  }
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::uint64_t> block_lengths(n);
  std::vector<std::int64_t> byte_disps(n);
  std::vector<datatype::DescPtr> descs(n);
  std::vector<int> ints;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Count> large;
  record(ints, large, count);
  for (std::size_t i = 0; i < n; ++i) {
    if (lengths[i] < 0) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "negative blocklength %lld at index %zu",
                  static_cast<long long>(lengths[i]), i);
    }
    if (int rc = check_any_type(types[i], &descs[i], function);
        rc != MPI_SUCCESS) {
      return rc;
    }
    block_lengths[i] = static_cast<std::uint64_t>(lengths[i]);
    byte_disps[i] = static_cast<std::int64_t>(disps[i]);
    record(ints, large, lengths[i]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (kLarge<C>) {
      large.push_back(static_cast<MPI_Count>(disps[i]));
    } else {
      addresses.push_back(static_cast<MPI_Aint>(disps[i]));
    }
  }
  return make_handle(datatype::make_struct(block_lengths, byte_disps, descs),
                     MPI_COMBINER_STRUCT, std::move(ints), std::move(addresses),
                     std::move(large),
                     std::vector<MPI_Datatype>(types, types + n), newtype,
                     function);
}

template <typename C>
int subarray_impl(int ndims, const C* sizes, const C* subsizes, const C* starts,
                  int order, MPI_Datatype oldtype, MPI_Datatype* newtype,
                  const char* function) {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array_shape(ndims, order, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (sizes == nullptr || subsizes == nullptr || starts == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "NULL array argument");
  }
  const auto n = static_cast<std::size_t>(ndims);
  std::vector<std::uint64_t> s(n), sub(n), at(n);
  std::vector<int> ints{ndims};
  std::vector<MPI_Count> large;
  for (std::size_t i = 0; i < n; ++i) {
    if (sizes[i] <= 0 || subsizes[i] < 0 || starts[i] < 0 ||
        starts[i] + subsizes[i] > sizes[i]) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: size %lld, subsize %lld, start %lld do not "
                  "describe a subarray",
                  i, static_cast<long long>(sizes[i]),
                  static_cast<long long>(subsizes[i]),
                  static_cast<long long>(starts[i]));
    }
    s[i] = static_cast<std::uint64_t>(sizes[i]);
    sub[i] = static_cast<std::uint64_t>(subsizes[i]);
    at[i] = static_cast<std::uint64_t>(starts[i]);
  }
  for (const C* array : {sizes, subsizes, starts}) {
    for (std::size_t i = 0; i < n; ++i) {
      record(ints, large, array[i]);
    }
  }
  ints.push_back(order);
  return make_handle(
      datatype::make_subarray(s, sub, at, order == MPI_ORDER_C, old),
      MPI_COMBINER_SUBARRAY, std::move(ints), {}, std::move(large), {oldtype},
      newtype, function);
}

// `large`: the _c form (MPI_Aint and MPI_Count may be the same C type, so
// the type cannot tell).
int resized_impl(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                 bool large_form, MPI_Datatype* newtype, const char* function) {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Count> large;
  if (large_form) {
    large = {lb, extent};
  } else {
    addresses = {static_cast<MPI_Aint>(lb), static_cast<MPI_Aint>(extent)};
  }
  return make_handle(datatype::make_resized(old, static_cast<std::int64_t>(lb),
                                            static_cast<std::int64_t>(extent)),
                     MPI_COMBINER_RESIZED, {}, std::move(addresses),
                     std::move(large), {oldtype}, newtype, function);
}

}  // namespace

// ------------------------------------------------------------ constructors

extern "C" int PMPI_Type_contiguous(int count, MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) noexcept {
  return contiguous_impl(count, oldtype, newtype, "MPI_Type_contiguous");
}
SHMPI_PMPI_ALIAS(MPI_Type_contiguous);

extern "C" int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                                      MPI_Datatype* newtype) noexcept {
  return contiguous_impl(count, oldtype, newtype, "MPI_Type_contiguous_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_contiguous_c);

extern "C" int PMPI_Type_vector(int count, int blocklength, int stride,
                                MPI_Datatype oldtype,
                                MPI_Datatype* newtype) noexcept {
  return vector_impl(count, blocklength, stride, false, oldtype, newtype,
                     "MPI_Type_vector");
}
SHMPI_PMPI_ALIAS(MPI_Type_vector);

extern "C" int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
                                  MPI_Count stride, MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) noexcept {
  return vector_impl(count, blocklength, stride, false, oldtype, newtype,
                     "MPI_Type_vector_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_vector_c);

extern "C" int PMPI_Type_create_hvector(int count, int blocklength,
                                        MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) noexcept {
  return vector_impl(count, blocklength, stride, true, oldtype, newtype,
                     "MPI_Type_create_hvector");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_hvector);

extern "C" int PMPI_Type_create_hvector_c(MPI_Count count,
                                          MPI_Count blocklength,
                                          MPI_Count stride,
                                          MPI_Datatype oldtype,
                                          MPI_Datatype* newtype) noexcept {
  return vector_impl(count, blocklength, stride, true, oldtype, newtype,
                     "MPI_Type_create_hvector_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_hvector_c);

extern "C" int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                                 const int array_of_displacements[],
                                 MPI_Datatype oldtype,
                                 MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, array_of_blocklengths, 0, array_of_displacements,
                      false, oldtype, newtype, MPI_COMBINER_INDEXED,
                      "MPI_Type_indexed");
}
SHMPI_PMPI_ALIAS(MPI_Type_indexed);

extern "C" int PMPI_Type_indexed_c(MPI_Count count,
                                   const MPI_Count array_of_blocklengths[],
                                   const MPI_Count array_of_displacements[],
                                   MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, array_of_blocklengths, MPI_Count{0},
                      array_of_displacements, false, oldtype, newtype,
                      MPI_COMBINER_INDEXED, "MPI_Type_indexed_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_indexed_c);

extern "C" int PMPI_Type_create_hindexed(
    int count, const int array_of_blocklengths[],
    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, array_of_blocklengths, 0, array_of_displacements,
                      true, oldtype, newtype, MPI_COMBINER_HINDEXED,
                      "MPI_Type_create_hindexed");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_hindexed);

extern "C" int PMPI_Type_create_hindexed_c(
    MPI_Count count, const MPI_Count array_of_blocklengths[],
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, array_of_blocklengths, MPI_Count{0},
                      array_of_displacements, true, oldtype, newtype,
                      MPI_COMBINER_HINDEXED, "MPI_Type_create_hindexed_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_hindexed_c);

extern "C" int PMPI_Type_create_indexed_block(
    int count, int blocklength, const int array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, static_cast<const int*>(nullptr), blocklength,
                      array_of_displacements, false, oldtype, newtype,
                      MPI_COMBINER_INDEXED_BLOCK,
                      "MPI_Type_create_indexed_block");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_indexed_block);

extern "C" int PMPI_Type_create_indexed_block_c(
    MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, static_cast<const MPI_Count*>(nullptr),
                      blocklength, array_of_displacements, false, oldtype,
                      newtype, MPI_COMBINER_INDEXED_BLOCK,
                      "MPI_Type_create_indexed_block_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_indexed_block_c);

extern "C" int PMPI_Type_create_hindexed_block(
    int count, int blocklength, const MPI_Aint array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, static_cast<const int*>(nullptr), blocklength,
                      array_of_displacements, true, oldtype, newtype,
                      MPI_COMBINER_HINDEXED_BLOCK,
                      "MPI_Type_create_hindexed_block");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_hindexed_block);

extern "C" int PMPI_Type_create_hindexed_block_c(
    MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) noexcept {
  return indexed_impl(count, static_cast<const MPI_Count*>(nullptr),
                      blocklength, array_of_displacements, true, oldtype,
                      newtype, MPI_COMBINER_HINDEXED_BLOCK,
                      "MPI_Type_create_hindexed_block_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_hindexed_block_c);

extern "C" int PMPI_Type_create_struct(int count,
                                       const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[],
                                       const MPI_Datatype array_of_types[],
                                       MPI_Datatype* newtype) noexcept {
  return struct_impl(count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype, "MPI_Type_create_struct");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_struct);

extern "C" int PMPI_Type_create_struct_c(
    MPI_Count count, const MPI_Count array_of_blocklengths[],
    const MPI_Count array_of_displacements[],
    const MPI_Datatype array_of_types[], MPI_Datatype* newtype) noexcept {
  return struct_impl(count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype, "MPI_Type_create_struct_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_struct_c);

extern "C" int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                                         const int array_of_subsizes[],
                                         const int array_of_starts[], int order,
                                         MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) noexcept {
  return subarray_impl(ndims, array_of_sizes, array_of_subsizes,
                       array_of_starts, order, oldtype, newtype,
                       "MPI_Type_create_subarray");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_subarray);

extern "C" int PMPI_Type_create_subarray_c(int ndims,
                                           const MPI_Count array_of_sizes[],
                                           const MPI_Count array_of_subsizes[],
                                           const MPI_Count array_of_starts[],
                                           int order, MPI_Datatype oldtype,
                                           MPI_Datatype* newtype) noexcept {
  return subarray_impl(ndims, array_of_sizes, array_of_subsizes,
                       array_of_starts, order, oldtype, newtype,
                       "MPI_Type_create_subarray_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_subarray_c);

extern "C" int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                                        MPI_Aint extent,
                                        MPI_Datatype* newtype) noexcept {
  return resized_impl(oldtype, lb, extent, false, newtype,
                      "MPI_Type_create_resized");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_resized);

extern "C" int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb,
                                          MPI_Count extent,
                                          MPI_Datatype* newtype) noexcept {
  return resized_impl(oldtype, lb, extent, true, newtype,
                      "MPI_Type_create_resized_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_resized_c);

extern "C" int PMPI_Type_dup(MPI_Datatype oldtype,
                             MPI_Datatype* newtype) noexcept {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, "MPI_Type_dup");
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Datatype* derived = find_derived(oldtype);
  if (int rc = make_handle(old, MPI_COMBINER_DUP, {}, {}, {}, {oldtype},
                           newtype, "MPI_Type_dup");
      rc != MPI_SUCCESS) {
    return rc;
  }
  // The duplicate is committed when the original is (predefined types are).
  Datatype* fresh = find_derived(*newtype);
  fresh->committed = derived == nullptr || derived->committed;
  // Attributes follow their copy callbacks (MPI 4.0 section 7.7.4); when
  // one fails, the copies made are deleted and there is no duplicate.
  if (int rc = copy_attributes(AttrHost{oldtype, type_attributes(oldtype)},
                               AttrHost{*newtype, fresh->attributes});
      rc != MPI_SUCCESS) {
    *newtype = MPI_DATATYPE_NULL;
    release(fresh);
    return raise_code(nullptr, rc, "MPI_Type_dup");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_dup);

// ------------------------------------------------------------ commit, free

extern "C" int PMPI_Type_commit(MPI_Datatype* datatype) noexcept {
  if (int rc = check_initialized("MPI_Type_commit"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (datatype == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Type_commit", "datatype is NULL");
  }
  datatype::DescPtr desc;
  if (int rc = check_any_type(*datatype, &desc, "MPI_Type_commit");
      rc != MPI_SUCCESS) {
    return rc;
  }
  // The type map is flattened at construction; commit only allows use in
  // communication. Committing a predefined type is allowed and does nothing.
  if (Datatype* derived = find_derived(*datatype)) {
    derived->committed = true;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_commit);

extern "C" int PMPI_Type_free(MPI_Datatype* datatype) noexcept {
  if (int rc = check_initialized("MPI_Type_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (datatype == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Type_free", "datatype is NULL");
  }
  Datatype* derived = find_derived(*datatype);
  if (derived == nullptr) {
    if (find_type(*datatype) != nullptr) {
      return fail(nullptr, MPI_ERR_TYPE, "MPI_Type_free",
                  "cannot free the predefined datatype %s",
                  find_type(*datatype)->name);
    }
    datatype::DescPtr ignored;
    return check_any_type(*datatype, &ignored, "MPI_Type_free");
  }
  if (is_f90(*derived)) {
    return fail(nullptr, MPI_ERR_TYPE, "MPI_Type_free",
                "cannot free a predefined datatype of MPI_Type_create_f90_*");
  }
  // The attributes go with the program's handle, whatever internal
  // references remain; as for MPI_Comm_free, a failing delete callback
  // does not keep the type (MPI calls the free erroneous).
  const int deleted =
      delete_attributes(AttrHost{*datatype, derived->attributes});
  *datatype = MPI_DATATYPE_NULL;
  release(derived);
  if (deleted != MPI_SUCCESS) {
    return raise_code(nullptr, deleted, "MPI_Type_free");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_free);

// ------------------------------------------------------------ queries

namespace {

template <typename T>
int size_impl(MPI_Datatype type, T* size, const char* function) {
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "size is NULL");
  }
  if constexpr (std::is_same_v<T, int>) {
    *size = desc->size > static_cast<std::uint64_t>(INT32_MAX)
                ? MPI_UNDEFINED
                : static_cast<int>(desc->size);
  } else {
    *size = static_cast<T>(desc->size);
  }
  return MPI_SUCCESS;
}

template <typename T>
int extent_impl(MPI_Datatype type, T* lb, T* extent, bool true_extent,
                const char* function) {
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (lb == nullptr || extent == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "NULL argument");
  }
  if (true_extent) {
    *lb = static_cast<T>(desc->true_lb);
    *extent = static_cast<T>(desc->true_ub - desc->true_lb);
  } else {
    *lb = static_cast<T>(desc->lb);
    *extent = static_cast<T>(desc->extent());
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) noexcept {
  return size_impl(datatype, size, "MPI_Type_size");
}
SHMPI_PMPI_ALIAS(MPI_Type_size);

extern "C" int PMPI_Type_size_c(MPI_Datatype datatype,
                                MPI_Count* size) noexcept {
  return size_impl(datatype, size, "MPI_Type_size_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_size_c);

extern "C" int PMPI_Type_size_x(MPI_Datatype datatype,
                                MPI_Count* size) noexcept {
  return size_impl(datatype, size, "MPI_Type_size_x");
}
SHMPI_PMPI_ALIAS(MPI_Type_size_x);

extern "C" int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb,
                                    MPI_Aint* extent) noexcept {
  return extent_impl(datatype, lb, extent, false, "MPI_Type_get_extent");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_extent);

extern "C" int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb,
                                      MPI_Count* extent) noexcept {
  return extent_impl(datatype, lb, extent, false, "MPI_Type_get_extent_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_extent_c);

extern "C" int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb,
                                      MPI_Count* extent) noexcept {
  return extent_impl(datatype, lb, extent, false, "MPI_Type_get_extent_x");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_extent_x);

extern "C" int PMPI_Type_get_true_extent(MPI_Datatype datatype,
                                         MPI_Aint* true_lb,
                                         MPI_Aint* true_extent) noexcept {
  return extent_impl(datatype, true_lb, true_extent, true,
                     "MPI_Type_get_true_extent");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_true_extent);

extern "C" int PMPI_Type_get_true_extent_c(MPI_Datatype datatype,
                                           MPI_Count* true_lb,
                                           MPI_Count* true_extent) noexcept {
  return extent_impl(datatype, true_lb, true_extent, true,
                     "MPI_Type_get_true_extent_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_true_extent_c);

extern "C" int PMPI_Type_get_true_extent_x(MPI_Datatype datatype,
                                           MPI_Count* true_lb,
                                           MPI_Count* true_extent) noexcept {
  return extent_impl(datatype, true_lb, true_extent, true,
                     "MPI_Type_get_true_extent_x");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_true_extent_x);

// ------------------------------------------------------------ names

extern "C" int PMPI_Type_set_name(MPI_Datatype datatype,
                                  const char* type_name) noexcept {
  datatype::DescPtr desc;
  if (int rc = check_any_type(datatype, &desc, "MPI_Type_set_name");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (type_name == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Type_set_name", "name is NULL");
  }
  std::string name(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  if (Datatype* derived = find_derived(datatype)) {
    derived->name = std::move(name);
  } else {
    PredefinedNames& names = predefined_names();
    std::lock_guard<std::mutex> lock(names.mutex);
    names.names.at(desc->basic->id) = std::move(name);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_set_name);

extern "C" int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name,
                                  int* resultlen) noexcept {
  datatype::DescPtr desc;
  if (int rc = check_any_type(datatype, &desc, "MPI_Type_get_name");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (type_name == nullptr || resultlen == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Type_get_name", "NULL argument");
  }
  std::string name;
  if (const Datatype* derived = find_derived(datatype)) {
    name = derived->name;
  } else {
    PredefinedNames& names = predefined_names();
    std::lock_guard<std::mutex> lock(names.mutex);
    const std::string& set = names.names.at(desc->basic->id);
    name = set.empty() ? desc->basic->name : set;
  }
  std::memcpy(type_name, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_get_name);

// ------------------------------------------------------------ envelope

namespace {

template <typename C>
int envelope_impl(MPI_Datatype type, C* num_integers, C* num_addresses,
                  C* num_large_counts, C* num_datatypes, int* combiner,
                  const char* function) {
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (num_integers == nullptr || num_addresses == nullptr ||
      num_datatypes == nullptr || combiner == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "NULL argument");
  }
  const Datatype* derived = find_derived(type);
  if (derived == nullptr) {
    *num_integers = *num_addresses = *num_datatypes = 0;
    if (num_large_counts != nullptr) {
      *num_large_counts = 0;
    }
    *combiner = MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
  }
  if (num_large_counts == nullptr && !derived->large_counts.empty()) {
    return fail(nullptr, MPI_ERR_TYPE, function,
                "the datatype was made with large counts: use "
                "MPI_Type_get_envelope_c");
  }
  *num_integers = static_cast<C>(derived->integers.size());
  *num_addresses = static_cast<C>(derived->addresses.size());
  *num_datatypes = static_cast<C>(derived->types.size());
  if (num_large_counts != nullptr) {
    *num_large_counts = static_cast<C>(derived->large_counts.size());
  }
  *combiner = derived->combiner;
  return MPI_SUCCESS;
}

template <typename C>
int contents_impl(MPI_Datatype type, C max_integers, C max_addresses,
                  C max_large_counts, C max_datatypes, int integers[],
                  MPI_Aint addresses[], MPI_Count large_counts[],
                  MPI_Datatype types[], const char* function) {
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  const Datatype* derived = find_derived(type);
  if (derived == nullptr) {
    return fail(nullptr, MPI_ERR_TYPE, function,
                "%s is predefined: it has no contents", desc->basic->name);
  }
  const auto fits = [](std::size_t n, C max, const void* array) {
    return n <= static_cast<std::size_t>(std::max<C>(max, 0)) &&
           (n == 0 || array != nullptr);
  };
  if (!fits(derived->integers.size(), max_integers, integers) ||
      !fits(derived->addresses.size(), max_addresses, addresses) ||
      !fits(derived->large_counts.size(), max_large_counts, large_counts) ||
      !fits(derived->types.size(), max_datatypes, types)) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "the arrays are smaller than MPI_Type_get_envelope says");
  }
  auto copy_out = [](const auto& from, auto* to) {
    // A loop, not std::copy: `to` may be NULL when `from` is empty.
    for (std::size_t i = 0; i < from.size(); ++i) {
      to[i] = from[i];
    }
  };
  copy_out(derived->integers, integers);
  copy_out(derived->addresses, addresses);
  copy_out(derived->large_counts, large_counts);
  for (std::size_t i = 0; i < derived->types.size(); ++i) {
    types[i] = derived->types[i];
    // A returned derived handle is the caller's to free (MPI 4.0 §5.1.13).
    if (Datatype* child = find_derived(types[i])) {
      retain(child);
    }
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers,
                                      int* num_addresses, int* num_datatypes,
                                      int* combiner) noexcept {
  return envelope_impl<int>(datatype, num_integers, num_addresses, nullptr,
                            num_datatypes, combiner, "MPI_Type_get_envelope");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_envelope);

extern "C" int PMPI_Type_get_envelope_c(MPI_Datatype datatype,
                                        MPI_Count* num_integers,
                                        MPI_Count* num_addresses,
                                        MPI_Count* num_large_counts,
                                        MPI_Count* num_datatypes,
                                        int* combiner) noexcept {
  if (num_large_counts == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Type_get_envelope_c",
                "num_large_counts is NULL");
  }
  return envelope_impl<MPI_Count>(datatype, num_integers, num_addresses,
                                  num_large_counts, num_datatypes, combiner,
                                  "MPI_Type_get_envelope_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_envelope_c);

extern "C" int PMPI_Type_get_contents(
    MPI_Datatype datatype, int max_integers, int max_addresses,
    int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
    MPI_Datatype array_of_datatypes[]) noexcept {
  return contents_impl<int>(datatype, max_integers, max_addresses, 0,
                            max_datatypes, array_of_integers,
                            array_of_addresses, nullptr, array_of_datatypes,
                            "MPI_Type_get_contents");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_contents);

extern "C" int PMPI_Type_get_contents_c(
    MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
    MPI_Count max_large_counts, MPI_Count max_datatypes,
    int array_of_integers[], MPI_Aint array_of_addresses[],
    MPI_Count array_of_large_counts[],
    MPI_Datatype array_of_datatypes[]) noexcept {
  return contents_impl<MPI_Count>(
      datatype, max_integers, max_addresses, max_large_counts, max_datatypes,
      array_of_integers, array_of_addresses, array_of_large_counts,
      array_of_datatypes, "MPI_Type_get_contents_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_get_contents_c);

// ------------------------------------------------------------ pack, unpack

namespace {

// Pack and unpack go through the same walker as point-to-point; the packed
// form is the one messages carry, so MPI_PACKED data and typed data mix.
template <typename C>
int pack_impl(const void* inbuf, C incount, MPI_Datatype type, void* outbuf,
              C outsize, C* position, MPI_Comm comm, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(c, incount, function); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg arg;
  if (int rc = check_datatype(c, type, &arg, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (position == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "position is NULL");
  }
  const std::size_t bytes = arg.bytes(static_cast<std::size_t>(incount));
  if (*position < 0 || outsize < 0 ||
      static_cast<std::uint64_t>(*position) + bytes >
          static_cast<std::uint64_t>(outsize)) {
    return fail(c, MPI_ERR_TRUNCATE, function,
                "%zu bytes at position %lld do not fit in %lld bytes", bytes,
                static_cast<long long>(*position),
                static_cast<long long>(outsize));
  }
  if (bytes != 0 && outbuf == nullptr) {
    return fail(c, MPI_ERR_BUFFER, function, "NULL buffer");
  }
  if (int rc = check_buffer(c, inbuf, incount, arg, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  datatype::pack(arg.layout(inbuf, static_cast<std::size_t>(incount)), 0,
                 static_cast<std::byte*>(outbuf) + *position, bytes);
  *position += static_cast<C>(bytes);
  return MPI_SUCCESS;
}

template <typename C>
int unpack_impl(const void* inbuf, C insize, C* position, void* outbuf,
                C outcount, MPI_Datatype type, MPI_Comm comm,
                const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(c, outcount, function); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg arg;
  if (int rc = check_datatype(c, type, &arg, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (position == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "position is NULL");
  }
  const std::size_t bytes = arg.bytes(static_cast<std::size_t>(outcount));
  if (*position < 0 || insize < 0 ||
      static_cast<std::uint64_t>(*position) + bytes >
          static_cast<std::uint64_t>(insize)) {
    return fail(c, MPI_ERR_TRUNCATE, function,
                "%zu bytes at position %lld are more than the %lld of the "
                "input",
                bytes, static_cast<long long>(*position),
                static_cast<long long>(insize));
  }
  if (bytes != 0 && inbuf == nullptr) {
    return fail(c, MPI_ERR_BUFFER, function, "NULL buffer");
  }
  if (int rc = check_buffer(c, outbuf, outcount, arg, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  datatype::unpack(arg.layout(outbuf, static_cast<std::size_t>(outcount)), 0,
                   static_cast<const std::byte*>(inbuf) + *position, bytes);
  *position += static_cast<C>(bytes);
  return MPI_SUCCESS;
}

template <typename C>
int pack_size_impl(C incount, MPI_Datatype type, MPI_Comm comm, C* size,
                   const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(c, incount, function); rc != MPI_SUCCESS) {
    return rc;
  }
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "size is NULL");
  }
  const std::uint64_t bytes =
      static_cast<std::uint64_t>(incount) * desc->packed;
  if constexpr (std::is_same_v<C, int>) {
    // Not an error: MPI 4.0 §5.2 sets size to MPI_UNDEFINED when the packed
    // size cannot be expressed in it (as MPI_Type_size and MPI_Get_count
    // do), and the caller can ask MPI_Pack_size_c.
    if (bytes > static_cast<std::uint64_t>(INT32_MAX)) {
      *size = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
  }
  *size = static_cast<C>(bytes);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype,
                         void* outbuf, int outsize, int* position,
                         MPI_Comm comm) noexcept {
  return pack_impl(inbuf, incount, datatype, outbuf, outsize, position, comm,
                   "MPI_Pack");
}
SHMPI_PMPI_ALIAS(MPI_Pack);

extern "C" int PMPI_Pack_c(const void* inbuf, MPI_Count incount,
                           MPI_Datatype datatype, void* outbuf,
                           MPI_Count outsize, MPI_Count* position,
                           MPI_Comm comm) noexcept {
  return pack_impl(inbuf, incount, datatype, outbuf, outsize, position, comm,
                   "MPI_Pack_c");
}
SHMPI_PMPI_ALIAS(MPI_Pack_c);

extern "C" int PMPI_Unpack(const void* inbuf, int insize, int* position,
                           void* outbuf, int outcount, MPI_Datatype datatype,
                           MPI_Comm comm) noexcept {
  return unpack_impl(inbuf, insize, position, outbuf, outcount, datatype, comm,
                     "MPI_Unpack");
}
SHMPI_PMPI_ALIAS(MPI_Unpack);

extern "C" int PMPI_Unpack_c(const void* inbuf, MPI_Count insize,
                             MPI_Count* position, void* outbuf,
                             MPI_Count outcount, MPI_Datatype datatype,
                             MPI_Comm comm) noexcept {
  return unpack_impl(inbuf, insize, position, outbuf, outcount, datatype, comm,
                     "MPI_Unpack_c");
}
SHMPI_PMPI_ALIAS(MPI_Unpack_c);

extern "C" int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                              int* size) noexcept {
  return pack_size_impl(incount, datatype, comm, size, "MPI_Pack_size");
}
SHMPI_PMPI_ALIAS(MPI_Pack_size);

extern "C" int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype,
                                MPI_Comm comm, MPI_Count* size) noexcept {
  return pack_size_impl(incount, datatype, comm, size, "MPI_Pack_size_c");
}
SHMPI_PMPI_ALIAS(MPI_Pack_size_c);

// ------------------------------------------------------------ status

namespace {

// MPI_Get_count: whole elements in the status's packed bytes, MPI_UNDEFINED
// when they end inside one. MPI_Get_elements: basic elements, MPI_UNDEFINED
// when they end inside one.
template <typename C>
int count_impl(const MPI_Status* status, MPI_Datatype type, C* count,
               bool elements, const char* function) {
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (status == nullptr || count == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "NULL argument");
  }
  const auto bytes = static_cast<std::uint64_t>(status_bytes(status));
  std::int64_t value = 0;
  if (desc->packed == 0) {
    value = 0;
  } else if (elements) {
    value = datatype::count_basic_elements(*desc, bytes);
  } else {
    value = bytes % desc->packed == 0
                ? static_cast<std::int64_t>(bytes / desc->packed)
                : -1;
  }
  if constexpr (std::is_same_v<C, int>) {
    if (value > INT32_MAX) {
      value = -1;
    }
  }
  *count = value < 0 ? static_cast<C>(MPI_UNDEFINED) : static_cast<C>(value);
  return MPI_SUCCESS;
}

template <typename C>
int set_elements_impl(MPI_Status* status, MPI_Datatype type, C count,
                      const char* function) {
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (status == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "status is NULL");
  }
  if (count < 0) {
    return fail(nullptr, MPI_ERR_COUNT, function, "negative count %lld",
                static_cast<long long>(count));
  }
  // The packed bytes that hold `count` basic elements, found through the
  // type's parts: trying every prefix of a partial element took time in
  // proportion to the element's size (seconds for a 64 MiB type).
  const std::uint64_t bytes = datatype::bytes_of_basic_elements(
      *desc, static_cast<std::uint64_t>(count));
  set_status_count(status, static_cast<MPI_Count>(bytes));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype,
                              int* count) noexcept {
  return count_impl(status, datatype, count, false, "MPI_Get_count");
}
SHMPI_PMPI_ALIAS(MPI_Get_count);

extern "C" int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype,
                                MPI_Count* count) noexcept {
  return count_impl(status, datatype, count, false, "MPI_Get_count_c");
}
SHMPI_PMPI_ALIAS(MPI_Get_count_c);

extern "C" int PMPI_Get_elements(const MPI_Status* status,
                                 MPI_Datatype datatype, int* count) noexcept {
  return count_impl(status, datatype, count, true, "MPI_Get_elements");
}
SHMPI_PMPI_ALIAS(MPI_Get_elements);

extern "C" int PMPI_Get_elements_c(const MPI_Status* status,
                                   MPI_Datatype datatype,
                                   MPI_Count* count) noexcept {
  return count_impl(status, datatype, count, true, "MPI_Get_elements_c");
}
SHMPI_PMPI_ALIAS(MPI_Get_elements_c);

extern "C" int PMPI_Get_elements_x(const MPI_Status* status,
                                   MPI_Datatype datatype,
                                   MPI_Count* count) noexcept {
  return count_impl(status, datatype, count, true, "MPI_Get_elements_x");
}
SHMPI_PMPI_ALIAS(MPI_Get_elements_x);

extern "C" int PMPI_Status_set_elements(MPI_Status* status,
                                        MPI_Datatype datatype,
                                        int count) noexcept {
  return set_elements_impl(status, datatype, count, "MPI_Status_set_elements");
}
SHMPI_PMPI_ALIAS(MPI_Status_set_elements);

extern "C" int PMPI_Status_set_elements_c(MPI_Status* status,
                                          MPI_Datatype datatype,
                                          MPI_Count count) noexcept {
  return set_elements_impl(status, datatype, count,
                           "MPI_Status_set_elements_c");
}
SHMPI_PMPI_ALIAS(MPI_Status_set_elements_c);

extern "C" int PMPI_Status_set_elements_x(MPI_Status* status,
                                          MPI_Datatype datatype,
                                          MPI_Count count) noexcept {
  return set_elements_impl(status, datatype, count,
                           "MPI_Status_set_elements_x");
}
SHMPI_PMPI_ALIAS(MPI_Status_set_elements_x);
