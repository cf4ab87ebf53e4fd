// SPDX-License-Identifier: MIT
// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size and their
// _c forms (MPI 4.0 section 5.2.3), in the one data representation MPI
// defines for them, "external32".
//
// The data is packed (or unpacked) in this machine's packed form by the
// usual walker, a bounded batch of elements at a time, and each basic
// element of the type signature is converted to or from external32
// (datatype/external32.hpp) in type map order.
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "datatype/external32.hpp"
#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// Packed bytes converted per batch (at least one element).
constexpr std::size_t kBatchBytes = std::size_t{1} << 16;

int check_datarep(const char* datarep, const char* function) {
  if (datarep == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "datarep is NULL");
  }
  if (std::strcmp(datarep, "external32") != 0) {
    return fail(nullptr, MPI_ERR_UNSUPPORTED_DATAREP, function,
                "data representation \"%.64s\" is not \"external32\"", datarep);
  }
  return MPI_SUCCESS;
}

// external32 bytes of one element of `d`.
std::uint64_t external_size(const datatype::TypeDesc& d) {
  if (d.basic != nullptr) {
    return datatype::external32_size(*d.basic);
  }
  if (d.element != nullptr && !d.mixed) {
    return d.element_count * datatype::external32_size(*d.element);
  }
  std::uint64_t bytes = 0;
  for (const datatype::Part& part : d.parts) {
    bytes += part.copies * external_size(*part.child);
  }
  return bytes;
}

// Where a conversion is in the packed and the external32 stream.
struct Cursor {
  std::byte* native;
  std::byte* external;
};

template <bool kToExternal>
void convert_basic(const datatype::BasicType& type, std::uint64_t count,
                   Cursor& at) {
  const std::size_t native = datatype::external32_native_size(type);
  const std::size_t external = datatype::external32_size(type);
  for (std::uint64_t i = 0; i < count; ++i) {
    if constexpr (kToExternal) {
      datatype::to_external32(type, at.native, at.external);
    } else {
      datatype::from_external32(type, at.external, at.native);
    }
    at.native += native;
    at.external += external;
  }
}

// One element of `d`, its basic elements in type map order.
template <bool kToExternal>
void convert_element(const datatype::TypeDesc& d, Cursor& at) {
  if (d.basic != nullptr) {
    convert_basic<kToExternal>(*d.basic, 1, at);
    return;
  }
  if (d.element != nullptr && !d.mixed) {
    convert_basic<kToExternal>(*d.element, d.element_count, at);
    return;
  }
  for (const datatype::Part& part : d.parts) {
    for (std::uint64_t k = 0; k < part.copies; ++k) {
      convert_element<kToExternal>(*part.child, at);
    }
  }
}

// The checks MPI_Pack_external and MPI_Unpack_external share: datarep,
// count, a committed datatype, a position.
template <typename C, typename P>
int check_common(const char* datarep, C count, MPI_Datatype type, TypeArg* arg,
                 datatype::DescPtr* desc, const P* position,
                 const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datarep(datarep, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(nullptr, count, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datatype(nullptr, type, arg, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  *desc = describe(type);
  if (position == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "position is NULL");
  }
  return MPI_SUCCESS;
}

// MPI_Pack_external (kPack) and MPI_Unpack_external: `user` is the
// program's typed buffer of `user_count` elements, `external` the
// external32 buffer of `capacity` bytes, *position the offset in it.
template <bool kPack, typename C, typename A>
int external_impl(const char* datarep, const void* user, C user_count,
                  MPI_Datatype type, const void* external, A capacity,
                  A* position, const char* function) {
  TypeArg arg;
  datatype::DescPtr desc;
  if (int rc = check_common(datarep, user_count, type, &arg, &desc, position,
                            function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const auto count = static_cast<std::uint64_t>(user_count);
  const std::uint64_t bytes = count * external_size(*desc);
  if (*position < 0 || capacity < 0 ||
      static_cast<std::uint64_t>(*position) + bytes >
          static_cast<std::uint64_t>(capacity)) {
    return fail(nullptr, MPI_ERR_TRUNCATE, function,
                "%llu bytes at position %lld do not fit in the %lld of the "
                "%s buffer",
                static_cast<unsigned long long>(bytes),
                static_cast<long long>(*position),
                static_cast<long long>(capacity), kPack ? "output" : "input");
  }
  if (bytes != 0 && external == nullptr) {
    return fail(nullptr, MPI_ERR_BUFFER, function, "NULL buffer");
  }
  if (int rc = check_buffer(nullptr, user, user_count, arg, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (bytes != 0) {
    const std::size_t per_batch = std::max<std::size_t>(
        1, kBatchBytes / std::max<std::size_t>(1, arg.packed));
    std::vector<std::byte> native(
        arg.bytes(std::min<std::uint64_t>(per_batch, count)));
    const datatype::Layout layout =
        arg.layout(user, static_cast<std::size_t>(count));
    // Unpacking only reads the external stream; Cursor holds it mutable
    // for both directions.
    Cursor at{nullptr,
              const_cast<std::byte*>(static_cast<const std::byte*>(external) +
                                     *position)};
    for (std::uint64_t done = 0; done < count;) {
      const std::uint64_t n = std::min<std::uint64_t>(per_batch, count - done);
      if constexpr (kPack) {
        datatype::pack(layout, arg.bytes(done), native.data(), arg.bytes(n));
      }
      at.native = native.data();
      for (std::uint64_t i = 0; i < n; ++i) {
        convert_element<kPack>(*desc, at);
      }
      if constexpr (!kPack) {
        datatype::unpack(layout, arg.bytes(done), native.data(), arg.bytes(n));
      }
      done += n;
    }
  }
  *position += static_cast<A>(bytes);
  return MPI_SUCCESS;
}

template <typename C, typename A>
int pack_external_size_impl(const char* datarep, C incount, MPI_Datatype type,
                            A* size, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datarep(datarep, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(nullptr, incount, function); rc != MPI_SUCCESS) {
    return rc;
  }
  datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "size is NULL");
  }
  *size = static_cast<A>(static_cast<std::uint64_t>(incount) *
                         external_size(*desc));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Pack_external(const char* datarep, const void* inbuf,
                                  int incount, MPI_Datatype datatype,
                                  void* outbuf, MPI_Aint outsize,
                                  MPI_Aint* position) noexcept {
  return external_impl<true>(datarep, inbuf, incount, datatype, outbuf, outsize,
                             position, "MPI_Pack_external");
}
SHMPI_PMPI_ALIAS(MPI_Pack_external);

extern "C" int PMPI_Pack_external_c(const char* datarep, const void* inbuf,
                                    MPI_Count incount, MPI_Datatype datatype,
                                    void* outbuf, MPI_Count outsize,
                                    MPI_Count* position) noexcept {
  return external_impl<true>(datarep, inbuf, incount, datatype, outbuf, outsize,
                             position, "MPI_Pack_external_c");
}
SHMPI_PMPI_ALIAS(MPI_Pack_external_c);

extern "C" int PMPI_Unpack_external(const char datarep[], const void* inbuf,
                                    MPI_Aint insize, MPI_Aint* position,
                                    void* outbuf, int outcount,
                                    MPI_Datatype datatype) noexcept {
  return external_impl<false>(datarep, outbuf, outcount, datatype, inbuf,
                              insize, position, "MPI_Unpack_external");
}
SHMPI_PMPI_ALIAS(MPI_Unpack_external);

extern "C" int PMPI_Unpack_external_c(const char datarep[], const void* inbuf,
                                      MPI_Count insize, MPI_Count* position,
                                      void* outbuf, MPI_Count outcount,
                                      MPI_Datatype datatype) noexcept {
  return external_impl<false>(datarep, outbuf, outcount, datatype, inbuf,
                              insize, position, "MPI_Unpack_external_c");
}
SHMPI_PMPI_ALIAS(MPI_Unpack_external_c);

extern "C" int PMPI_Pack_external_size(const char* datarep, int incount,
                                       MPI_Datatype datatype,
                                       MPI_Aint* size) noexcept {
  return pack_external_size_impl(datarep, incount, datatype, size,
                                 "MPI_Pack_external_size");
}
SHMPI_PMPI_ALIAS(MPI_Pack_external_size);

extern "C" int PMPI_Pack_external_size_c(const char* datarep, MPI_Count incount,
                                         MPI_Datatype datatype,
                                         MPI_Count* size) noexcept {
  return pack_external_size_impl(datarep, incount, datatype, size,
                                 "MPI_Pack_external_size_c");
}
SHMPI_PMPI_ALIAS(MPI_Pack_external_size_c);
