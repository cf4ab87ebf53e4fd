// SPDX-License-Identifier: MIT
// What the seeded random collective sequences share (tests/mpi/coll/
// random_sequence.c, random_inter.c): the reduction ops with a
// non-commutative user op, inputs every member can compute, counts around
// the protocol boundaries, and the loop that keeps up to kMtMaxInFlight
// nonblocking calls in flight and completes them in each rank's own order.
// Plain C11 over standard MPI, like mpitest.h.
#ifndef SHMPI_TESTS_SUPPORT_MT_RANDOM_COLL_H_
#define SHMPI_TESTS_SUPPORT_MT_RANDOM_COLL_H_

#include "mpitest.h"

enum {
  kMtMaxInFlight = 6,
  kMtMaxTotal = 256 * 1024,  // ints in a call's largest buffer
};

// The collectives the sequences draw, in the order random_sequence.c
// draws them (its seeds' sequences depend on it): it draws the first
// kMtIntraKinds, random_inter.c those MPI defines on intercommunicators.
typedef enum {
  kMtBarrier,
  kMtBcast,
  kMtReduce,
  kMtAllreduce,
  kMtGather,
  kMtGatherv,
  kMtScatter,
  kMtScatterv,
  kMtAllgather,
  kMtAllgatherv,
  kMtAlltoall,
  kMtAlltoallv,
  kMtReduceScatterBlock,
  kMtReduceScatter,
  kMtScan,
  kMtExscan,
  kMtAlltoallw,
  kMtKinds
} MtKind;
enum { kMtIntraKinds = kMtAlltoallw };

static inline const char* mt_kind_name(MtKind kind) {
  static const char* const kNames[kMtKinds] = {"barrier",
                                               "bcast",
                                               "reduce",
                                               "allreduce",
                                               "gather",
                                               "gatherv",
                                               "scatter",
                                               "scatterv",
                                               "allgather",
                                               "allgatherv",
                                               "alltoall",
                                               "alltoallv",
                                               "reduce_scatter_block",
                                               "reduce_scatter",
                                               "scan",
                                               "exscan",
                                               "alltoallw"};
  return kNames[kind];
}

typedef enum { kMtSum, kMtMax, kMtBxor, kMtProd, kMtAffine, kMtOps } MtOpKind;

static inline int mt_pick(uint64_t* state, int n) {
  return (int)mt_random_below(state, (unsigned)n);
}

// A random order of 0..n-1.
static inline void mt_shuffle(uint64_t* state, int* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = i;
  }
  for (int i = n - 1; i > 0; --i) {
    const int j = mt_pick(state, i + 1);
    const int t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
}

// x -> a x + b (mod 256), a odd, packed as a << 8 | b. Composition is
// associative and not commutative: the reduction order shows.
static inline int mt_affine8_compose(int first, int second) {
  // The result applies `first`, then `second`.
  const int a1 = (first >> 8) & 0xff, b1 = first & 0xff;
  const int a2 = (second >> 8) & 0xff, b2 = second & 0xff;
  return ((a1 * a2) & 0xff) << 8 | ((a2 * b1 + b2) & 0xff);
}
// MPI's user function computes inout = in op inout, in rank order:
// in holds lower ranks' values.
static inline void mt_affine8_user(void* in, void* inout, int* len,
                                   MPI_Datatype* type) {
  (void)type;
  const int* a = (const int*)in;
  int* b = (int*)inout;
  for (int i = 0; i < *len; ++i) {
    b[i] = mt_affine8_compose(a[i], b[i]);
  }
}

// The user op of kMtAffine, made by mt_random_ops_create.
static MPI_Op mt_affine8_op;

static inline void mt_random_ops_create(void) {
  MT_CHECK_MPI(MPI_Op_create(mt_affine8_user, 0, &mt_affine8_op));
}
static inline void mt_random_ops_free(void) {
  MT_CHECK_MPI(MPI_Op_free(&mt_affine8_op));
}

static inline MPI_Op mt_mpi_op(MtOpKind op) {
  switch (op) {
    case kMtSum:
      return MPI_SUM;
    case kMtMax:
      return MPI_MAX;
    case kMtBxor:
      return MPI_BXOR;
    case kMtProd:
      return MPI_PROD;
    default:
      return mt_affine8_op;
  }
}
static inline int mt_apply(MtOpKind op, int lower, int higher) {
  switch (op) {
    case kMtSum:
      return lower + higher;
    case kMtMax:
      return lower > higher ? lower : higher;
    case kMtBxor:
      return lower ^ higher;
    case kMtProd:
      return lower * higher;
    default:
      return mt_affine8_compose(lower, higher);
  }
}

// Member r's input element i of step s (for alltoall, i runs over all of
// its blocks). Small values: sums and products of up to 8 members fit.
static inline int mt_input(MtOpKind op, long s, int r, long i) {
  uint64_t x = (uint64_t)s * 0x100000001b3ull ^ (uint64_t)r << 40 ^
               (uint64_t)i * 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 32;
  switch (op) {
    case kMtProd:
      return 1 + (int)(x % 3);
    case kMtAffine:
      return (int)((x & 0x7f) * 2 + 1) << 8 | (int)((x >> 8) & 0xff);
    default:
      return (int)(x % 1000);
  }
}

// The reduction of members first + lo .. first + hi - 1's element i of step
// s, in rank order.
static inline int mt_reduced(MtOpKind op, long s, int first, int lo, int hi,
                             long i) {
  int v = mt_input(op, s, first + lo, i);
  for (int r = lo + 1; r < hi; ++r) {
    v = mt_apply(op, v, mt_input(op, s, first + r, i));
  }
  return v;
}

// A count per member around the protocol boundaries, halved until
// `members` of them fit in kMtMaxTotal.
static inline int mt_pick_count(uint64_t* state, int members) {
  static const int kEdges[] = {0,    1,    2,    3,    7,     8,    14,
                               15,   16,   100,  250,  256,   257,  1000,
                               2048, 4096, 8191, 8192, 16384, 65536};
  int c = kEdges[mt_pick(state, (int)(sizeof kEdges / sizeof kEdges[0]))];
  while ((long)c * members > kMtMaxTotal) {
    c /= 2;
  }
  return c;
}

static inline int* mt_alloc_ints(long n, int alloc_mem) {
  return (int*)mt_alloc(sizeof(int) * (size_t)(n > 0 ? n : 1), alloc_mem);
}

// Total ints of the v-forms' vectors and their displacements: member r's
// block at a displacement leaving a gap of r % 3 ints before it.
static inline long mt_place(const int* counts, int size, int* displs) {
  long at = 0;
  for (int r = 0; r < size; ++r) {
    at += r % 3;
    displs[r] = (int)at;
    at += counts[r];
  }
  return at;
}

// Whether the MPI library is MPICH of a version starting with `version`
// (e.g. "4.0"), for working around its known bugs.
static inline int mt_is_mpich(const char* version) {
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int library_len = 0;
  MT_CHECK_MPI(MPI_Get_library_version(library, &library_len));
  char wanted[64];
  snprintf(wanted, sizeof wanted, "MPICH Version:\t%s", version);
  return strstr(library, wanted) != NULL;
}

// ---- calls in flight ----
//
// A sequence of `steps` collectives whose nonblocking calls stay in flight
// in up to kMtMaxInFlight slots across later calls. Every rank draws the
// calls from the same `shared` state; `local` (this rank's own) decides
// when and in which order the calls in flight complete (MPI 4.0 §6.12:
// only the order of starting must agree).
typedef struct MtFlight MtFlight;
struct MtFlight {
  // Draws step `step`'s call from `shared` and starts it, keeping what it
  // needs in `record` (a slot's) and its request in `request`
  // (MPI_REQUEST_NULL for a blocking call); returns whether the call is
  // nonblocking.
  int (*start)(void* record, MPI_Request* request, long step, uint64_t* shared);
  // Checks the completed call of a slot's `record` and frees what it holds.
  void (*finish)(void* record);
  void* records;  // the test's record of each slot, kMtMaxInFlight of them
  size_t record_size;
  // 0: complete with MPI_Wait on one call at a time. 1: also MPI_Waitany,
  // MPI_Waitall and MPI_Testall loops.
  int mixed_completions;
  int active[kMtMaxInFlight];
  MPI_Request requests[kMtMaxInFlight];
};

static inline void* mt_flight_record(MtFlight* f, int slot) {
  return (char*)f->records + (size_t)slot * f->record_size;
}
static inline void mt_flight_finish(MtFlight* f, int slot) {
  f->finish(mt_flight_record(f, slot));
  f->active[slot] = 0;
}

// Completes one call in flight, `which` picking it.
static inline void mt_flight_complete_one(MtFlight* f, int which) {
  int active[kMtMaxInFlight];
  int k = 0;
  for (int i = 0; i < kMtMaxInFlight; ++i) {
    if (f->active[i]) {
      active[k++] = i;
    }
  }
  if (k == 0) {
    return;
  }
  const int slot = active[which % k];
  MT_CHECK_MPI(MPI_Wait(&f->requests[slot], MPI_STATUS_IGNORE));
  mt_flight_finish(f, slot);
}

// Checks and frees every call in flight, all of whose requests completed.
static inline void mt_flight_finish_all(MtFlight* f) {
  for (int i = 0; i < kMtMaxInFlight; ++i) {
    if (f->active[i]) {
      MT_CHECK(f->requests[i] == MPI_REQUEST_NULL,
               "a completed request is not MPI_REQUEST_NULL");
      mt_flight_finish(f, i);
    }
  }
}

// Completes some of the calls in flight, in a way `local` picks.
static inline void mt_flight_complete_some(MtFlight* f, uint64_t* local) {
  const int how = f->mixed_completions ? mt_pick(local, 4) : 0;
  if (how == 0) {
    mt_flight_complete_one(f, mt_pick(local, kMtMaxInFlight));
  } else if (how == 1) {
    int index = MPI_UNDEFINED;
    MT_CHECK_MPI(
        MPI_Waitany(kMtMaxInFlight, f->requests, &index, MPI_STATUS_IGNORE));
    if (index != MPI_UNDEFINED) {  // else nothing was in flight
      MT_CHECK(f->active[index], "MPI_Waitany completed an idle slot");
      mt_flight_finish(f, index);
    }
  } else if (how == 2) {
    MT_CHECK_MPI(MPI_Waitall(kMtMaxInFlight, f->requests, MPI_STATUSES_IGNORE));
    mt_flight_finish_all(f);
  } else {
    int done = 0;
    while (!done) {
      MT_CHECK_MPI(
          MPI_Testall(kMtMaxInFlight, f->requests, &done, MPI_STATUSES_IGNORE));
    }
    mt_flight_finish_all(f);
  }
}

// Runs the sequence: each step's call starts in a free slot (completing a
// call first when all are busy); afterwards, calls in flight complete
// now and then; at the end, all of them.
static inline void mt_flight_run(MtFlight* f, long steps, uint64_t* shared,
                                 uint64_t* local) {
  for (int i = 0; i < kMtMaxInFlight; ++i) {
    f->active[i] = 0;
    f->requests[i] = MPI_REQUEST_NULL;
  }
  for (long step = 0; step < steps; ++step) {
    int free_slot = -1;
    for (int pass = 0; pass < 2 && free_slot < 0; ++pass) {
      if (pass == 1) {
        mt_flight_complete_one(f, mt_pick(local, kMtMaxInFlight));
      }
      for (int i = 0; i < kMtMaxInFlight && free_slot < 0; ++i) {
        if (!f->active[i]) {
          free_slot = i;
        }
      }
    }
    f->active[free_slot] = 1;
    if (!f->start(mt_flight_record(f, free_slot), &f->requests[free_slot], step,
                  shared)) {
      mt_flight_finish(f, free_slot);
    }
    while (mt_pick(local, 3) == 0) {
      mt_flight_complete_some(f, local);
    }
  }
  for (int i = 0; i < kMtMaxInFlight; ++i) {
    mt_flight_complete_one(f, 0);
  }
}

#endif  // SHMPI_TESTS_SUPPORT_MT_RANDOM_COLL_H_
