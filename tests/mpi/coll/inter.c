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
// args: FAMILY b|nb, FAMILY one of barrier bcast gather scatter allgather
// alltoall reduce allreduce reduce_scatter. Needs at least 2 ranks.
#include "mt_coll.h"

static MtCollArgs args;
static MPI_Comm comm;
static int rank, lsize, rsize, group;  // group: 0 evens, 1 odds

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
  const long counts[] = {0, 1, 1000};
  int* send = mt_malloc((size_t)(1000 + 16) * 16 * sizeof(int));
  int* recv = mt_malloc((size_t)(1000 + 16) * 16 * sizeof(int));
  int* vc = mt_malloc(16 * sizeof(int));
  int* vd = mt_malloc(16 * sizeof(int));
  int tag = 0;
  for (int c = 0; c < 3; ++c) {
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
  const long counts[] = {0, 1, 1000};
  int* send = mt_malloc((size_t)(1000 + 32) * 16 * sizeof(int));
  int* recv = mt_malloc((size_t)(1000 + 32) * 16 * sizeof(int));
  int* sc = mt_malloc(16 * sizeof(int));
  int* sd = mt_malloc(16 * sizeof(int));
  int* rc = mt_malloc(16 * sizeof(int));
  int* rd = mt_malloc(16 * sizeof(int));
  MPI_Datatype types[16];
  for (int i = 0; i < 16; ++i) {
    types[i] = MPI_INT;
  }
  for (int c = 0; c < 3; ++c) {
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
  const long counts[] = {0, 1, 1000};
  MtAffine* send = mt_malloc((size_t)1000 * 16 * sizeof(MtAffine));
  MtAffine* recv = mt_malloc((size_t)1000 * 16 * sizeof(MtAffine));
  for (int c = 0; c < 3; ++c) {
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
    } else {
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
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&op));
  free(recv);
  free(send);
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
  if (strcmp(family, "barrier") == 0) {
    for (int i = 0; i < 5; ++i) {
      CALL(MPI_Barrier(comm), MPI_Ibarrier(comm, &req_));
    }
  } else if (strcmp(family, "bcast") == 0 || strcmp(family, "gather") == 0 ||
             strcmp(family, "scatter") == 0 || strcmp(family, "reduce") == 0) {
    rooted(family);
  } else if (strcmp(family, "allgather") == 0 ||
             strcmp(family, "alltoall") == 0) {
    all_to_all(family);
  } else if (strcmp(family, "allreduce") == 0 ||
             strcmp(family, "reduce_scatter") == 0) {
    reductions(family);
  } else {
    MT_FAIL("unknown family '%s'", family);
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
