// SPDX-License-Identifier: MIT
// Reduction cases for the MPI_Reduce / MPI_Allreduce tests: every predefined
// operation on every predefined datatype it is defined for (MPI 4.0 §6.9.2),
// the value each rank contributes, and the result computed locally. Values
// are small integers, so floating-point results are exact whatever the
// order of the reduction, and no integer type overflows up to 16 ranks.
#ifndef SHMPI_TESTS_SUPPORT_MT_REDUCE_H_
#define SHMPI_TESTS_SUPPORT_MT_REDUCE_H_

#include <complex.h>
#include <stdbool.h>

#include "mpitest.h"

typedef enum {
  kMtSigned,
  kMtUnsigned,
  kMtMultiLanguage,  // MPI_AINT, MPI_OFFSET, MPI_COUNT: no logical ops
  kMtFloat,
  kMtBool,
  kMtByte,
  kMtComplex,
  kMtPair
} MtKind;

// Value part of a pair type (MPI_FLOAT_INT, ...).
typedef enum {
  kMtPairFloat,
  kMtPairDouble,
  kMtPairLong,
  kMtPairInt,
  kMtPairShort,
  kMtPairLongDouble
} MtPairValue;

typedef struct {
  MPI_Datatype type;
  const char* name;
  MtKind kind;
  size_t size;  // bytes per element (the C type's sizeof)
  MtPairValue pair_value;
} MtType;

typedef struct {
  MPI_Op op;
  const char* name;
} MtOp;

struct MtFloatInt {
  float v;
  int i;
};
struct MtDoubleInt {
  double v;
  int i;
};
struct MtLongInt {
  long v;
  int i;
};
struct MtIntInt {
  int v;
  int i;
};
struct MtShortInt {
  short v;
  int i;
};
struct MtLongDoubleInt {
  long double v;
  int i;
};

// The table is built at run time: handles need not be constant expressions.
enum { kMtMaxTypes = 40 };
static inline int mt_reduce_types(MtType* out) {
  int n = 0;
#define MT_T(t, k, s) out[n++] = (MtType){t, #t, k, s, kMtPairInt}
#define MT_P(t, s, pv) \
  out[n++] = (MtType) { t, #t, kMtPair, s, pv }
  MT_T(MPI_SIGNED_CHAR, kMtSigned, sizeof(signed char));
  MT_T(MPI_SHORT, kMtSigned, sizeof(short));
  MT_T(MPI_INT, kMtSigned, sizeof(int));
  MT_T(MPI_LONG, kMtSigned, sizeof(long));
  MT_T(MPI_LONG_LONG, kMtSigned, sizeof(long long));
  MT_T(MPI_INT8_T, kMtSigned, 1);
  MT_T(MPI_INT16_T, kMtSigned, 2);
  MT_T(MPI_INT32_T, kMtSigned, 4);
  MT_T(MPI_INT64_T, kMtSigned, 8);
  MT_T(MPI_AINT, kMtMultiLanguage, sizeof(MPI_Aint));
  MT_T(MPI_OFFSET, kMtMultiLanguage, sizeof(MPI_Offset));
  MT_T(MPI_COUNT, kMtMultiLanguage, sizeof(MPI_Count));
  MT_T(MPI_UNSIGNED_CHAR, kMtUnsigned, sizeof(unsigned char));
  MT_T(MPI_UNSIGNED_SHORT, kMtUnsigned, sizeof(unsigned short));
  MT_T(MPI_UNSIGNED, kMtUnsigned, sizeof(unsigned));
  MT_T(MPI_UNSIGNED_LONG, kMtUnsigned, sizeof(unsigned long));
  MT_T(MPI_UNSIGNED_LONG_LONG, kMtUnsigned, sizeof(unsigned long long));
  MT_T(MPI_UINT8_T, kMtUnsigned, 1);
  MT_T(MPI_UINT16_T, kMtUnsigned, 2);
  MT_T(MPI_UINT32_T, kMtUnsigned, 4);
  MT_T(MPI_UINT64_T, kMtUnsigned, 8);
  MT_T(MPI_FLOAT, kMtFloat, sizeof(float));
  MT_T(MPI_DOUBLE, kMtFloat, sizeof(double));
  MT_T(MPI_LONG_DOUBLE, kMtFloat, sizeof(long double));
  MT_T(MPI_C_BOOL, kMtBool, sizeof(bool));
  MT_T(MPI_BYTE, kMtByte, 1);
  MT_T(MPI_C_FLOAT_COMPLEX, kMtComplex, sizeof(float _Complex));
  MT_T(MPI_C_DOUBLE_COMPLEX, kMtComplex, sizeof(double _Complex));
  MT_P(MPI_FLOAT_INT, sizeof(struct MtFloatInt), kMtPairFloat);
  MT_P(MPI_DOUBLE_INT, sizeof(struct MtDoubleInt), kMtPairDouble);
  MT_P(MPI_LONG_INT, sizeof(struct MtLongInt), kMtPairLong);
  MT_P(MPI_2INT, sizeof(struct MtIntInt), kMtPairInt);
  MT_P(MPI_SHORT_INT, sizeof(struct MtShortInt), kMtPairShort);
  MT_P(MPI_LONG_DOUBLE_INT, sizeof(struct MtLongDoubleInt), kMtPairLongDouble);
#undef MT_T
#undef MT_P
  return n;
}

// The operations defined for a kind (MPI 4.0 §6.9.2 table).
enum { kMtMaxOps = 10 };
static inline int mt_reduce_ops(MtKind kind, MtOp* out) {
  int n = 0;
#define MT_O(o) \
  out[n++] = (MtOp) { o, #o }
  switch (kind) {
    case kMtSigned:
    case kMtUnsigned:
      MT_O(MPI_SUM), MT_O(MPI_PROD), MT_O(MPI_MIN), MT_O(MPI_MAX);
      MT_O(MPI_LAND), MT_O(MPI_LOR), MT_O(MPI_LXOR);
      MT_O(MPI_BAND), MT_O(MPI_BOR), MT_O(MPI_BXOR);
      break;
    case kMtMultiLanguage:
      MT_O(MPI_SUM), MT_O(MPI_PROD), MT_O(MPI_MIN), MT_O(MPI_MAX);
      MT_O(MPI_BAND), MT_O(MPI_BOR), MT_O(MPI_BXOR);
      break;
    case kMtFloat:
      MT_O(MPI_SUM), MT_O(MPI_PROD), MT_O(MPI_MIN), MT_O(MPI_MAX);
      break;
    case kMtBool:
      MT_O(MPI_LAND), MT_O(MPI_LOR), MT_O(MPI_LXOR);
      break;
    case kMtByte:
      MT_O(MPI_BAND), MT_O(MPI_BOR), MT_O(MPI_BXOR);
      break;
    case kMtComplex:
      MT_O(MPI_SUM), MT_O(MPI_PROD);
      break;
    case kMtPair:
      MT_O(MPI_MAXLOC), MT_O(MPI_MINLOC);
      break;
  }
#undef MT_O
  return n;
}

// Rank r's element i for an operation, as an integer; small enough for
// every type (signed char included) at up to 16 ranks.
static inline long long mt_reduce_value(MPI_Op op, MtKind kind, int r, long i) {
  const int is_signed =
      kind == kMtSigned || kind == kMtMultiLanguage || kind == kMtFloat;
  const long ri = (long)r + i;
  if (op == MPI_SUM) {
    return (r * 7 + i * 3) % 11 - (is_signed ? 5 : 0);
  }
  if (op == MPI_PROD) {
    if (ri % 4 == 0) {
      return 2;
    }
    return is_signed && ri % 4 == 1 ? -1 : 1;
  }
  if (op == MPI_MIN || op == MPI_MAX) {
    return (r * 13 + i * 5) % 23 - (is_signed ? 11 : 0);
  }
  if (op == MPI_LAND) {
    return (r * 5 + i) % 17 == 3 ? 0 : 1 + ri % 3;  // true is not always 1
  }
  if (op == MPI_LOR) {
    return (r * 5 + i) % 17 == 3 ? 2 : 0;
  }
  if (op == MPI_LXOR) {
    return (r * 3 + i) % 4 == 0 ? 0 : 1;
  }
  if (op == MPI_BAND) {
    return 0x7F & ~(1 << (ri % 7));
  }
  if (op == MPI_BOR) {
    return 1 << ((r * 3 + i) % 7);
  }
  return (r * 37 + i * 11) & 0x7F;  // MPI_BXOR
}

static inline long long mt_reduce_combine(MPI_Op op, long long a, long long b) {
  if (op == MPI_SUM) {
    return a + b;
  }
  if (op == MPI_PROD) {
    return a * b;
  }
  if (op == MPI_MIN) {
    return a < b ? a : b;
  }
  if (op == MPI_MAX) {
    return a > b ? a : b;
  }
  if (op == MPI_LAND) {
    return a && b;
  }
  if (op == MPI_LOR) {
    return a || b;
  }
  if (op == MPI_LXOR) {
    return !a != !b;
  }
  if (op == MPI_BAND) {
    return a & b;
  }
  if (op == MPI_BOR) {
    return a | b;
  }
  return a ^ b;  // MPI_BXOR
}

// Complex values: sums of small Gaussian integers; products of powers of i.
static inline double _Complex mt_reduce_complex(MPI_Op op, int r, long i) {
  if (op == MPI_SUM) {
    return (double)((r * 7 + i * 3) % 11 - 5) +
           (double)((r * 5 + i) % 7 - 3) * I;
  }
  static const double _Complex kPowers[4] = {1.0, I, -1.0, -I};
  return kPowers[((long)r + i) % 4];
}

// Pairs: few distinct values, so ties are common; the index falls as the
// rank rises, so "the smallest index wins a tie" is not "rank 0 wins".
static inline long long mt_reduce_pair_value(int r, long i) {
  return (r * 7 + i * 3) % 5 - 2;
}
static inline int mt_reduce_pair_index(int r, int size, long i) {
  return (size - r) * 3 + (int)(i % 2);
}

static inline void mt_store_int(void* buf, size_t size, long i, MtKind kind,
                                long long v) {
  char* p = (char*)buf + (size_t)i * size;
  if (kind == kMtFloat) {
    if (size == sizeof(float)) {
      const float f = (float)v;
      memcpy(p, &f, sizeof f);
    } else if (size == sizeof(double)) {
      const double d = (double)v;
      memcpy(p, &d, sizeof d);
    } else {
      const long double ld = (long double)v;
      memcpy(p, &ld, sizeof ld);
    }
    return;
  }
  if (kind == kMtBool) {
    const bool b = v != 0;
    memcpy(p, &b, sizeof b);
    return;
  }
  switch (size) {
    case 1: {
      const int8_t x = (int8_t)v;
      memcpy(p, &x, 1);
      break;
    }
    case 2: {
      const int16_t x = (int16_t)v;
      memcpy(p, &x, 2);
      break;
    }
    case 4: {
      const int32_t x = (int32_t)v;
      memcpy(p, &x, 4);
      break;
    }
    default: {
      const int64_t x = (int64_t)v;
      memcpy(p, &x, 8);
      break;
    }
  }
}

// Reads element i back as an integer (exact for the values used here).
static inline long long mt_load_int(const void* buf, size_t size, long i,
                                    MtKind kind) {
  const char* p = (const char*)buf + (size_t)i * size;
  if (kind == kMtFloat) {
    if (size == sizeof(float)) {
      float f;
      memcpy(&f, p, sizeof f);
      return (long long)f;
    }
    if (size == sizeof(double)) {
      double d;
      memcpy(&d, p, sizeof d);
      return (long long)d;
    }
    long double ld;
    memcpy(&ld, p, sizeof ld);
    return (long long)ld;
  }
  if (kind == kMtBool) {
    bool b;
    memcpy(&b, p, sizeof b);
    return b;
  }
  const int is_unsigned = kind == kMtUnsigned || kind == kMtByte;
  switch (size) {
    case 1: {
      uint8_t x;
      memcpy(&x, p, 1);
      return is_unsigned ? (long long)x : (long long)(int8_t)x;
    }
    case 2: {
      uint16_t x;
      memcpy(&x, p, 2);
      return is_unsigned ? (long long)x : (long long)(int16_t)x;
    }
    case 4: {
      uint32_t x;
      memcpy(&x, p, 4);
      return is_unsigned ? (long long)x : (long long)(int32_t)x;
    }
    default: {
      int64_t x;
      memcpy(&x, p, 8);
      return (long long)x;
    }
  }
}

static inline void mt_store_pair(void* buf, const MtType* t, long i,
                                 long long v, int index) {
  char* p = (char*)buf + (size_t)i * t->size;
  switch (t->pair_value) {
    case kMtPairFloat: {
      const struct MtFloatInt x = {(float)v, index};
      memcpy(p, &x, sizeof x);
      break;
    }
    case kMtPairDouble: {
      const struct MtDoubleInt x = {(double)v, index};
      memcpy(p, &x, sizeof x);
      break;
    }
    case kMtPairLong: {
      const struct MtLongInt x = {(long)v, index};
      memcpy(p, &x, sizeof x);
      break;
    }
    case kMtPairInt: {
      const struct MtIntInt x = {(int)v, index};
      memcpy(p, &x, sizeof x);
      break;
    }
    case kMtPairShort: {
      const struct MtShortInt x = {(short)v, index};
      memcpy(p, &x, sizeof x);
      break;
    }
    case kMtPairLongDouble: {
      struct MtLongDoubleInt x;
      memset(&x, 0, sizeof x);  // padding compares equal
      x.v = (long double)v;
      x.i = index;
      memcpy(p, &x, sizeof x);
      break;
    }
  }
}

static inline void mt_load_pair(const void* buf, const MtType* t, long i,
                                long long* v, int* index) {
  const char* p = (const char*)buf + (size_t)i * t->size;
  switch (t->pair_value) {
    case kMtPairFloat: {
      struct MtFloatInt x;
      memcpy(&x, p, sizeof x);
      *v = (long long)x.v, *index = x.i;
      break;
    }
    case kMtPairDouble: {
      struct MtDoubleInt x;
      memcpy(&x, p, sizeof x);
      *v = (long long)x.v, *index = x.i;
      break;
    }
    case kMtPairLong: {
      struct MtLongInt x;
      memcpy(&x, p, sizeof x);
      *v = x.v, *index = x.i;
      break;
    }
    case kMtPairInt: {
      struct MtIntInt x;
      memcpy(&x, p, sizeof x);
      *v = x.v, *index = x.i;
      break;
    }
    case kMtPairShort: {
      struct MtShortInt x;
      memcpy(&x, p, sizeof x);
      *v = x.v, *index = x.i;
      break;
    }
    case kMtPairLongDouble: {
      struct MtLongDoubleInt x;
      memcpy(&x, p, sizeof x);
      *v = (long long)x.v, *index = x.i;
      break;
    }
  }
}

// Fills buf with rank r's contribution.
static inline void mt_reduce_fill(void* buf, const MtType* t, MPI_Op op, int r,
                                  int size, long count) {
  for (long i = 0; i < count; ++i) {
    if (t->kind == kMtPair) {
      mt_store_pair(buf, t, i, mt_reduce_pair_value(r, i),
                    mt_reduce_pair_index(r, size, i));
    } else if (t->kind == kMtComplex) {
      const double _Complex z = mt_reduce_complex(op, r, i);
      char* p = (char*)buf + (size_t)i * t->size;
      if (t->size == sizeof(float _Complex)) {
        const float _Complex zf = (float _Complex)z;
        memcpy(p, &zf, sizeof zf);
      } else {
        memcpy(p, &z, sizeof z);
      }
    } else {
      mt_store_int(buf, t->size, i, t->kind,
                   mt_reduce_value(op, t->kind, r, i));
    }
  }
}

// Checks a buffer against the reduction of the contributions of ranks
// 0..ranks-1 of a communicator of `size` ranks (a prefix for MPI_Scan and
// MPI_Exscan); FAILs with the first differing element.
static inline void mt_reduce_check_ranks(const void* buf, const MtType* t,
                                         const MtOp* op, int size, int ranks,
                                         long count, const char* what) {
  for (long i = 0; i < count; ++i) {
    if (t->kind == kMtPair) {
      long long best = mt_reduce_pair_value(0, i);
      int best_index = mt_reduce_pair_index(0, size, i);
      for (int r = 1; r < ranks; ++r) {
        const long long v = mt_reduce_pair_value(r, i);
        const int index = mt_reduce_pair_index(r, size, i);
        const int better = op->op == MPI_MAXLOC ? v > best : v < best;
        if (better || (v == best && index < best_index)) {
          best = v;
          best_index = index;
        }
      }
      long long got = 0;
      int got_index = 0;
      mt_load_pair(buf, t, i, &got, &got_index);
      MT_CHECK(got == best && got_index == best_index,
               "%s %s %s, count %ld: element %ld is (%lld, %d), expected "
               "(%lld, %d)",
               what, op->name, t->name, count, i, got, got_index, best,
               best_index);
    } else if (t->kind == kMtComplex) {
      double _Complex expected = mt_reduce_complex(op->op, 0, i);
      for (int r = 1; r < ranks; ++r) {
        const double _Complex z = mt_reduce_complex(op->op, r, i);
        expected = op->op == MPI_SUM ? expected + z : expected * z;
      }
      double _Complex got;
      const char* p = (const char*)buf + (size_t)i * t->size;
      if (t->size == sizeof(float _Complex)) {
        float _Complex zf;
        memcpy(&zf, p, sizeof zf);
        got = zf;
      } else {
        memcpy(&got, p, sizeof got);
      }
      MT_CHECK(creal(got) == creal(expected) && cimag(got) == cimag(expected),
               "%s %s %s, count %ld: element %ld is %g%+gi, expected %g%+gi",
               what, op->name, t->name, count, i, creal(got), cimag(got),
               creal(expected), cimag(expected));
    } else {
      long long expected = mt_reduce_value(op->op, t->kind, 0, i);
      for (int r = 1; r < ranks; ++r) {
        expected = mt_reduce_combine(op->op, expected,
                                     mt_reduce_value(op->op, t->kind, r, i));
      }
      if (t->kind == kMtBool) {
        expected = expected != 0;  // one rank: its own value, stored as bool
      }
      const long long got = mt_load_int(buf, t->size, i, t->kind);
      MT_CHECK(got == expected,
               "%s %s %s, count %ld: element %ld is %lld, expected %lld", what,
               op->name, t->name, count, i, got, expected);
    }
  }
}

// Checks a buffer against the reduction over all `size` ranks.
static inline void mt_reduce_check(const void* buf, const MtType* t,
                                   const MtOp* op, int size, long count,
                                   const char* what) {
  mt_reduce_check_ranks(buf, t, op, size, size, count, what);
}

#endif  // SHMPI_TESTS_SUPPORT_MT_REDUCE_H_
