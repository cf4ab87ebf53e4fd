// SPDX-License-Identifier: MIT
// Derived datatypes through the collectives: a vector with a stride, an
// indexed type with holes, a struct with padding, a resized type (extent
// changed), and a send type that differs from (but matches) the receive
// type (3 contiguous ints against a strided vector of 3 ints). Every
// receive buffer starts filled with a sentinel; after each call the whole
// buffer must equal the sentinel with the expected data unpacked into it
// (MPI_Unpack), so the gaps of the types must be untouched. Reductions:
// MPI_SUM on a vector of doubles and a contiguous of ints, a padded struct
// with a non-commutative user operation; reduce, allreduce,
// reduce_scatter_block and scan.
// args: [world|struct|vecsum] [b|nb] [big]: world: everything but the
// padded struct in the copying collectives (its own variant, struct:
// MPICH 4.0.2's MPI_Scatter truncates it) and MPI_SUM on the vector of
// doubles and the contiguous ints (vecsum: shmpi only, MPICH 4.0.2
// rejects predefined operations on derived datatypes with MPI_ERR_OP);
// nonblocking forms; sizes past 1 MiB per block (the bulk buffers then split
// elements of the non-contiguous types).
#include "mt_coll.h"

static MtCollArgs args;
static int rank, size;

#define CALL(b_call, nb_call)            \
  do {                                   \
    MPI_Request req_ = MPI_REQUEST_NULL; \
    if (args.nonblocking) {              \
      MT_CHECK_MPI(nb_call);             \
    } else {                             \
      MT_CHECK_MPI(b_call);              \
    }                                    \
    mt_coll_wait(&req_);                 \
  } while (0)

enum { kSentinel = 0xA5 };

typedef struct {
  const char* name;
  MPI_Datatype send;  // what senders use
  MPI_Datatype recv;  // what receivers use (same type signature per element)
} Case;

static MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb, extent;
  MT_CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
  return extent;
}

static int size_of(MPI_Datatype t) {
  int s;
  MT_CHECK_MPI(MPI_Type_size(t, &s));
  return s;
}

// Byte k of the packed data `from` sends to `to` (bytes: every type here
// is copied, not interpreted, by the copying collectives).
static unsigned char pattern(int from, int to, long k, int salt) {
  return (unsigned char)(mt_seed((uint32_t)from, (uint32_t)to,
                                 (uint32_t)(k / 4), (uint32_t)salt) >>
                         (8 * (k % 4)));
}

static unsigned char* packed_scratch;
static size_t packed_cap;

static void* packed_of(long bytes, int from, int to, int salt) {
  if ((size_t)bytes > packed_cap) {
    free(packed_scratch);
    packed_cap = (size_t)bytes;
    packed_scratch = mt_malloc(packed_cap);
  }
  for (long k = 0; k < bytes; ++k) {
    packed_scratch[k] = pattern(from, to, k, salt);
  }
  return packed_scratch;
}

// Writes the pattern (from, to, salt) into `count` elements of `t` at
// `base`, leaving the gaps as they are.
static void put(MPI_Datatype t, void* base, int count, int from, int to,
                int salt) {
  const long bytes = (long)size_of(t) * count;
  void* p = packed_of(bytes, from, to, salt);
  int pos = 0;
  MT_CHECK_MPI(MPI_Unpack(p, (int)bytes, &pos, base, count, t, MPI_COMM_SELF));
}

// A buffer of `n` elements of `t` (plus a margin), all sentinel.
static unsigned char* buffer(MPI_Datatype t, long n, size_t* bytes) {
  *bytes = (size_t)(extent_of(t) * n) + 64;
  unsigned char* b = mt_malloc(*bytes);
  memset(b, kSentinel, *bytes);
  return b;
}

static void expect_equal(const unsigned char* got, const unsigned char* want,
                         size_t bytes, const char* what, const char* name) {
  for (size_t i = 0; i < bytes; ++i) {
    if (got[i] != want[i]) {
      MT_FAIL(
          "%s with %s: byte %zu of the receive buffer is 0x%02x, "
          "expected 0x%02x",
          what, name, i, got[i], want[i]);
    }
  }
}

// Counts of the v-forms: member r gets c + r elements, in reverse order of
// r with one element of gap between blocks.
static void v_layout(int n, int c, int* counts, int* displs) {
  int off = 0;
  for (int r = n - 1; r >= 0; --r) {
    counts[r] = c + r;
    displs[r] = off;
    off += counts[r] + 1;
  }
}
static int v_total(int n, int c) { return n * (c + 1) + n * (n - 1) / 2; }

static void copying(const Case* k, int c, int salt) {
  const MPI_Aint sx = extent_of(k->send), rx = extent_of(k->recv);
  int counts[16], displs[16], bdispls[16], scounts[16], sdispls[16];
  MPI_Datatype stypes[16], rtypes[16];
  // Room for the v-forms and for alltoallv's c / 2 + rank + j blocks.
  const int vt = v_total(size, c) + 2 * size * size;
  size_t sb, rb, wb;
  unsigned char* s = buffer(k->send, (long)vt, &sb);
  unsigned char* r = buffer(k->recv, (long)vt, &rb);
  unsigned char* w = buffer(k->recv, (long)vt, &wb);
  for (int root = 0; root < size; ++root) {
    if (!mt_coll_root_used(root, size)) {
      continue;
    }
    // bcast: the root's data in its send type, the others' in their
    // receive type.
    {
      const int me = rank == root;
      MPI_Datatype t = me ? k->send : k->recv;
      unsigned char* b = me ? s : r;
      memset(r, kSentinel, rb);
      memset(w, kSentinel, wb);
      if (me) {
        put(t, b, c, root, -1, salt);
      }
      CALL(MPI_Bcast(b, c, t, root, MPI_COMM_WORLD),
           MPI_Ibcast(b, c, t, root, MPI_COMM_WORLD, &req_));
      if (!me) {
        put(k->recv, w, c, root, -1, salt);
        expect_equal(r, w, rb, "bcast", k->name);
      }
    }
    // gather / gatherv.
    for (int v = 0; v < 2; ++v) {
      memset(r, kSentinel, rb);
      memset(w, kSentinel, wb);
      v_layout(size, c, counts, displs);
      const int mine = v ? counts[rank] : c;
      put(k->send, s, mine, rank, root, salt + v);
      if (v) {
        CALL(MPI_Gatherv(s, mine, k->send, r, counts, displs, k->recv, root,
                         MPI_COMM_WORLD),
             MPI_Igatherv(s, mine, k->send, r, counts, displs, k->recv, root,
                          MPI_COMM_WORLD, &req_));
      } else {
        CALL(MPI_Gather(s, c, k->send, r, c, k->recv, root, MPI_COMM_WORLD),
             MPI_Igather(s, c, k->send, r, c, k->recv, root, MPI_COMM_WORLD,
                         &req_));
      }
      if (rank == root) {
        for (int m = 0; m < size; ++m) {
          put(k->recv, w + (v ? displs[m] : m * c) * rx, v ? counts[m] : c, m,
              root, salt + v);
        }
        expect_equal(r, w, rb, v ? "gatherv" : "gather", k->name);
      }
    }
    // scatter / scatterv.
    for (int v = 0; v < 2; ++v) {
      memset(r, kSentinel, rb);
      memset(w, kSentinel, wb);
      v_layout(size, c, counts, displs);
      if (rank == root) {
        for (int m = 0; m < size; ++m) {
          put(k->send, s + (v ? displs[m] : m * c) * sx, v ? counts[m] : c,
              root, m, salt + 2 + v);
        }
      }
      const int mine = v ? counts[rank] : c;
      if (v) {
        CALL(MPI_Scatterv(s, counts, displs, k->send, r, mine, k->recv, root,
                          MPI_COMM_WORLD),
             MPI_Iscatterv(s, counts, displs, k->send, r, mine, k->recv, root,
                           MPI_COMM_WORLD, &req_));
      } else {
        CALL(MPI_Scatter(s, c, k->send, r, c, k->recv, root, MPI_COMM_WORLD),
             MPI_Iscatter(s, c, k->send, r, c, k->recv, root, MPI_COMM_WORLD,
                          &req_));
      }
      put(k->recv, w, mine, root, rank, salt + 2 + v);
      expect_equal(r, w, rb, v ? "scatterv" : "scatter", k->name);
    }
  }
  // allgather / allgatherv.
  for (int v = 0; v < 2; ++v) {
    memset(r, kSentinel, rb);
    memset(w, kSentinel, wb);
    v_layout(size, c, counts, displs);
    const int mine = v ? counts[rank] : c;
    put(k->send, s, mine, rank, -1, salt + 4 + v);
    if (v) {
      CALL(MPI_Allgatherv(s, mine, k->send, r, counts, displs, k->recv,
                          MPI_COMM_WORLD),
           MPI_Iallgatherv(s, mine, k->send, r, counts, displs, k->recv,
                           MPI_COMM_WORLD, &req_));
    } else {
      CALL(MPI_Allgather(s, c, k->send, r, c, k->recv, MPI_COMM_WORLD),
           MPI_Iallgather(s, c, k->send, r, c, k->recv, MPI_COMM_WORLD, &req_));
    }
    for (int m = 0; m < size; ++m) {
      put(k->recv, w + (v ? displs[m] : m * c) * rx, v ? counts[m] : c, m, -1,
          salt + 4 + v);
    }
    expect_equal(r, w, rb, v ? "allgatherv" : "allgather", k->name);
  }
  // alltoall / alltoallv / alltoallw: rank i sends c + i + j elements to j
  // in the v and w forms (so j receives c + i + j from i).
  for (int v = 0; v < 3; ++v) {
    memset(r, kSentinel, rb);
    memset(w, kSentinel, wb);
    const int each = c;
    int so = 0, ro = 0;
    for (int j = size - 1; j >= 0; --j) {
      scounts[j] = v == 0 ? each : (c / 2) / size + rank + j;
      counts[j] = v == 0 ? each : (c / 2) / size + j + rank;
      sdispls[j] = v == 0 ? j * each : so;
      displs[j] = v == 0 ? j * each : ro;
      bdispls[j] = displs[j] * (int)rx;
      stypes[j] = k->send;
      rtypes[j] = k->recv;
      so += scounts[j] + 1;
      ro += counts[j] + 1;
    }
    for (int j = 0; j < size; ++j) {
      put(k->send, s + sdispls[j] * sx, scounts[j], rank, j, salt + 6 + v);
    }
    if (v == 0) {
      CALL(MPI_Alltoall(s, each, k->send, r, each, k->recv, MPI_COMM_WORLD),
           MPI_Ialltoall(s, each, k->send, r, each, k->recv, MPI_COMM_WORLD,
                         &req_));
    } else if (v == 1) {
      CALL(MPI_Alltoallv(s, scounts, sdispls, k->send, r, counts, displs,
                         k->recv, MPI_COMM_WORLD),
           MPI_Ialltoallv(s, scounts, sdispls, k->send, r, counts, displs,
                          k->recv, MPI_COMM_WORLD, &req_));
    } else {
      int sbd[16];
      for (int j = 0; j < size; ++j) {
        sbd[j] = sdispls[j] * (int)sx;
      }
      CALL(MPI_Alltoallw(s, scounts, sbd, stypes, r, counts, bdispls, rtypes,
                         MPI_COMM_WORLD),
           MPI_Ialltoallw(s, scounts, sbd, stypes, r, counts, bdispls, rtypes,
                          MPI_COMM_WORLD, &req_));
    }
    for (int j = 0; j < size; ++j) {
      put(k->recv, w + displs[j] * rx, counts[j], j, rank, salt + 6 + v);
    }
    expect_equal(r, w, rb,
                 v == 0   ? "alltoall"
                 : v == 1 ? "alltoallv"
                          : "alltoallw",
                 k->name);
  }
  free(w);
  free(r);
  free(s);
}

// ---- reductions ----

// A padded struct and a non-commutative operation on it:
// (v1, p1) op (v2, p2) = (v1 * p2 + v2, p1 * p2), digits in base p.
typedef struct {
  char pad0;
  int v;
  double p;
} Digit;

static void digit_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const Digit* a = in;
  Digit* b = inout;
  for (int i = 0; i < *len; ++i) {
    b[i].v = a[i].v * (int)b[i].p + b[i].v;
    b[i].p = a[i].p * b[i].p;
  }
}

static int digit_of(int r, long i) { return (int)((r + i) % 3); }
// The fold of ranks [first, last) at element i.
static int digits(int first, int last, long i) {
  int v = 0;
  for (int r = first; r < last; ++r) {
    v = v * 3 + digit_of(r, i);
  }
  return v;
}

static double dval(int r, long i) { return (double)(r + 1) + 0.5 * (i % 64); }
static double dsum(int first, int last, long i) {
  double s = 0;
  for (int r = first; r < last; ++r) {
    s += dval(r, i);
  }
  return s;
}

// Vector of doubles: 2 doubles at stride 3 per element.
static void reductions(MPI_Datatype vecd, MPI_Datatype int4, MPI_Datatype digit,
                       MPI_Op op, long c, int vec) {
  const MPI_Aint vx = extent_of(vecd), ix = extent_of(int4),
                 gx = extent_of(digit);
  const long n = c * size;  // reduce_scatter_block input
  double* ds = mt_malloc((size_t)(vx * n) + 64);
  double* dr = mt_malloc((size_t)(vx * n) + 64);
  int* is = mt_malloc((size_t)(ix * n) + 64);
  int* ir = mt_malloc((size_t)(ix * n) + 64);
  Digit* gs = mt_malloc((size_t)(gx * n) + 64);
  Digit* gr = mt_malloc((size_t)(gx * n) + 64);
  const long dstride = (long)(vx / (MPI_Aint)sizeof(double));  // 4
  for (long e = 0; e < n; ++e) {
    for (int d = 0; d < 2; ++d) {
      ds[e * dstride + d * 3] = dval(rank, 2 * e + d);
    }
    for (int d = 0; d < 4; ++d) {
      is[e * 4 + d] = rank * 7 + (int)((e * 4 + d) % 1000);
    }
    gs[e].v = digit_of(rank, e);
    gs[e].p = 3.0;
  }
  // reduce at root 0 and at the last rank, allreduce, reduce_scatter_block,
  // scan.
  for (int kind = 0; kind < 5; ++kind) {
    const int root = kind == 0 ? 0 : size - 1;
    const long count = c;
    memset(dr, kSentinel, (size_t)(vx * n) + 64);
    memset(ir, kSentinel, (size_t)(ix * n) + 64);
    memset(gr, kSentinel, (size_t)(gx * n) + 64);
    const char* what = kind < 2    ? "reduce"
                       : kind == 2 ? "allreduce"
                       : kind == 3 ? "reduce_scatter_block"
                                   : "scan";
    MPI_Datatype types[3] = {vecd, int4, digit};
    MPI_Op ops[3] = {MPI_SUM, MPI_SUM, op};
    void* sends[3] = {ds, is, gs};
    void* recvs[3] = {dr, ir, gr};
    for (int t = vec ? 0 : 2; t < 3; ++t) {
      if (kind < 2) {
        CALL(MPI_Reduce(sends[t], recvs[t], (int)count, types[t], ops[t], root,
                        MPI_COMM_WORLD),
             MPI_Ireduce(sends[t], recvs[t], (int)count, types[t], ops[t], root,
                         MPI_COMM_WORLD, &req_));
      } else if (kind == 2) {
        CALL(MPI_Allreduce(sends[t], recvs[t], (int)count, types[t], ops[t],
                           MPI_COMM_WORLD),
             MPI_Iallreduce(sends[t], recvs[t], (int)count, types[t], ops[t],
                            MPI_COMM_WORLD, &req_));
      } else if (kind == 3) {
        CALL(MPI_Reduce_scatter_block(sends[t], recvs[t], (int)count, types[t],
                                      ops[t], MPI_COMM_WORLD),
             MPI_Ireduce_scatter_block(sends[t], recvs[t], (int)count, types[t],
                                       ops[t], MPI_COMM_WORLD, &req_));
      } else {
        CALL(MPI_Scan(sends[t], recvs[t], (int)count, types[t], ops[t],
                      MPI_COMM_WORLD),
             MPI_Iscan(sends[t], recvs[t], (int)count, types[t], ops[t],
                       MPI_COMM_WORLD, &req_));
      }
    }
    if (kind < 2 && rank != root) {
      continue;
    }
    const int last = kind == 4 ? rank + 1 : size;
    const long first_e = kind == 3 ? rank * c : 0;  // element of the input
    unsigned char sentinel[8];
    memset(sentinel, kSentinel, sizeof sentinel);
    for (long e = 0; e < count; ++e) {
      const long at = first_e + e;
      for (int d = 0; d < 4 && vec; ++d) {
        const double* got = &dr[e * dstride + d];
        if (d == 0 || d == 3) {
          const double want = dsum(0, last, 2 * at + (d == 3));
          MT_CHECK(*got == want,
                   "%s vector of doubles: element %ld.%d is %g, "
                   "expected %g",
                   what, e, d, *got, want);
        } else {
          MT_CHECK(memcmp(got, sentinel, sizeof *got) == 0,
                   "%s vector of doubles: the gap after element %ld was "
                   "written",
                   what, e);
        }
      }
      for (int d = 0; d < 4 && vec; ++d) {
        long want = 0;
        for (int q = 0; q < last; ++q) {
          want += q * 7 + (int)((at * 4 + d) % 1000);
        }
        MT_CHECK(ir[e * 4 + d] == (int)want,
                 "%s contiguous ints: element %ld.%d is %d, expected %ld", what,
                 e, d, ir[e * 4 + d], want);
      }
      const int want = digits(0, last, at);
      MT_CHECK(gr[e].v == want,
               "%s struct with user op: element %ld is %d, "
               "expected %d",
               what, e, gr[e].v, want);
      MT_CHECK(memcmp(&gr[e].pad0, sentinel, 1) == 0 &&
                   memcmp((char*)&gr[e].pad0 + 1, sentinel, 3) == 0,
               "%s struct: padding of element %ld was written", what, e);
    }
    // Beyond the result: untouched.
    const unsigned char* tail = (const unsigned char*)dr + vx * count;
    for (int b = 0; b < 64 && vec; ++b) {
      MT_CHECK(tail[b] == kSentinel, "%s wrote past its result", what);
    }
  }
  free(gr);
  free(gs);
  free(ir);
  free(is);
  free(dr);
  free(ds);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  args = mt_coll_args(argc, argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= 16, "too many ranks for this test");

  MPI_Datatype vecd, idx, st, st_r, res, three, vec3, int4, digit, digit_r;
  MT_CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &vecd));  // extent 4 d
  const int ibl[] = {2, 1}, idp[] = {0, 4};
  MT_CHECK_MPI(MPI_Type_indexed(2, ibl, idp, MPI_INT, &idx));  // hole at 2-3
  {
    // struct { char; double; int } with its C padding: data 13 of 24 bytes.
    struct S {
      char c;
      double d;
      int i;
    };
    const int bl[] = {1, 1, 1};
    const MPI_Aint dp[] = {offsetof(struct S, c), offsetof(struct S, d),
                           offsetof(struct S, i)};
    const MPI_Datatype ty[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MT_CHECK_MPI(MPI_Type_create_struct(3, bl, dp, ty, &st));
    MT_CHECK_MPI(MPI_Type_create_resized(st, 0, sizeof(struct S), &st_r));
  }
  MT_CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &res));
  MT_CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
  MT_CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec3));
  MT_CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &int4));
  {
    const int bl[] = {1, 1};
    const MPI_Aint dp[] = {offsetof(Digit, v), offsetof(Digit, p)};
    const MPI_Datatype ty[] = {MPI_INT, MPI_DOUBLE};
    MT_CHECK_MPI(MPI_Type_create_struct(2, bl, dp, ty, &digit));
    MT_CHECK_MPI(MPI_Type_create_resized(digit, 0, sizeof(Digit), &digit_r));
  }
  MPI_Datatype all[] = {vecd, idx, st_r, res, three, vec3, int4, digit_r};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    MT_CHECK_MPI(MPI_Type_commit(&all[i]));
  }
  vecd = all[0];
  idx = all[1];
  st_r = all[2];
  res = all[3];
  three = all[4];
  vec3 = all[5];
  int4 = all[6];
  digit_r = all[7];
  const Case cases[] = {
      {"vector of doubles", vecd, vecd},
      {"indexed with holes", idx, idx},
      {"padded struct", st_r, st_r},
      {"resized int", res, res},
      {"3 ints sent, vector received", three, vec3},
      {"vector sent, 3 ints received", vec3, three},
  };
  // Element counts: a few, then past 1 MiB of packed data per block.
  const int small_counts[] = {0, 1, 7, 5000};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    // The padded struct only in its own variant (MPICH 4.0.2 fails it).
    if ((strcmp(args.comm_kind, "struct") == 0) != (cases[k].send == st_r)) {
      continue;
    }
    for (int i = 0; i < 4; ++i) {
      copying(&cases[k], small_counts[i], (int)(k * 100 + i * 10));
    }
    if (args.big) {
      const int bytes = size_of(cases[k].send);
      copying(&cases[k], (1 << 20) / bytes + 3, (int)(k * 100 + 90));
    }
  }
  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(digit_op, 0, &op));
  if (strcmp(args.comm_kind, "struct") != 0) {
    const int vec = strcmp(args.comm_kind, "vecsum") == 0;
    reductions(vecd, int4, digit_r, op, 0, vec);
    reductions(vecd, int4, digit_r, op, 1, vec);
    reductions(vecd, int4, digit_r, op, 1000, vec);
    if (args.big) {
      reductions(vecd, int4, digit_r, op, (1 << 20) / 16 + 5, vec);
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&op));
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    MT_CHECK_MPI(MPI_Type_free(&all[i]));
  }
  MT_CHECK_MPI(MPI_Type_free(&st));
  MT_CHECK_MPI(MPI_Type_free(&digit));
  MPI_Finalize();
  return 0;
}
