// SPDX-License-Identifier: MIT
// Collectives on an intercommunicator (MPI 4.0 §6.2.2 and each call's
// intercommunicator paragraph), between the even and the odd world ranks:
//  - rooted calls: the root passes MPI_ROOT, the rest of its group
//    MPI_PROC_NULL, the other group the root's rank in the root's group;
//    data move between the groups only (bcast, gather(v), scatter(v),
//    reduce with a non-commutative op: the remote group's rank order);
//  - allgather(v), alltoall(v,w): each process gets the remote group's
//    data; allreduce, reduce_scatter_block: the remote group's reduction;
//  - barrier.
//  - dtype: derived datatypes on either side (a strided int type against
//    contiguous ints; a pair type with a hole and a user operation);
//  - overlap: several nonblocking collectives in flight at once;
//  - inplace: MPI_IN_PLACE is an error on intercommunicators
//    (MPI_ERR_BUFFER, as MPICH); inplace_all: also in the calls MPICH does
//    not check.
// Element counts 0, 1, 1000 and, with `big`, 270000 (past 1 MiB).
// args: FAMILY b|nb [big], FAMILY one of barrier bcast gather scatter
// allgather alltoall reduce allreduce reduce_scatter dtype overlap inplace
// inplace_all.
// Needs at least 2 ranks.
#include "mt_coll.h"

static MtCollArgs args;
static MPI_Comm comm;
static int rank, lsize, rsize, group;  // group: 0 evens, 1 odds
static const long all_counts[] = {0, 1, 1000, 270000};
static long max_count = 1000;
static int ncounts = 3;

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

// Who takes part in a rooted call: the root's MPI_ROOT, MPI_PROC_NULL, or
// the remote root's rank.
static int root_arg(int root_group, int root) {
  if (group != root_group) {
    return root;
  }
  return rank == root ? MPI_ROOT : MPI_PROC_NULL;
}

// A process id unique across both groups, for data patterns.
static int gid(int g, int r) { return g * 1000 + r; }

static void rooted(const char* family) {
  const long* counts = all_counts;
  int* send = mt_malloc((size_t)(max_count + 16) * 16 * sizeof(int));
  int* recv = mt_malloc((size_t)(max_count + 16) * 16 * sizeof(int));
  int* vc = mt_malloc(16 * sizeof(int));
  int* vd = mt_malloc(16 * sizeof(int));
  int tag = 0;
  for (int c = 0; c < ncounts; ++c) {
    const long count = counts[c];
    for (int root_group = 0; root_group < 2; ++root_group) {
      const int root_size = root_group == group ? lsize : rsize;
      for (int root = 0;
           root<root_size; root += root_size - 1> 0 ? root_size - 1 : 1) {
        ++tag;
        const int r_arg = root_arg(root_group, root);
        const int am_root = r_arg == MPI_ROOT;
        const int other = group != root_group;  // the non-root group
        if (strcmp(family, "bcast") == 0) {
          if (am_root) {
            mt_coll_fill(send, count, gid(root_group, root), -1, tag);
          }
          CALL(MPI_Bcast(am_root ? send : recv, (int)count, MPI_INT, r_arg,
                         comm),
               MPI_Ibcast(am_root ? send : recv, (int)count, MPI_INT, r_arg,
                          comm, &req_));
          if (other) {
            MT_COLL_CHECK(recv, count, gid(root_group, root), -1, tag,
                          "intercomm bcast");
          }
        } else if (strcmp(family, "gather") == 0) {
          mt_coll_fill(send, count, gid(group, rank), root, tag);
          CALL(MPI_Gather(send, (int)count, MPI_INT, recv, (int)count, MPI_INT,
                          r_arg, comm),
               MPI_Igather(send, (int)count, MPI_INT, recv, (int)count, MPI_INT,
                           r_arg, comm, &req_));
          if (am_root) {
            for (int r = 0; r < rsize; ++r) {
              MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count,
                            gid(1 - group, r), root, tag, "intercomm gather");
            }
          }
          // gatherv: remote rank r sends count + r ints, reverse order.
          int off = 0;
          for (int r = rsize - 1; r >= 0; --r) {
            vc[r] = (int)count + r;
            vd[r] = off;
            off += vc[r] + 1;
          }
          mt_coll_fill(send, count + rank, gid(group, rank), root, tag + 500);
          CALL(MPI_Gatherv(send, (int)count + rank, MPI_INT, recv, vc, vd,
                           MPI_INT, r_arg, comm),
               MPI_Igatherv(send, (int)count + rank, MPI_INT, recv, vc, vd,
                            MPI_INT, r_arg, comm, &req_));
          if (am_root) {
            for (int r = 0; r < rsize; ++r) {
              MT_COLL_CHECK(recv + vd[r], vc[r], gid(1 - group, r), root,
                            tag + 500, "intercomm gatherv");
            }
          }
        } else if (strcmp(family, "scatter") == 0) {
          if (am_root) {
            for (int r = 0; r < rsize; ++r) {
              mt_coll_fill(send + (size_t)r * (size_t)count, count,
                           gid(group, rank), r, tag);
            }
          }
          CALL(MPI_Scatter(send, (int)count, MPI_INT, recv, (int)count, MPI_INT,
                           r_arg, comm),
               MPI_Iscatter(send, (int)count, MPI_INT, recv, (int)count,
                            MPI_INT, r_arg, comm, &req_));
          if (other) {
            MT_COLL_CHECK(recv, count, gid(root_group, root), rank, tag,
                          "intercomm scatter");
          }
          int off = 0;
          for (int r = rsize - 1; r >= 0; --r) {
            vc[r] = (int)count + r;
            vd[r] = off;
            off += vc[r] + 1;
          }
          if (am_root) {
            for (int r = 0; r < rsize; ++r) {
              mt_coll_fill(send + vd[r], vc[r], gid(group, rank), r, tag + 500);
            }
          }
          CALL(MPI_Scatterv(send, vc, vd, MPI_INT, recv, (int)count + rank,
                            MPI_INT, r_arg, comm),
               MPI_Iscatterv(send, vc, vd, MPI_INT, recv, (int)count + rank,
                             MPI_INT, r_arg, comm, &req_));
          if (other) {
            MT_COLL_CHECK(recv, count + rank, gid(root_group, root), rank,
                          tag + 500, "intercomm scatterv");
          }
        } else {  // reduce, with the non-commutative op
          MPI_Op op;
          MT_CHECK_MPI(MPI_Op_create(mt_affine_op, 0, &op));
          MtAffine* a = (MtAffine*)send;
          MtAffine* b = (MtAffine*)recv;
          mt_affine_fill(a, count, rank);
          CALL(MPI_Reduce(a, b, (int)count, MPI_2INT, op, r_arg, comm),
               MPI_Ireduce(a, b, (int)count, MPI_2INT, op, r_arg, comm, &req_));
          if (am_root) {
            MT_AFFINE_CHECK(b, count, 0, rsize, "intercomm reduce");
          }
          MT_CHECK_MPI(MPI_Op_free(&op));
        }
      }
    }
  }
  free(vd);
  free(vc);
  free(recv);
  free(send);
}

static void all_to_all(const char* family) {
  const long* counts = all_counts;
  int* send = mt_malloc((size_t)(max_count + 32) * 16 * sizeof(int));
  int* recv = mt_malloc((size_t)(max_count + 32) * 16 * sizeof(int));
  int* sc = mt_malloc(16 * sizeof(int));
  int* sd = mt_malloc(16 * sizeof(int));
  int* rc = mt_malloc(16 * sizeof(int));
  int* rd = mt_malloc(16 * sizeof(int));
  MPI_Datatype types[16];
  for (int i = 0; i < 16; ++i) {
    types[i] = MPI_INT;
  }
  for (int c = 0; c < ncounts; ++c) {
    const long count = counts[c];
    const int tag = c + 1;
    // The groups send different amounts: group g sends count + g.
    const long mine = count + group;
    const long theirs = count + 1 - group;
    if (strcmp(family, "allgather") == 0) {
      mt_coll_fill(send, mine, gid(group, rank), -1, tag);
      CALL(MPI_Allgather(send, (int)mine, MPI_INT, recv, (int)theirs, MPI_INT,
                         comm),
           MPI_Iallgather(send, (int)mine, MPI_INT, recv, (int)theirs, MPI_INT,
                          comm, &req_));
      for (int r = 0; r < rsize; ++r) {
        MT_COLL_CHECK(recv + (size_t)r * (size_t)theirs, theirs,
                      gid(1 - group, r), -1, tag, "intercomm allgather");
      }
      int off = 0;
      for (int r = rsize - 1; r >= 0; --r) {
        rc[r] = (int)theirs + r;
        rd[r] = off;
        off += rc[r] + 1;
      }
      mt_coll_fill(send, mine + rank, gid(group, rank), -1, tag + 50);
      CALL(MPI_Allgatherv(send, (int)mine + rank, MPI_INT, recv, rc, rd,
                          MPI_INT, comm),
           MPI_Iallgatherv(send, (int)mine + rank, MPI_INT, recv, rc, rd,
                           MPI_INT, comm, &req_));
      for (int r = 0; r < rsize; ++r) {
        MT_COLL_CHECK(recv + rd[r], rc[r], gid(1 - group, r), -1, tag + 50,
                      "intercomm allgatherv");
      }
    } else {  // alltoall, alltoallv, alltoallw
      for (int r = 0; r < rsize; ++r) {
        mt_coll_fill(send + (size_t)r * (size_t)count, count, gid(group, rank),
                     gid(1 - group, r), tag);
      }
      CALL(MPI_Alltoall(send, (int)count, MPI_INT, recv, (int)count, MPI_INT,
                        comm),
           MPI_Ialltoall(send, (int)count, MPI_INT, recv, (int)count, MPI_INT,
                         comm, &req_));
      for (int r = 0; r < rsize; ++r) {
        MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count,
                      gid(1 - group, r), gid(group, rank), tag,
                      "intercomm alltoall");
      }
      for (int w = 0; w < 2; ++w) {
        // Local rank i sends count + i + j ints to remote rank j.
        int so = 0, ro = 0;
        for (int r = rsize - 1; r >= 0; --r) {
          sc[r] = (int)count + rank + r;
          rc[r] = (int)count + r + rank;
          sd[r] = so * (w ? (int)sizeof(int) : 1);
          rd[r] = ro * (w ? (int)sizeof(int) : 1);
          mt_coll_fill(send + so, sc[r], gid(group, rank), gid(1 - group, r),
                       tag + 70 + w);
          so += sc[r] + 1;
          ro += rc[r] + 1;
        }
        if (w == 0) {
          CALL(
              MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm),
              MPI_Ialltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm,
                             &req_));
        } else {
          CALL(MPI_Alltoallw(send, sc, sd, types, recv, rc, rd, types, comm),
               MPI_Ialltoallw(send, sc, sd, types, recv, rc, rd, types, comm,
                              &req_));
        }
        for (int r = 0; r < rsize; ++r) {
          const int at = rd[r] / (w ? (int)sizeof(int) : 1);
          MT_COLL_CHECK(recv + at, rc[r], gid(1 - group, r), gid(group, rank),
                        tag + 70 + w,
                        w ? "intercomm alltoallw" : "intercomm alltoallv");
        }
      }
    }
  }
  free(rd);
  free(rc);
  free(sd);
  free(sc);
  free(recv);
  free(send);
}

static void reductions(const char* family) {
  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(mt_affine_op, 0, &op));
  const long* counts = all_counts;
  MtAffine* send = mt_malloc((size_t)(max_count + 16) * 16 * sizeof(MtAffine));
  MtAffine* recv = mt_malloc((size_t)(max_count + 16) * 16 * sizeof(MtAffine));
  for (int c = 0; c < ncounts; ++c) {
    const long count = counts[c];
    if (strcmp(family, "allreduce") == 0) {
      mt_affine_fill(send, count, rank);
      CALL(MPI_Allreduce(send, recv, (int)count, MPI_2INT, op, comm),
           MPI_Iallreduce(send, recv, (int)count, MPI_2INT, op, comm, &req_));
      MT_AFFINE_CHECK(recv, count, 0, rsize, "intercomm allreduce");
      long long v = gid(group, rank), sum = 0;
      CALL(MPI_Allreduce(&v, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm),
           MPI_Iallreduce(&v, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm, &req_));
      long long want = 0;
      for (int r = 0; r < rsize; ++r) {
        want += gid(1 - group, r);
      }
      MT_CHECK(sum == want, "intercomm allreduce sum %lld, expected %lld", sum,
               want);
    } else if (strcmp(family, "reduce_scatter") == 0 && lsize != rsize) {
      // reduce_scatter with groups of different sizes: both groups'
      // recvcounts add up to the same total t (each group's send vectors
      // hold t elements); local rank i gets elements [off_i, off_i +
      // rc_i) of the remote group's reduction.
      const long t = count * 2 + 5;
      int rc[16];
      long off = 0, mine_off = 0;
      for (int i = 0; i < lsize; ++i) {
        rc[i] = (int)(t / lsize + (i < t % lsize ? 1 : 0));
        if (i == rank) {
          mine_off = off;
        }
        off += rc[i];
      }
      mt_affine_fill(send, t, rank);
      CALL(MPI_Reduce_scatter(send, recv, rc, MPI_2INT, op, comm),
           MPI_Ireduce_scatter(send, recv, rc, MPI_2INT, op, comm, &req_));
      for (long i = 0; i < rc[rank]; ++i) {
        const MtAffine want = mt_affine_fold(0, rsize, mine_off + i);
        MT_CHECK(recv[i].a == want.a && recv[i].b == want.b,
                 "intercomm reduce_scatter element %ld", i);
      }
    } else {
      // reduce_scatter (equal groups: recvcounts[i] = count + i) and
      // reduce_scatter_block: group A's reduction is scattered over group B
      // in blocks of `count`. MPI 4.0 sizes the input by "the size of the
      // group", which is only unambiguous for groups of equal size (the
      // manifest runs this family at even rank counts). Element j of rank
      // r's vector: mt_affine_value(r, j).
      mt_affine_fill(send, count * rsize, rank);
      CALL(MPI_Reduce_scatter_block(send, recv, (int)count, MPI_2INT, op, comm),
           MPI_Ireduce_scatter_block(send, recv, (int)count, MPI_2INT, op, comm,
                                     &req_));
      for (long i = 0; i < count; ++i) {
        const MtAffine want = mt_affine_fold(0, rsize, (long)rank * count + i);
        MT_CHECK(recv[i].a == want.a && recv[i].b == want.b,
                 "intercomm reduce_scatter_block element %ld", i);
      }
      int rc[16];
      long off = 0, mine_off = 0;
      for (int i = 0; i < lsize; ++i) {
        rc[i] = (int)count + i;
        if (i == rank) {
          mine_off = off;
        }
        off += rc[i];
      }
      mt_affine_fill(send, off, rank);
      CALL(MPI_Reduce_scatter(send, recv, rc, MPI_2INT, op, comm),
           MPI_Ireduce_scatter(send, recv, rc, MPI_2INT, op, comm, &req_));
      for (long i = 0; i < rc[rank]; ++i) {
        const MtAffine want = mt_affine_fold(0, rsize, mine_off + i);
        MT_CHECK(recv[i].a == want.a && recv[i].b == want.b,
                 "intercomm reduce_scatter element %ld", i);
      }
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&op));
  free(recv);
  free(send);
}

// ---- derived datatypes ----

enum { kHole = -7 };

// Pairs (a, b) with a one-int hole after each: the affine maps again, in a
// layout only the datatype describes.
typedef struct {
  int a;
  int b;
  int hole;
} Holed;

static void holed_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const Holed* x = (const Holed*)in;
  Holed* y = (Holed*)inout;
  for (int i = 0; i < *len; ++i) {
    const MtAffine f = {x[i].a, x[i].b}, g = {y[i].a, y[i].b};
    const MtAffine r = mt_affine_compose(f, g);
    y[i].a = r.a;
    y[i].b = r.b;
  }
}

// Checks spread ints: element i at buf[2 * i], kHole between.
#define SPREAD_CHECK(buf, count, from, to, tag, what)                      \
  do {                                                                     \
    for (long i_ = 0; i_ < (long)(count); ++i_) {                          \
      const int want_ = mt_coll_value((from), (to), i_, (tag));            \
      MT_CHECK((buf)[2 * i_] == want_ && (buf)[2 * i_ + 1] == kHole,       \
               "%s: element %ld is %d (hole %d), expected %d", (what), i_, \
               (buf)[2 * i_], (buf)[2 * i_ + 1], want_);                   \
    }                                                                      \
  } while (0)

static void spread_fill(int* buf, long count, int from, int to, int tag) {
  for (long i = 0; i < count; ++i) {
    buf[2 * i] = mt_coll_value(from, to, i, tag);
    buf[2 * i + 1] = kHole;
  }
}

static void holes(int* buf, long n) {
  for (long i = 0; i < n; ++i) {
    buf[i] = kHole;
  }
}

static void dtype_family(void) {
  // Every other int: one int per element, extent two ints.
  MPI_Datatype spread, v, holed, h;
  MT_CHECK_MPI(MPI_Type_vector(1, 1, 2, MPI_INT, &v));
  MT_CHECK_MPI(MPI_Type_create_resized(v, 0, 2 * sizeof(int), &spread));
  MT_CHECK_MPI(MPI_Type_commit(&spread));
  MT_CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &h));
  MT_CHECK_MPI(MPI_Type_create_resized(h, 0, sizeof(Holed), &holed));
  MT_CHECK_MPI(MPI_Type_commit(&holed));
  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(holed_op, 0, &op));
  const size_t n = (size_t)(max_count + 16) * 16 * 2;
  int* send = mt_malloc(n * sizeof(int));
  int* recv = mt_malloc(n * sizeof(int));
  Holed* hs = mt_malloc((size_t)(max_count + 1) * sizeof(Holed));
  Holed* hr = mt_malloc((size_t)(max_count + 1) * sizeof(Holed));
  MPI_Datatype stypes[16], rtypes[16];
  int sc[16], sd[16], rc[16], rd[16];
  for (int c = 0; c < ncounts; ++c) {
    const long count = all_counts[c];
    for (int root_group = 0; root_group < 2; ++root_group) {
      const int root = (root_group == group ? lsize : rsize) - 1;
      const int r_arg = root_arg(root_group, root);
      const int tag = 100 + c * 10 + root_group;
      // bcast: the root sends spread ints, the others receive contiguous.
      holes(recv, n);
      if (r_arg == MPI_ROOT) {
        spread_fill(send, count, root_group, -1, tag);
      }
      CALL(
          MPI_Bcast(r_arg == MPI_ROOT ? send : recv, (int)count,
                    r_arg == MPI_ROOT ? spread : MPI_INT, r_arg, comm),
          MPI_Ibcast(r_arg == MPI_ROOT ? send : recv, (int)count,
                     r_arg == MPI_ROOT ? spread : MPI_INT, r_arg, comm, &req_));
      if (root_group != group) {
        MT_COLL_CHECK(recv, count, root_group, -1, tag, "dtype bcast");
      }
      // gather: contiguous in, spread at the root.
      holes(recv, n);
      mt_coll_fill(send, count, gid(group, rank), root, tag);
      CALL(MPI_Gather(send, (int)count, MPI_INT, recv, (int)count, spread,
                      r_arg, comm),
           MPI_Igather(send, (int)count, MPI_INT, recv, (int)count, spread,
                       r_arg, comm, &req_));
      if (r_arg == MPI_ROOT) {
        for (int r = 0; r < rsize; ++r) {
          SPREAD_CHECK(recv + 2 * (size_t)r * (size_t)count, count,
                       gid(1 - group, r), root, tag, "dtype gather");
        }
      }
      // scatterv: spread at the root, spread at the receivers.
      holes(recv, n);
      int off = 0;
      for (int r = 0; r < rsize; ++r) {
        sc[r] = (int)count + r;
        sd[r] = off;
        off += sc[r] + 2;
        if (r_arg == MPI_ROOT) {
          spread_fill(send + 2 * sd[r], sc[r], gid(group, rank), r, tag);
        }
      }
      CALL(MPI_Scatterv(send, sc, sd, spread, recv, (int)count + rank, spread,
                        r_arg, comm),
           MPI_Iscatterv(send, sc, sd, spread, recv, (int)count + rank, spread,
                         r_arg, comm, &req_));
      if (root_group != group) {
        SPREAD_CHECK(recv, count + rank, gid(root_group, root), rank, tag,
                     "dtype scatterv");
        MT_CHECK(recv[2 * (count + rank)] == kHole,
                 "dtype scatterv wrote past its data");
      }
      // reduce with the holed pairs and a non-commutative user op.
      for (long i = 0; i < count; ++i) {
        const MtAffine x = mt_affine_value(rank, i);
        hs[i].a = x.a;
        hs[i].b = x.b;
        hs[i].hole = kHole;
        hr[i].a = hr[i].b = 0;
        hr[i].hole = kHole;
      }
      CALL(MPI_Reduce(hs, hr, (int)count, holed, op, r_arg, comm),
           MPI_Ireduce(hs, hr, (int)count, holed, op, r_arg, comm, &req_));
      if (r_arg == MPI_ROOT) {
        for (long i = 0; i < count; ++i) {
          const MtAffine want = mt_affine_fold(0, rsize, i);
          MT_CHECK(
              hr[i].a == want.a && hr[i].b == want.b && hr[i].hole == kHole,
              "dtype reduce element %ld", i);
        }
      }
    }
    const int tag = 200 + c;
    // allreduce with the holed pairs.
    for (long i = 0; i < count; ++i) {
      const MtAffine x = mt_affine_value(rank, i);
      hs[i].a = x.a;
      hs[i].b = x.b;
      hr[i].a = hr[i].b = 0;
      hr[i].hole = kHole;
    }
    CALL(MPI_Allreduce(hs, hr, (int)count, holed, op, comm),
         MPI_Iallreduce(hs, hr, (int)count, holed, op, comm, &req_));
    for (long i = 0; i < count; ++i) {
      const MtAffine want = mt_affine_fold(0, rsize, i);
      MT_CHECK(hr[i].a == want.a && hr[i].b == want.b && hr[i].hole == kHole,
               "dtype allreduce element %ld", i);
    }
    // allgather: spread out, contiguous in.
    holes(recv, n);
    spread_fill(send, count, gid(group, rank), -1, tag);
    CALL(MPI_Allgather(send, (int)count, spread, recv, (int)count, MPI_INT,
                       comm),
         MPI_Iallgather(send, (int)count, spread, recv, (int)count, MPI_INT,
                        comm, &req_));
    for (int r = 0; r < rsize; ++r) {
      MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count, gid(1 - group, r),
                    -1, tag, "dtype allgather");
    }
    // alltoallw: to remote j, count + j ints, spread to odd j.
    holes(recv, n);
    int so = 0, ro = 0;
    for (int j = 0; j < rsize; ++j) {
      sc[j] = (int)count + j;
      rc[j] = (int)count + rank;
      stypes[j] = j % 2 ? spread : MPI_INT;
      rtypes[j] = j % 2 ? MPI_INT : spread;
      sd[j] = so * (int)sizeof(int);
      rd[j] = ro * (int)sizeof(int);
      if (j % 2) {
        spread_fill(send + so, sc[j], gid(group, rank), gid(1 - group, j), tag);
        so += 2 * sc[j] + 2;
      } else {
        mt_coll_fill(send + so, sc[j], gid(group, rank), gid(1 - group, j),
                     tag);
        so += sc[j] + 2;
      }
      ro += 2 * rc[j] + 2;
    }
    CALL(MPI_Alltoallw(send, sc, sd, stypes, recv, rc, rd, rtypes, comm),
         MPI_Ialltoallw(send, sc, sd, stypes, recv, rc, rd, rtypes, comm,
                        &req_));
    for (int j = 0; j < rsize; ++j) {
      const int* at = recv + rd[j] / (int)sizeof(int);
      if (j % 2) {
        MT_COLL_CHECK(at, rc[j], gid(1 - group, j), gid(group, rank), tag,
                      "dtype alltoallw");
      } else {
        SPREAD_CHECK(at, rc[j], gid(1 - group, j), gid(group, rank), tag,
                     "dtype alltoallw");
      }
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&op));
  MT_CHECK_MPI(MPI_Type_free(&spread));
  MT_CHECK_MPI(MPI_Type_free(&v));
  MT_CHECK_MPI(MPI_Type_free(&holed));
  MT_CHECK_MPI(MPI_Type_free(&h));
  free(hr);
  free(hs);
  free(recv);
  free(send);
}

// ---- several nonblocking collectives at once ----

static void overlap(void) {
  enum { kCount = 1000 };
  int* bsend = mt_malloc(kCount * sizeof(int));
  int* brecv = mt_malloc(kCount * sizeof(int));
  int* asend = mt_malloc((size_t)kCount * 16 * sizeof(int));
  int* arecv = mt_malloc((size_t)kCount * 16 * sizeof(int));
  int* gsend = mt_malloc(kCount * sizeof(int));
  int* grecv = mt_malloc((size_t)kCount * 16 * sizeof(int));
  long long v = gid(group, rank), sum = 0;
  for (int round = 0; round < 3; ++round) {
    const int tag = 300 + round;
    MPI_Request reqs[5];
    MT_CHECK_MPI(MPI_Ibarrier(comm, &reqs[0]));
    // bcast from group 0's rank 0.
    const int r_arg = root_arg(0, 0);
    if (r_arg == MPI_ROOT) {
      mt_coll_fill(bsend, kCount, 0, -1, tag);
    }
    MT_CHECK_MPI(MPI_Ibcast(r_arg == MPI_ROOT ? bsend : brecv, kCount, MPI_INT,
                            r_arg, comm, &reqs[1]));
    MT_CHECK_MPI(
        MPI_Iallreduce(&v, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm, &reqs[2]));
    for (int r = 0; r < rsize; ++r) {
      mt_coll_fill(asend + (size_t)r * kCount, kCount, gid(group, rank),
                   gid(1 - group, r), tag);
    }
    MT_CHECK_MPI(MPI_Ialltoall(asend, kCount, MPI_INT, arecv, kCount, MPI_INT,
                               comm, &reqs[3]));
    mt_coll_fill(gsend, kCount, gid(group, rank), -1, tag);
    MT_CHECK_MPI(MPI_Iallgather(gsend, kCount, MPI_INT, grecv, kCount, MPI_INT,
                                comm, &reqs[4]));
    // Complete them in another order than they started.
    for (int i = 4; i >= 0; --i) {
      MT_CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
    }
    if (group == 1) {
      MT_COLL_CHECK(brecv, kCount, 0, -1, tag, "overlapping ibcast");
    }
    long long want = 0;
    for (int r = 0; r < rsize; ++r) {
      want += gid(1 - group, r);
      MT_COLL_CHECK(arecv + (size_t)r * kCount, kCount, gid(1 - group, r),
                    gid(group, rank), tag, "overlapping ialltoall");
      MT_COLL_CHECK(grecv + (size_t)r * kCount, kCount, gid(1 - group, r), -1,
                    tag, "overlapping iallgather");
    }
    MT_CHECK(sum == want, "overlapping iallreduce %lld, expected %lld", sum,
             want);
  }
  free(grecv);
  free(gsend);
  free(arecv);
  free(asend);
  free(brecv);
  free(bsend);
}

// ---- MPI_IN_PLACE ----

static void expect_buffer_error(int rc, const char* what) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  MT_CHECK(cls == MPI_ERR_BUFFER, "%s with MPI_IN_PLACE gave %s", what,
           mt_class_name(cls));
}

static void inplace(int all) {
  MT_CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  int buf[64] = {0};
  MPI_Request req = MPI_REQUEST_NULL;
  int counts[16];
  for (int i = 0; i < 16; ++i) {
    counts[i] = 1;
  }
  // What MPICH 4.0.2 checks (MPI_ERR_BUFFER).
  expect_buffer_error(
      MPI_Allreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, comm),
      "MPI_Allreduce");
  expect_buffer_error(
      MPI_Iallreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, comm, &req),
      "MPI_Iallreduce");
  expect_buffer_error(
      MPI_Reduce_scatter(MPI_IN_PLACE, buf, counts, MPI_INT, MPI_SUM, comm),
      "MPI_Reduce_scatter");
  expect_buffer_error(
      MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, comm),
      "MPI_Reduce_scatter_block");
  // Rooted, at the senders (the other group passes MPI_PROC_NULL: no root,
  // nothing moves).
  if (group == 1) {
    expect_buffer_error(
        MPI_Reduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, 0, comm),
        "MPI_Reduce");
    expect_buffer_error(
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, 0, comm),
        "MPI_Gather");
  } else {
    MT_CHECK_MPI(
        MPI_Reduce(buf, buf + 8, 1, MPI_INT, MPI_SUM, MPI_PROC_NULL, comm));
    MT_CHECK_MPI(
        MPI_Gather(buf, 1, MPI_INT, buf + 8, 1, MPI_INT, MPI_PROC_NULL, comm));
  }
  if (all) {
    // shmpi checks these too; MPICH 4.0.2 does not (and crashes).
    expect_buffer_error(
        MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, comm),
        "MPI_Allgather");
    expect_buffer_error(MPI_Allgatherv(MPI_IN_PLACE, 1, MPI_INT, buf, counts,
                                       counts, MPI_INT, comm),
                        "MPI_Allgatherv");
    expect_buffer_error(
        MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, comm),
        "MPI_Alltoall");
    expect_buffer_error(
        MPI_Ialltoall(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, comm, &req),
        "MPI_Ialltoall");
    if (group == 1) {
      expect_buffer_error(
          MPI_Scatter(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, comm),
          "MPI_Scatter");
    } else {
      MT_CHECK_MPI(MPI_Scatter(buf, 1, MPI_INT, buf + 8, 1, MPI_INT,
                               MPI_PROC_NULL, comm));
    }
  }
  // Every call failed before communicating; the communicator still works.
  CALL(MPI_Barrier(comm), MPI_Ibarrier(comm, &req_));
}

// Nobody leaves the barrier before the last process of either group has
// entered it: each world rank enters a few milliseconds after the one
// below it (the last world rank enters last), and every exit time is at
// least the last entry time (MPI_Wtime is one clock on one machine).
static void barrier_order(void) {
  const int world = mt_size();
  double times[2];  // entry, exit
  for (int round = 0; round < 2; ++round) {
    // Round 0: the last world rank, in the odd or the even group, is the
    // late one; round 1: the first.
    const int late = round == 0 ? mt_rank() : world - 1 - mt_rank();
    mt_sleep_ms(3L * late);
    times[0] = MPI_Wtime();
    CALL(MPI_Barrier(comm), MPI_Ibarrier(comm, &req_));
    times[1] = MPI_Wtime();
    double last_entry = 0.0;
    double first_exit = 0.0;
    MT_CHECK_MPI(MPI_Allreduce(&times[0], &last_entry, 1, MPI_DOUBLE, MPI_MAX,
                               MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Allreduce(&times[1], &first_exit, 1, MPI_DOUBLE, MPI_MIN,
                               MPI_COMM_WORLD));
    MT_CHECK(first_exit >= last_entry,
             "round %d: a process left the barrier %.6f s before the last "
             "entered",
             round, last_entry - first_exit);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  args = mt_coll_args(argc, argv);
  const char* family = args.comm_kind;  // the free argument names the family
  if (mt_size() < 2) {
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  comm = mt_coll_comm("inter");
  group = mt_rank() % 2;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &lsize);
  MPI_Comm_remote_size(comm, &rsize);
  MT_CHECK(rsize <= 16 && lsize <= 16, "too many ranks for this test");
  if (args.big) {
    max_count = all_counts[3];
    ncounts = 4;
  }
  if (strcmp(family, "barrier") == 0) {
    for (int i = 0; i < 5; ++i) {
      CALL(MPI_Barrier(comm), MPI_Ibarrier(comm, &req_));
    }
    barrier_order();
  } else if (strcmp(family, "bcast") == 0 || strcmp(family, "gather") == 0 ||
             strcmp(family, "scatter") == 0 || strcmp(family, "reduce") == 0) {
    rooted(family);
  } else if (strcmp(family, "allgather") == 0 ||
             strcmp(family, "alltoall") == 0) {
    all_to_all(family);
  } else if (strcmp(family, "allreduce") == 0 ||
             strcmp(family, "reduce_scatter") == 0) {
    reductions(family);
  } else if (strcmp(family, "dtype") == 0) {
    dtype_family();
  } else if (strcmp(family, "overlap") == 0) {
    overlap();
  } else if (strcmp(family, "inplace") == 0 ||
             strcmp(family, "inplace_all") == 0) {
    inplace(strcmp(family, "inplace_all") == 0);
  } else {
    MT_FAIL("unknown family '%s'", family);
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
