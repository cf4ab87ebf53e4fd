// SPDX-License-Identifier: MIT
// User-defined operations on elements larger than shmpi's collective
// buffers (coll/op_user_big.c, coll/op_user_batches.c): the element
// datatype (`values` uint32s, contiguous or `stride` apart) and a
// non-commutative operation on uint32 values, so that rank order shows.
#ifndef SHMPI_TESTS_SUPPORT_MT_BIG_ELEMENTS_H_
#define SHMPI_TESTS_SUPPORT_MT_BIG_ELEMENTS_H_

#include "mpitest.h"

// Each uint32 is an affine map x -> a x + b mod 2^16 (a odd: the low half,
// b: the high half); x op y is x after y, associative but not commutative.
static inline uint32_t mt_affine_compose(uint32_t x, uint32_t y) {
  const uint32_t a1 = x & 0xffffu;
  const uint32_t b1 = x >> 16;
  const uint32_t a2 = y & 0xffffu;
  const uint32_t b2 = y >> 16;
  return ((a1 * a2) & 0xffffu) | (((a1 * b2 + b1) & 0xffffu) << 16);
}

// A committed datatype of `values` uint32s: contiguous when `stride` is 1,
// else one every `stride` uint32s, resized so that elements tile (value i
// of element j at (j * values + i) * stride).
static inline MPI_Datatype mt_big_element_type(int values, int stride) {
  MPI_Datatype type;
  if (stride == 1) {
    MT_CHECK_MPI(MPI_Type_contiguous(values, MPI_UINT32_T, &type));
  } else {
    MPI_Datatype vector;
    MT_CHECK_MPI(MPI_Type_vector(values, 1, stride, MPI_UINT32_T, &vector));
    MT_CHECK_MPI(MPI_Type_create_resized(
        vector, 0, (MPI_Aint)((size_t)values * (size_t)stride * 4), &type));
    MT_CHECK_MPI(MPI_Type_free(&vector));
  }
  MT_CHECK_MPI(MPI_Type_commit(&type));
  return type;
}

#endif  // SHMPI_TESTS_SUPPORT_MT_BIG_ELEMENTS_H_
