// SPDX-License-Identifier: MIT
// The data path of a view in a non-native data representation (MPI 4.0
// §14.5): "external32" or a user representation. The view (io::FileView)
// already maps file bytes (mpi/file_type.hpp); this converts between the
// packed native bytes of the memory datatype and the file's bytes, a
// bounded stretch of whole basic elements at a time, around the positioned
// reads and writes of the view's runs. The native path (file_access.cpp)
// does not come here.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "mpi/core.hpp"
#include "mpi/file.hpp"
#include "mpi/file_access.hpp"

namespace shmpi::mpi {

// The bytes the checked `data` takes in the file of `file`, whose view has
// a non-native representation: each basic element its file extent. Raises
// MPI_ERR_CONVERSION on the file when the representation's
// dtype_file_extent_fn fails, or when a direction without a conversion
// function (MPI_CONVERSION_FN_NULL) would have to change an element's size.
int file_data_bytes(File& file, bool write, const FileData& data,
                    std::uint64_t* out, const char* function) noexcept;

// transfer() (file_access.hpp) for a file whose view has a non-native
// representation, with the same contract; `offset` counts etypes of the
// file form. A read that ends inside a basic element at the end of the
// file stops before it. A conversion function that fails raises
// MPI_ERR_CONVERSION.
int convert_transfer(File& file, bool write, MPI_Offset offset,
                     const FileData& data, const TypeArg& type,
                     MPI_Status* status, MPI_Offset* moved,
                     const char* function) noexcept;

}  // namespace shmpi::mpi
