// SPDX-License-Identifier: MIT
// Every collective over one set of buffers and arguments, callable in each
// of its forms: int or large-count (_c) arguments; blocking, nonblocking or
// persistent. A test runs the int blocking form as the reference and
// compares the others with it (tests/mpi/coll/large_count.c,
// persistent.c). Plain C11 over standard MPI.
//
// Data: `k` ints per member for the fixed-size forms; the v forms use
// per-member counts from 0 to k, at displacements in reverse member order
// with a one-int gap, so blocks do not simply follow each other. Values
// stay below 2^20, so MPI_SUM over a few ranks does not overflow.
#ifndef SHMPI_TESTS_SUPPORT_MT_FORMS_H_
#define SHMPI_TESTS_SUPPORT_MT_FORMS_H_

#include "mt_coll.h"

enum { MT_BLOCKING, MT_NONBLOCKING, MT_PERSISTENT };

// The per-member arrays, with int and with large-count types (the same
// values): v counts and displacements (gatherv, scatterv, allgatherv,
// reduce_scatter), alltoallv's send and receive counts and displacements,
// and the same displacements in bytes for alltoallw.
typedef struct {
  int *vcounts, *vdispls, *scounts, *sdispls, *rcounts, *rdispls, *sbytes,
      *rbytes;
} MtIntArrays;
typedef struct {
  MPI_Count *vcounts, *scounts, *rcounts;
  MPI_Aint *vdispls, *sdispls, *rdispls, *sbytes, *rbytes;
} MtLargeArrays;

enum { MT_FORMS_OWNED = 24 };

typedef struct {
  MPI_Comm comm;
  int rank, size, root;
  int k;       // elements per member in the fixed-size forms
  int mine;    // this member's v count
  size_t len;  // ints in each of send and recv
  int* send;
  int* recv;
  MtIntArrays ints;
  MtLargeArrays large;
  MPI_Datatype* types;  // alltoallw: MPI_INT for every member
  MPI_Info info;        // of the persistent forms
  int* ref_send;        // the reference run's buffers
  int* ref_recv;
  void* owned[MT_FORMS_OWNED];  // what mt_forms_free releases
  int owned_count;
} MtColl;

// Count of member j's block in the v forms; alltoallv's from -> to.
static inline int mt_forms_vcount(int j, int k) {
  return (j * 7 + 3) % (k + 1);
}
static inline int mt_forms_pair(int from, int to, int k) {
  return (from * 5 + to * 3 + 1) % (k + 1);
}

static inline void* mt_forms_alloc(MtColl* c, size_t bytes) {
  MT_ASSERT(c->owned_count < MT_FORMS_OWNED);
  c->owned[c->owned_count] = mt_malloc(bytes);
  return c->owned[c->owned_count++];
}

// One per-member array in both versions: element i is values[i] * scale.
static inline void mt_forms_array(MtColl* c, const long* values, long scale,
                                  int** narrow, MPI_Aint** wide_displs,
                                  MPI_Count** wide_counts) {
  const int n = c->size;
  *narrow = mt_forms_alloc(c, (size_t)n * sizeof(int));
  if (wide_displs != NULL) {
    *wide_displs = mt_forms_alloc(c, (size_t)n * sizeof(MPI_Aint));
  } else {
    *wide_counts = mt_forms_alloc(c, (size_t)n * sizeof(MPI_Count));
  }
  for (int i = 0; i < n; ++i) {
    (*narrow)[i] = (int)(values[i] * scale);
    if (wide_displs != NULL) {
      (*wide_displs)[i] = (MPI_Aint)(values[i] * scale);
    } else {
      (*wide_counts)[i] = (MPI_Count)(values[i] * scale);
    }
  }
}

// The per-member values before they become arrays: v counts and
// displacements, alltoallv's counts and displacements to and from j.
enum { MT_VC, MT_VD, MT_SC, MT_SD, MT_RC, MT_RD, MT_ARRAYS };

static inline void mt_forms_setup(MtColl* c, MPI_Comm comm, int k) {
  memset(c, 0, sizeof *c);
  c->comm = comm;
  MPI_Comm_rank(comm, &c->rank);
  MPI_Comm_size(comm, &c->size);
  const int n = c->size;
  c->root = n - 1;
  c->k = k;
  c->mine = mt_forms_vcount(c->rank, k);
  c->len = (size_t)n * (size_t)(k + 2) + 16;
  c->send = mt_forms_alloc(c, c->len * sizeof(int));
  c->recv = mt_forms_alloc(c, c->len * sizeof(int));
  c->ref_send = mt_forms_alloc(c, c->len * sizeof(int));
  c->ref_recv = mt_forms_alloc(c, c->len * sizeof(int));
  c->info = MPI_INFO_NULL;
  c->types = mt_forms_alloc(c, (size_t)n * sizeof(MPI_Datatype));
  long* v[MT_ARRAYS];
  for (int a = 0; a < MT_ARRAYS; ++a) {
    v[a] = mt_malloc((size_t)n * sizeof(long));
  }
  long voff = 0, soff = 0, roff = 0;
  for (int j = n - 1; j >= 0; --j) {
    v[MT_VC][j] = mt_forms_vcount(j, k);
    v[MT_VD][j] = voff;
    voff += v[MT_VC][j] + 1;
    v[MT_RC][j] = mt_forms_pair(j, c->rank, k);
    v[MT_RD][j] = roff;
    roff += v[MT_RC][j] + 1;
  }
  for (int j = 0; j < n; ++j) {
    v[MT_SC][j] = mt_forms_pair(c->rank, j, k);
    v[MT_SD][j] = soff;
    soff += v[MT_SC][j] + 1;
    c->types[j] = MPI_INT;
  }
  MtIntArrays* i = &c->ints;
  MtLargeArrays* w = &c->large;
  mt_forms_array(c, v[MT_VC], 1, &i->vcounts, NULL, &w->vcounts);
  mt_forms_array(c, v[MT_SC], 1, &i->scounts, NULL, &w->scounts);
  mt_forms_array(c, v[MT_RC], 1, &i->rcounts, NULL, &w->rcounts);
  mt_forms_array(c, v[MT_VD], 1, &i->vdispls, &w->vdispls, NULL);
  mt_forms_array(c, v[MT_SD], 1, &i->sdispls, &w->sdispls, NULL);
  mt_forms_array(c, v[MT_RD], 1, &i->rdispls, &w->rdispls, NULL);
  const long bytes = (long)sizeof(int);
  mt_forms_array(c, v[MT_SD], bytes, &i->sbytes, &w->sbytes, NULL);
  mt_forms_array(c, v[MT_RD], bytes, &i->rbytes, &w->rbytes, NULL);
  for (int a = 0; a < MT_ARRAYS; ++a) {
    free(v[a]);
  }
}

static inline void mt_forms_free(MtColl* c) {
  for (int a = 0; a < c->owned_count; ++a) {
    free(c->owned[a]);
  }
  c->owned_count = 0;
}

// Send data of iteration t; the receive buffer all -1.
static inline void mt_forms_fill(MtColl* c, int t) {
  for (size_t i = 0; i < c->len; ++i) {
    c->send[i] = mt_coll_value(c->rank, 0, (long)i, t) & 0xfffff;
    c->recv[i] = -1;
  }
}

#define MT_UNPAREN(...) __VA_ARGS__

#define MT_FORM_CALL(mode, req, Name, IName, Suffix, Args) \
  if ((mode) == MT_BLOCKING) {                             \
    return MPI_##Name##Suffix Args;                        \
  }                                                        \
  if ((mode) == MT_NONBLOCKING) {                          \
    return MPI_##IName##Suffix(MT_UNPAREN Args, req);      \
  }                                                        \
  return MPI_##Name##_init##Suffix(MT_UNPAREN Args, c->info, req);

// mt_call_<op>(c, large, mode, req) calls the collective with Args, in
// which `a` is c->large in the large-count forms and c->ints in the others.
#define MT_CASE(op, Name, IName, Args)                                        \
  static int mt_call_##op(MtColl* c, int large, int mode, MPI_Request* req) { \
    if (large) {                                                              \
      const MtLargeArrays a = c->large;                                       \
      (void)a;                                                                \
      MT_FORM_CALL(mode, req, Name, IName, _c, Args)                          \
    }                                                                         \
    const MtIntArrays a = c->ints;                                            \
    (void)a;                                                                  \
    MT_FORM_CALL(mode, req, Name, IName, , Args)                              \
  }

MT_CASE(bcast, Bcast, Ibcast, (c->send, c->k, MPI_INT, c->root, c->comm))
MT_CASE(reduce, Reduce, Ireduce,
        (c->send, c->recv, c->k, MPI_INT, MPI_SUM, c->root, c->comm))
MT_CASE(allreduce, Allreduce, Iallreduce,
        (c->send, c->recv, c->k, MPI_INT, MPI_SUM, c->comm))
MT_CASE(gather, Gather, Igather,
        (c->send, c->k, MPI_INT, c->recv, c->k, MPI_INT, c->root, c->comm))
MT_CASE(gatherv, Gatherv, Igatherv,
        (c->send, c->mine, MPI_INT, c->recv, a.vcounts, a.vdispls, MPI_INT,
         c->root, c->comm))
MT_CASE(scatter, Scatter, Iscatter,
        (c->send, c->k, MPI_INT, c->recv, c->k, MPI_INT, c->root, c->comm))
MT_CASE(scatterv, Scatterv, Iscatterv,
        (c->send, a.vcounts, a.vdispls, MPI_INT, c->recv, c->mine, MPI_INT,
         c->root, c->comm))
MT_CASE(allgather, Allgather, Iallgather,
        (c->send, c->k, MPI_INT, c->recv, c->k, MPI_INT, c->comm))
MT_CASE(allgatherv, Allgatherv, Iallgatherv,
        (c->send, c->mine, MPI_INT, c->recv, a.vcounts, a.vdispls, MPI_INT,
         c->comm))
MT_CASE(alltoall, Alltoall, Ialltoall,
        (c->send, c->k, MPI_INT, c->recv, c->k, MPI_INT, c->comm))
MT_CASE(alltoallv, Alltoallv, Ialltoallv,
        (c->send, a.scounts, a.sdispls, MPI_INT, c->recv, a.rcounts, a.rdispls,
         MPI_INT, c->comm))
MT_CASE(alltoallw, Alltoallw, Ialltoallw,
        (c->send, a.scounts, a.sbytes, c->types, c->recv, a.rcounts, a.rbytes,
         c->types, c->comm))
MT_CASE(reduce_scatter, Reduce_scatter, Ireduce_scatter,
        (c->send, c->recv, a.vcounts, MPI_INT, MPI_SUM, c->comm))
MT_CASE(reduce_scatter_block, Reduce_scatter_block, Ireduce_scatter_block,
        (c->send, c->recv, c->k, MPI_INT, MPI_SUM, c->comm))
MT_CASE(scan, Scan, Iscan, (c->send, c->recv, c->k, MPI_INT, MPI_SUM, c->comm))
MT_CASE(exscan, Exscan, Iexscan,
        (c->send, c->recv, c->k, MPI_INT, MPI_SUM, c->comm))

typedef int (*MtCallFn)(MtColl* c, int large, int mode, MPI_Request* req);
typedef struct {
  const char* name;
  MtCallFn call;
} MtCase;

#define MT_CASE_ENTRY(op) \
  { #op, mt_call_##op }
static const MtCase mt_cases[] = {
    MT_CASE_ENTRY(bcast),          MT_CASE_ENTRY(reduce),
    MT_CASE_ENTRY(allreduce),      MT_CASE_ENTRY(gather),
    MT_CASE_ENTRY(gatherv),        MT_CASE_ENTRY(scatter),
    MT_CASE_ENTRY(scatterv),       MT_CASE_ENTRY(allgather),
    MT_CASE_ENTRY(allgatherv),     MT_CASE_ENTRY(alltoall),
    MT_CASE_ENTRY(alltoallv),      MT_CASE_ENTRY(alltoallw),
    MT_CASE_ENTRY(reduce_scatter), MT_CASE_ENTRY(reduce_scatter_block),
    MT_CASE_ENTRY(scan),           MT_CASE_ENTRY(exscan),
};
enum { MT_CASE_COUNT = (int)(sizeof mt_cases / sizeof mt_cases[0]) };

// Whether element i of the receive buffer is defined after case `op`:
// exscan leaves rank 0's undefined.
static inline int mt_forms_recv_defined(const MtColl* c, const MtCase* op) {
  return !(op->call == mt_call_exscan && c->rank == 0);
}

// Runs case `op` in its int blocking form on iteration t's data, keeps
// both buffers as the reference, and fills the buffers for t again.
static inline void mt_forms_reference(MtColl* c, const MtCase* op, int t) {
  mt_forms_fill(c, t);
  MT_CHECK_MPI(op->call(c, 0, MT_BLOCKING, NULL));
  memcpy(c->ref_send, c->send, c->len * sizeof(int));
  memcpy(c->ref_recv, c->recv, c->len * sizeof(int));
  mt_forms_fill(c, t);
}

// Both buffers equal the reference (recv only where defined).
static inline void mt_forms_expect(const MtColl* c, const MtCase* op,
                                   const char* form) {
  const size_t bytes = c->len * sizeof(int);
  MT_CHECK(memcmp(c->send, c->ref_send, bytes) == 0,
           "%s (%s, k %d): send buffer differs from the reference", op->name,
           form, c->k);
  MT_CHECK(
      !mt_forms_recv_defined(c, op) || memcmp(c->recv, c->ref_recv, bytes) == 0,
      "%s (%s, k %d): receive buffer differs from the reference", op->name,
      form, c->k);
}

#endif  // SHMPI_TESTS_SUPPORT_MT_FORMS_H_
