// SPDX-License-Identifier: MIT
#include "mpi/file_type.hpp"

#include <cstdint>
#include <vector>

#include "base/assert.hpp"
#include "mpi/core.hpp"
#include "mpi/datatype.hpp"

namespace shmpi::mpi {

namespace {

// Reads a derived type's recorded constructor arguments in the order
// MPI_Type_get_contents gives them (mpi/type_api.cpp records them). The
// _c constructors record every count and displacement as a large count;
// the others counts as integers and byte displacements as addresses.
class Arguments {
 public:
  explicit Arguments(const Datatype& type)
      : type_(type), large_(!type.large_counts.empty()) {}

  // A count, or a displacement in elements of the old type.
  std::int64_t count() {
    return large_ ? type_.large_counts.at(large_at_++)
                  : type_.integers.at(integer_at_++);
  }
  // A displacement in bytes.
  std::int64_t address() {
    return large_ ? type_.large_counts.at(large_at_++)
                  : type_.addresses.at(address_at_++);
  }
  // A value that is an int in both forms (ndims, order, ...).
  int integer() { return type_.integers.at(integer_at_++); }

  std::vector<std::uint64_t> counts(std::size_t n) {
    std::vector<std::uint64_t> out(n);
    for (std::uint64_t& c : out) {
      c = static_cast<std::uint64_t>(count());
    }
    return out;
  }
  // `n` displacements in elements of an old type `unit` file bytes long.
  std::vector<std::int64_t> scaled(std::size_t n, std::int64_t unit) {
    std::vector<std::int64_t> out(n);
    for (std::int64_t& d : out) {
      d = count() * unit;
    }
    return out;
  }
  std::vector<std::int64_t> addresses(std::size_t n) {
    std::vector<std::int64_t> out(n);
    for (std::int64_t& d : out) {
      d = address();
    }
    return out;
  }

 private:
  const Datatype& type_;
  bool large_;
  std::size_t integer_at_ = 0;
  std::size_t address_at_ = 0;
  std::size_t large_at_ = 0;
};

// A predefined type in the file: `extent` bytes, byte aligned.
datatype::DescPtr placeholder(std::int64_t extent) {
  return datatype::make_contiguous(static_cast<std::uint64_t>(extent),
                                   datatype::basic_desc(*find_type(MPI_BYTE)));
}

datatype::DescPtr rebuild(const Datatype& type,
                          const std::vector<datatype::DescPtr>& children) {
  Arguments a(type);
  const datatype::DescPtr old = children.empty() ? nullptr : children[0];
  switch (type.combiner) {
    case MPI_COMBINER_DUP:
      return old;
    case MPI_COMBINER_CONTIGUOUS:
      return datatype::make_contiguous(static_cast<std::uint64_t>(a.count()),
                                       old);
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
      const auto count = static_cast<std::uint64_t>(a.count());
      const auto blocklength = static_cast<std::uint64_t>(a.count());
      const std::int64_t stride = type.combiner == MPI_COMBINER_VECTOR
                                      ? a.count() * old->extent()
                                      : a.address();
      return datatype::make_hvector(count, blocklength, stride, old);
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
      const auto n = static_cast<std::size_t>(a.count());
      const bool block = type.combiner == MPI_COMBINER_INDEXED_BLOCK ||
                         type.combiner == MPI_COMBINER_HINDEXED_BLOCK;
      const std::vector<std::uint64_t> lengths =
          block ? std::vector<std::uint64_t>(
                      n, static_cast<std::uint64_t>(a.count()))
                : a.counts(n);
      const bool bytes = type.combiner == MPI_COMBINER_HINDEXED ||
                         type.combiner == MPI_COMBINER_HINDEXED_BLOCK;
      const std::vector<std::int64_t> disps =
          bytes ? a.addresses(n) : a.scaled(n, old->extent());
      return datatype::make_hindexed(lengths, disps, old);
    }
    case MPI_COMBINER_STRUCT: {
      const auto n = static_cast<std::size_t>(a.count());
      const std::vector<std::uint64_t> lengths = a.counts(n);
      const std::vector<std::int64_t> disps = a.addresses(n);
      return datatype::make_struct(lengths, disps, children);
    }
    case MPI_COMBINER_SUBARRAY: {
      const auto n = static_cast<std::size_t>(a.integer());
      const std::vector<std::uint64_t> sizes = a.counts(n);
      const std::vector<std::uint64_t> subsizes = a.counts(n);
      const std::vector<std::uint64_t> starts = a.counts(n);
      const bool order_c = a.integer() == MPI_ORDER_C;
      return datatype::make_subarray(sizes, subsizes, starts, order_c, old);
    }
    case MPI_COMBINER_DARRAY: {
      a.integer();  // the grid's size: the psizes multiply to it
      const int rank = a.integer();
      const auto n = static_cast<std::size_t>(a.integer());
      std::vector<std::int64_t> gsizes(n);
      for (std::int64_t& g : gsizes) {
        g = a.count();
      }
      std::vector<int> fields(3 * n);  // distribs, dargs, psizes
      for (int& f : fields) {
        f = a.integer();
      }
      const bool order_c = a.integer() == MPI_ORDER_C;
      std::vector<datatype::DarrayDimension> dims(n);
      for (std::size_t i = 0; i < n; ++i) {
        dims[i] = darray_dimension(gsizes[i], fields[i], fields[n + i],
                                   fields[2 * n + i]);
      }
      return datatype::make_darray(rank, dims, order_c, old);
    }
    case MPI_COMBINER_RESIZED: {
      const std::int64_t lb = a.address();
      const std::int64_t extent = a.address();
      return datatype::make_resized(old, lb, extent);
    }
    default:
      break;
  }
  SHMPI_UNREACHABLE("file_type_desc: a combiner MPI_Type_get_contents lacks");
}

}  // namespace

int file_type_desc(FileExtents& extents, MPI_Datatype type,
                   datatype::DescPtr* out) {
  if (const datatype::BasicType* basic = find_type(type)) {
    std::int64_t extent = 0;
    if (int rc = extents.of(*basic, &extent); rc != MPI_SUCCESS) {
      return rc;
    }
    *out = placeholder(extent);
    return MPI_SUCCESS;
  }
  const Datatype* derived = find_derived(type);
  SHMPI_ASSERT(derived != nullptr, "file_type_desc: not a valid datatype");
  std::vector<datatype::DescPtr> children(derived->types.size());
  for (std::size_t i = 0; i < children.size(); ++i) {
    if (int rc = file_type_desc(extents, derived->types[i], &children[i]);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  *out = rebuild(*derived, children);
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
