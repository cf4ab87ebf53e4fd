// SPDX-License-Identifier: MIT
// Helpers of the collective tests (tests/mpi/coll): the communicator a
// variant runs on, blocking or nonblocking calls, element patterns every
// rank can compute, and a non-commutative user operation. Plain C11 over
// standard MPI, like mpitest.h.
#ifndef SHMPI_TESTS_SUPPORT_MT_COLL_H_
#define SHMPI_TESTS_SUPPORT_MT_COLL_H_

#include "mpitest.h"

// Program arguments: [world|split|rev|inter] [b|nb] [big].
typedef struct {
  const char* comm_kind;
  int nonblocking;
  int big;  // also the multi-MiB sizes
} MtCollArgs;

static inline MtCollArgs mt_coll_args(int argc, char** argv) {
  MtCollArgs a = {"world", 0, 0};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "nb") == 0) {
      a.nonblocking = 1;
    } else if (strcmp(argv[i], "b") == 0) {
      a.nonblocking = 0;
    } else if (strcmp(argv[i], "big") == 0) {
      a.big = 1;
    } else {
      a.comm_kind = argv[i];
    }
  }
  return a;
}

// The communicator a variant runs on (free it with MPI_Comm_free):
//   world  a dup of MPI_COMM_WORLD
//   split  odd and even world ranks apart (two communicators at once)
//   rev    all ranks, in reverse order (split with keys -rank)
//   inter  intercommunicator between the even and the odd world ranks
//          (NULL-equivalent at 1 rank: the caller skips)
static inline MPI_Comm mt_coll_comm(const char* kind) {
  const int rank = mt_rank();
  MPI_Comm comm = MPI_COMM_NULL;
  if (strcmp(kind, "world") == 0) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  } else if (strcmp(kind, "split") == 0) {
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comm);
  } else if (strcmp(kind, "rev") == 0) {
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &comm);
  } else if (strcmp(kind, "inter") == 0) {
    if (mt_size() < 2) {
      return MPI_COMM_NULL;
    }
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    // Leaders: world rank 0 for the evens, 1 for the odds.
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 77,
                         &comm);
    MPI_Comm_free(&local);
  } else {
    MT_FAIL("unknown communicator kind '%s'", kind);
  }
  return comm;
}

// Whether a test loops over this root: every root up to 5 ranks, three
// roots beyond (MPICH busy-polls: oversubscribed syncs are slow there).
static inline int mt_coll_root_used(int root, int size) {
  return size <= 5 || root == 0 || root == size / 2 || root == size - 1;
}

// Completes a nonblocking collective at once, or does nothing for a
// blocking one: lets one program body test both forms.
static inline void mt_coll_wait(MPI_Request* request) {
  if (*request != MPI_REQUEST_NULL) {
    MT_CHECK_MPI(MPI_Wait(request, MPI_STATUS_IGNORE));
    MT_CHECK(*request == MPI_REQUEST_NULL, "MPI_Wait left a request");
  }
}

// Element `index` of the data rank `from` sends to rank `to` in case `tag`:
// distinct for every (from, to, index, tag) a test uses.
static inline int mt_coll_value(int from, int to, long index, int tag) {
  return (int)(mt_seed((uint32_t)from, (uint32_t)to, (uint32_t)index,
                       (uint32_t)tag) &
               0x3fffffff);
}

static inline void mt_coll_fill(int* buf, long count, int from, int to,
                                int tag) {
  for (long i = 0; i < count; ++i) {
    buf[i] = mt_coll_value(from, to, i, tag);
  }
}

#define MT_COLL_CHECK(buf, count, from, to, tag, ...)                   \
  do {                                                                  \
    for (long mt_i_ = 0; mt_i_ < (long)(count); ++mt_i_) {              \
      const int mt_want_ = mt_coll_value((from), (to), mt_i_, (tag));   \
      if ((buf)[mt_i_] != mt_want_) {                                   \
        MT_FAIL(                                                        \
            "element %ld of the data from %d to %d is %d, expected %d " \
            "(%s)",                                                     \
            mt_i_, (int)(from), (int)(to), (buf)[mt_i_], mt_want_,      \
            __VA_ARGS__);                                               \
      }                                                                 \
    }                                                                   \
  } while (0)

// ---- a non-commutative user operation ----
//
// Elements are MPI_2INT pairs (a, b) standing for the affine map
// x -> a*x + b modulo 2^32; the operation composes maps,
// (a1, b1) op (a2, b2) = (a1*a2, a1*b2 + b1), which is associative but not
// commutative, so a reduction that combines in the wrong order gives a
// different pair.
typedef struct {
  int a;
  int b;
} MtAffine;

static inline MtAffine mt_affine_compose(MtAffine f, MtAffine g) {
  const uint32_t a = (uint32_t)f.a * (uint32_t)g.a;
  const uint32_t b = (uint32_t)f.a * (uint32_t)g.b + (uint32_t)f.b;
  MtAffine r = {(int)a, (int)b};
  return r;
}

static inline void mt_affine_op(void* in, void* inout, int* len,
                                MPI_Datatype* type) {
  MT_CHECK(*type == MPI_2INT, "the affine op got another datatype");
  const MtAffine* x = (const MtAffine*)in;
  MtAffine* y = (MtAffine*)inout;
  for (int i = 0; i < *len; ++i) {
    y[i] = mt_affine_compose(x[i], y[i]);
  }
}

// Rank r's element i: odd a, so no product collapses to zero.
static inline MtAffine mt_affine_value(int r, long i) {
  MtAffine v = {(int)(2 * ((r * 5 + i * 3) % 7) + 3), (int)(r * 11 + i % 13)};
  return v;
}

// value(first) op value(first+1) op ... op value(last - 1) at element i.
static inline MtAffine mt_affine_fold(int first, int last, long i) {
  MtAffine acc = {1, 0};
  for (int r = first; r < last; ++r) {
    acc = mt_affine_compose(acc, mt_affine_value(r, i));
  }
  return acc;
}

static inline void mt_affine_fill(MtAffine* buf, long count, int r) {
  for (long i = 0; i < count; ++i) {
    buf[i] = mt_affine_value(r, i);
  }
}

#define MT_AFFINE_CHECK(buf, count, first, last, ...)                     \
  do {                                                                    \
    for (long mt_i_ = 0; mt_i_ < (long)(count); ++mt_i_) {                \
      const MtAffine mt_w_ = mt_affine_fold((first), (last), mt_i_);      \
      if ((buf)[mt_i_].a != mt_w_.a || (buf)[mt_i_].b != mt_w_.b) {       \
        MT_FAIL(                                                          \
            "element %ld is (%d, %d), expected the fold of ranks %d..%d " \
            "(%d, %d) (%s)",                                              \
            mt_i_, (buf)[mt_i_].a, (buf)[mt_i_].b, (int)(first),          \
            (int)(last)-1, mt_w_.a, mt_w_.b, __VA_ARGS__);                \
      }                                                                   \
    }                                                                     \
  } while (0)

#endif  // SHMPI_TESTS_SUPPORT_MT_COLL_H_
