// SPDX-License-Identifier: MIT
// MPI 4.0 §19.1.9: MPI_Type_create_f90_real/_complex/_integer return "a
// predefined MPI datatype that matches a REAL [COMPLEX, INTEGER] variable
// of KIND selected_real_kind(p, r) [selected_int_kind(r)]"; "either p or
// r may be set to MPI_UNDEFINED". The type has the kind's size and extent,
// needs no commit and cannot be freed; the same arguments give the same
// handle; MPI_Type_get_envelope reports MPI_COMBINER_F90_REAL/_COMPLEX/
// _INTEGER with the arguments as integers, which MPI_Type_get_contents
// returns; values of it travel and reduce; MPI_Type_match_size finds the
// named type of its size. Arguments no kind satisfies are refused.
// With argv[1] "strict", also what MPICH 4.0.2 does not do: the kinds
// beyond DOUBLE PRECISION that gfortran has on x86-64 (REAL(10), REAL(16),
// INTEGER(16)), which it refuses, and MPI_ERR_TYPE from MPI_Type_free of
// such a predefined type, which it frees.
#include <string.h>

#include "mpitest.h"

enum Which { kReal, kComplex, kInteger };

struct f90_case {
  enum Which which;
  int p, r;  // p unused for kInteger
  int size;  // bytes of one value
  int strict;
};

static const struct f90_case kCases[] = {
    {kReal, 6, MPI_UNDEFINED, 4, 0},
    {kReal, MPI_UNDEFINED, 37, 4, 0},
    {kReal, 7, MPI_UNDEFINED, 8, 0},
    {kReal, 15, 307, 8, 0},
    {kReal, MPI_UNDEFINED, 300, 8, 0},
    {kReal, 16, MPI_UNDEFINED, 16, 1},  // REAL(10), stored in 16 bytes
    {kReal, 33, 4931, 16, 1},           // REAL(16)
    {kComplex, 6, 37, 8, 0},
    {kComplex, 15, MPI_UNDEFINED, 16, 0},
    {kComplex, 18, MPI_UNDEFINED, 32, 1},
    {kComplex, MPI_UNDEFINED, 4931, 32, 1},
    {kInteger, 0, 2, 1, 0},
    {kInteger, 0, 4, 2, 0},
    {kInteger, 0, 9, 4, 0},
    {kInteger, 0, 18, 8, 0},
    {kInteger, 0, 38, 16, 1},
};
enum { kCaseCount = sizeof kCases / sizeof kCases[0] };

static int create(const struct f90_case* c, MPI_Datatype* type) {
  switch (c->which) {
    case kReal:
      return MPI_Type_create_f90_real(c->p, c->r, type);
    case kComplex:
      return MPI_Type_create_f90_complex(c->p, c->r, type);
    default:
      return MPI_Type_create_f90_integer(c->r, type);
  }
}

static void check_type(const struct f90_case* c, int index, int strict) {
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Datatype type = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
  MT_CHECK_MPI(create(c, &type));
  MT_CHECK_MPI(create(c, &again));
  MT_CHECK(type == again, "case %d: two calls gave two handles", index);
  int bytes = -1;
  MT_CHECK_MPI(MPI_Type_size(type, &bytes));
  MT_CHECK(bytes == c->size, "case %d: size %d, expected %d", index, bytes,
           c->size);
  MPI_Aint lb = -1, extent = -1;
  MT_CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  MT_CHECK(lb == 0 && extent == c->size, "case %d: lb %ld extent %ld", index,
           (long)lb, (long)extent);

  int ni = -1, na = -1, nd = -1, combiner = -1;
  MT_CHECK_MPI(MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner));
  const int expected_combiner = c->which == kReal ? MPI_COMBINER_F90_REAL
                                : c->which == kComplex
                                    ? MPI_COMBINER_F90_COMPLEX
                                    : MPI_COMBINER_F90_INTEGER;
  const int expected_ni = c->which == kInteger ? 1 : 2;
  MT_CHECK(combiner == expected_combiner, "case %d: combiner %d", index,
           combiner);
  MT_CHECK(ni == expected_ni && na == 0 && nd == 0,
           "case %d: envelope counts %d %d %d", index, ni, na, nd);
  int integers[2] = {-1, -1};
  MT_CHECK_MPI(MPI_Type_get_contents(type, 2, 0, 0, integers, NULL, NULL));
  if (c->which == kInteger) {
    MT_CHECK(integers[0] == c->r, "case %d: contents r %d", index, integers[0]);
  } else {
    MT_CHECK(integers[0] == c->p && integers[1] == c->r,
             "case %d: contents p %d r %d", index, integers[0], integers[1]);
  }

  // Usable without a commit; committing is allowed all the same.
  MT_CHECK_MPI(MPI_Type_commit(&type));
  if (strict) {
    MPI_Datatype freed = type;
    MT_EXPECT_CLASS(0, MPI_Type_free(&freed), MPI_ERR_TYPE,
                    "MPI_Type_free of an f90 type");
  }

  // Three values from every rank to the next, round the ring.
  unsigned char out[3 * 32], in[3 * 32];
  const size_t len = 3 * (size_t)c->size;
  mt_fill(out, len, (uint32_t)(rank * 100 + index));
  MT_CHECK_MPI(MPI_Sendrecv(out, 3, type, (rank + 1) % size, index, in, 3, type,
                            (rank + size - 1) % size, index, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
  MT_CHECK_PATTERN(in, len,
                   (uint32_t)(((rank + size - 1) % size) * 100 + index),
                   "received values");

  // The named type of its class and size.
  if (c->size <= 8 || c->which != kInteger) {
    const int typeclass = c->which == kReal      ? MPI_TYPECLASS_REAL
                          : c->which == kComplex ? MPI_TYPECLASS_COMPLEX
                                                 : MPI_TYPECLASS_INTEGER;
    MPI_Datatype named = MPI_DATATYPE_NULL;
    MT_CHECK_MPI(MPI_Type_match_size(typeclass, bytes, &named));
    int named_size = -1;
    MT_CHECK_MPI(MPI_Type_size(named, &named_size));
    MT_CHECK(named_size == bytes, "case %d: matched size %d", index,
             named_size);
  }
}

static void check_reductions(void) {
  const int size = mt_size();
  MPI_Datatype real8, int4;
  MT_CHECK_MPI(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &real8));
  MT_CHECK_MPI(MPI_Type_create_f90_integer(9, &int4));
  double x = 1.5, xs = 0;
  int n = 2, ns = 0;
  MT_CHECK_MPI(MPI_Allreduce(&x, &xs, 1, real8, MPI_SUM, MPI_COMM_WORLD));
  MT_CHECK_MPI(MPI_Allreduce(&n, &ns, 1, int4, MPI_MAX, MPI_COMM_WORLD));
  MT_CHECK(xs == 1.5 * size, "real sum %g", xs);
  MT_CHECK(ns == 2, "integer max %d", ns);
}

// MPI calls such arguments erroneous and names no class: shmpi raises
// MPI_ERR_ARG (checked when strict), MPICH 4.0.2 MPI_ERR_OTHER.
static void expect_refused(int strict, int rc, const char* what) {
  if (strict) {
    MT_EXPECT_CLASS(0, rc, MPI_ERR_ARG, what);
  } else {
    MT_CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  }
}

static void check_errors(int strict) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  expect_refused(strict, MPI_Type_create_f90_real(34, MPI_UNDEFINED, &type),
                 "MPI_Type_create_f90_real(34, undefined)");
  expect_refused(strict, MPI_Type_create_f90_real(MPI_UNDEFINED, 5000, &type),
                 "MPI_Type_create_f90_real(undefined, 5000)");
  if (strict) {
    // "Either p or r may be set to MPI_UNDEFINED", not both, as for
    // SELECTED_REAL_KIND; MPICH 4.0.2 accepts both.
    expect_refused(
        strict, MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &type),
        "MPI_Type_create_f90_real(undefined, undefined)");
  }
  expect_refused(strict, MPI_Type_create_f90_complex(40, 40, &type),
                 "MPI_Type_create_f90_complex(40, 40)");
  expect_refused(strict, MPI_Type_create_f90_integer(39, &type),
                 "MPI_Type_create_f90_integer(39)");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int strict = argc > 1 && strcmp(argv[1], "strict") == 0;
  for (int i = 0; i < kCaseCount; ++i) {
    if (!kCases[i].strict || strict) {
      check_type(&kCases[i], i, strict);
    }
  }
  check_reductions();
  check_errors(strict);
  MPI_Finalize();
  return 0;
}
