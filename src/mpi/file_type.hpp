// SPDX-License-Identifier: MIT
// A datatype as a file of a non-native data representation lays it out
// (MPI 4.0 §14.5.1): the etype and filetype of a view, and
// MPI_File_get_type_extent.
//
// The standard's rule: each predefined type takes its file extent, byte
// aligned; displacements a constructor takes in bytes (hvector, hindexed,
// hindexed_block, struct, resized) are file bytes already and are taken as
// they are, while those it takes in elements of the old type (contiguous,
// vector, indexed, indexed_block, subarray, darray: the portable types)
// scale with the old type's extent in the file. So the file form is built
// by walking the type's constructor tree (the arguments
// MPI_Type_get_contents returns) with each predefined type replaced by a
// placeholder of as many bytes as its file extent; the result describes
// file bytes, which io::FileView maps unchanged.
#pragma once

#include <mpi.h>

#include "datatype/type_map.hpp"
#include "mpi/datarep.hpp"

namespace shmpi::mpi {

// The file form of the valid datatype `type` in the representation of
// `extents`: MPI_SUCCESS, or MPI_ERR_CONVERSION when dtype_file_extent_fn
// failed (extents.why() says how).
int file_type_desc(FileExtents& extents, MPI_Datatype type,
                   datatype::DescPtr* out);

}  // namespace shmpi::mpi
