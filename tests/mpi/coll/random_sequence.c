// SPDX-License-Identifier: MIT
// A seeded random sequence of collectives, blocking and nonblocking mixed,
// on four communicators at once, each result checked against a reference
// computed locally.
//
// Every rank draws the same sequence from the seed: the collective (all of
// MPI 4.0's intracommunicator ones but the neighborhood forms), the
// communicator (MPI_COMM_WORLD, a duplicate, halves by rank parity, the
// ranks reversed), counts per member around the protocol boundaries (up to
// 256 Ki ints in all), the root, the reduction op (SUM, MAX, BXOR, PROD and
// a non-commutative user op), MPI_IN_PLACE, and whether the call is
// nonblocking. Up to six nonblocking calls stay in flight across later
// calls on the same and other communicators; each rank completes them in an
// order of its own (MPI 4.0 §6.12: only the order of starting must agree).
// Buffers come from malloc (large ones land in shmpi's shared heap) or
// MPI_Alloc_mem.
//
// Inputs are a function of (step, rank in the communicator, index), so the
// expected output of every call is known to every member.
//
// With THREADS, each of that many threads runs a sequence of its own (its
// own seed, on communicators of its own) under MPI_THREAD_MULTIPLE.
//
// usage: random_sequence [SEED [STEPS [THREADS]]]

#include "mt_random_coll.h"
#include "mt_threads.h"

enum { kComms = 4 };

typedef struct {
  MPI_Comm comm;
  int rank, size;
} CommInfo;
// The communicators of the sequence this thread runs (with threads, each
// runs its own on communicators of its own).
static _Thread_local CommInfo g_comms[kComms];

typedef struct {
  MtKind kind;
  int comm;
  MtOpKind op;
  int root;
  int in_place;
  int nonblocking;
  long step;
  int* counts;  // per member (v-forms and reduce_scatter), else all equal
  int count;    // per member (or the whole message for bcast/reduce/scan)
} Call;

typedef struct {
  Call call;
  int* send;
  int* recv;
  int alloc_mem;
  int *sendcounts, *sdispls, *recvcounts, *rdispls;
} Slot;

// MPICH 4.0 and 4.1 crash in MPI_Reduce in place at a root other than 0
// (github.com/pmodels/mpich/issues/6540, see reduce_in_place.c): under
// MPICH those calls reduce to root 0 instead.
static int g_mpich_reduce_bug;

static Call draw_call(uint64_t* state, long step) {
  Call c;
  c.step = step;
  c.kind = (MtKind)mt_pick(state, kMtIntraKinds);
  c.comm = mt_pick(state, kComms);
  c.op = (MtOpKind)mt_pick(state, kMtOps);
  c.in_place = mt_pick(state, 3) == 0;
  c.nonblocking = mt_pick(state, 2);
  // The halves communicator has different sizes on different ranks; draw
  // for the largest and scale down per member where it matters.
  const int size = g_comms[c.comm].size;
  const int max_size = g_comms[0].size;
  c.root = mt_pick(state, max_size) % size;
  if (g_mpich_reduce_bug && c.kind == kMtReduce && c.in_place) {
    c.root = 0;
  }
  c.count = mt_pick_count(state, max_size);
  c.counts = mt_malloc(sizeof(int) * (size_t)max_size);
  for (int r = 0; r < max_size; ++r) {
    c.counts[r] = mt_pick(state, 4) == 0 ? 0 : mt_pick_count(state, max_size);
  }
  return c;
}

// Draws step `step`'s call and starts it (MtFlight's start).
static int start(void* record, MPI_Request* req, long step, uint64_t* shared) {
  Slot* s = record;
  s->call = draw_call(shared, step);
  const Call* c = &s->call;
  const CommInfo* ci = &g_comms[c->comm];
  const int me = ci->rank, n = ci->size;
  const MPI_Comm comm = ci->comm;
  const int count = c->count;
  const int root = c->root;
  s->alloc_mem = (int)((c->step * 7 + me) % 4 == 0);
  s->sendcounts = mt_malloc(sizeof(int) * 4 * (size_t)n);
  s->sdispls = s->sendcounts + n;
  s->recvcounts = s->sdispls + n;
  s->rdispls = s->recvcounts + n;
  const int nb = c->nonblocking;
  *req = MPI_REQUEST_NULL;
  s->send = NULL;
  s->recv = NULL;
  const MPI_Op op = mt_mpi_op(c->op);
#define FILL(buf, len, member, offset)                          \
  for (long i_ = 0; i_ < (len); ++i_) {                         \
    (buf)[i_] = mt_input(c->op, step, (member), (offset) + i_); \
  }
  switch (c->kind) {
    case kMtBarrier:
      MT_CHECK_MPI(nb ? MPI_Ibarrier(comm, req) : MPI_Barrier(comm));
      break;
    case kMtBcast:
      s->recv = mt_alloc_ints(count, s->alloc_mem);
      if (me == root) {
        FILL(s->recv, count, root, 0);
      } else {
        memset(s->recv, 0xEE, sizeof(int) * (size_t)count);
      }
      MT_CHECK_MPI(nb ? MPI_Ibcast(s->recv, count, MPI_INT, root, comm, req)
                      : MPI_Bcast(s->recv, count, MPI_INT, root, comm));
      break;
    case kMtReduce:
    case kMtAllreduce:
    case kMtScan:
    case kMtExscan: {
      s->send = mt_alloc_ints(count, s->alloc_mem);
      s->recv = mt_alloc_ints(count, s->alloc_mem);
      FILL(s->send, count, me, 0);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)count);
      const int in_place = c->in_place && (c->kind != kMtReduce || me == root);
      const void* sb = s->send;
      if (in_place) {
        memcpy(s->recv, s->send, sizeof(int) * (size_t)count);
        sb = MPI_IN_PLACE;
      }
      if (c->kind == kMtReduce) {
        MT_CHECK_MPI(
            nb ? MPI_Ireduce(sb, s->recv, count, MPI_INT, op, root, comm, req)
               : MPI_Reduce(sb, s->recv, count, MPI_INT, op, root, comm));
      } else if (c->kind == kMtAllreduce) {
        MT_CHECK_MPI(
            nb ? MPI_Iallreduce(sb, s->recv, count, MPI_INT, op, comm, req)
               : MPI_Allreduce(sb, s->recv, count, MPI_INT, op, comm));
      } else if (c->kind == kMtScan) {
        MT_CHECK_MPI(nb ? MPI_Iscan(sb, s->recv, count, MPI_INT, op, comm, req)
                        : MPI_Scan(sb, s->recv, count, MPI_INT, op, comm));
      } else {
        MT_CHECK_MPI(
            nb ? MPI_Iexscan(sb, s->recv, count, MPI_INT, op, comm, req)
               : MPI_Exscan(sb, s->recv, count, MPI_INT, op, comm));
      }
      break;
    }
    case kMtGather:
    case kMtAllgather: {
      const int all = c->kind == kMtAllgather;
      s->send = mt_alloc_ints(count, s->alloc_mem);
      FILL(s->send, count, me, 0);
      const int receives = all || me == root;
      s->recv = mt_alloc_ints(receives ? (long)count * n : 0, s->alloc_mem);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)(receives ? count * n : 1));
      const void* sb = s->send;
      if (c->in_place && receives) {
        memcpy(s->recv + (long)me * count, s->send,
               sizeof(int) * (size_t)count);
        sb = MPI_IN_PLACE;
      }
      if (all) {
        MT_CHECK_MPI(nb ? MPI_Iallgather(sb, count, MPI_INT, s->recv, count,
                                         MPI_INT, comm, req)
                        : MPI_Allgather(sb, count, MPI_INT, s->recv, count,
                                        MPI_INT, comm));
      } else {
        MT_CHECK_MPI(nb ? MPI_Igather(sb, count, MPI_INT, s->recv, count,
                                      MPI_INT, root, comm, req)
                        : MPI_Gather(sb, count, MPI_INT, s->recv, count,
                                     MPI_INT, root, comm));
      }
      break;
    }
    case kMtGatherv:
    case kMtAllgatherv: {
      const int all = c->kind == kMtAllgatherv;
      for (int r = 0; r < n; ++r) {
        s->recvcounts[r] = c->counts[r];
      }
      const long total = mt_place(s->recvcounts, n, s->rdispls);
      const int mine = c->counts[me];
      s->send = mt_alloc_ints(mine, s->alloc_mem);
      FILL(s->send, mine, me, 0);
      const int receives = all || me == root;
      s->recv = mt_alloc_ints(receives ? total : 0, s->alloc_mem);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)(receives ? total : 1));
      const void* sb = s->send;
      if (c->in_place && receives) {
        memcpy(s->recv + s->rdispls[me], s->send, sizeof(int) * (size_t)mine);
        sb = MPI_IN_PLACE;
      }
      if (all) {
        MT_CHECK_MPI(
            nb ? MPI_Iallgatherv(sb, mine, MPI_INT, s->recv, s->recvcounts,
                                 s->rdispls, MPI_INT, comm, req)
               : MPI_Allgatherv(sb, mine, MPI_INT, s->recv, s->recvcounts,
                                s->rdispls, MPI_INT, comm));
      } else {
        MT_CHECK_MPI(nb ? MPI_Igatherv(sb, mine, MPI_INT, s->recv,
                                       s->recvcounts, s->rdispls, MPI_INT, root,
                                       comm, req)
                        : MPI_Gatherv(sb, mine, MPI_INT, s->recv, s->recvcounts,
                                      s->rdispls, MPI_INT, root, comm));
      }
      break;
    }
    case kMtScatter: {
      const int sends = me == root;
      s->send = mt_alloc_ints(sends ? (long)count * n : 0, s->alloc_mem);
      if (sends) {
        FILL(s->send, (long)count * n, root, 0);
      }
      s->recv = mt_alloc_ints(count, s->alloc_mem);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)(count > 0 ? count : 1));
      void* rb = s->recv;
      if (c->in_place && sends) {
        rb = MPI_IN_PLACE;
      }
      MT_CHECK_MPI(nb ? MPI_Iscatter(s->send, count, MPI_INT, rb, count,
                                     MPI_INT, root, comm, req)
                      : MPI_Scatter(s->send, count, MPI_INT, rb, count, MPI_INT,
                                    root, comm));
      break;
    }
    case kMtScatterv: {
      for (int r = 0; r < n; ++r) {
        s->sendcounts[r] = c->counts[r];
      }
      const long total = mt_place(s->sendcounts, n, s->sdispls);
      const int sends = me == root;
      s->send = mt_alloc_ints(sends ? total : 0, s->alloc_mem);
      if (sends) {
        FILL(s->send, total, root, 0);
      }
      const int mine = c->counts[me];
      s->recv = mt_alloc_ints(mine, s->alloc_mem);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)(mine > 0 ? mine : 1));
      void* rb = s->recv;
      if (c->in_place && sends) {
        rb = MPI_IN_PLACE;
      }
      MT_CHECK_MPI(nb ? MPI_Iscatterv(s->send, s->sendcounts, s->sdispls,
                                      MPI_INT, rb, mine, MPI_INT, root, comm,
                                      req)
                      : MPI_Scatterv(s->send, s->sendcounts, s->sdispls,
                                     MPI_INT, rb, mine, MPI_INT, root, comm));
      break;
    }
    case kMtAlltoall: {
      const long total = (long)count * n;
      s->send = mt_alloc_ints(total, s->alloc_mem);
      FILL(s->send, total, me, 0);
      s->recv = mt_alloc_ints(total, s->alloc_mem);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)(total > 0 ? total : 1));
      const void* sb = s->send;
      if (c->in_place) {
        memcpy(s->recv, s->send, sizeof(int) * (size_t)total);
        sb = MPI_IN_PLACE;
      }
      MT_CHECK_MPI(
          nb ? MPI_Ialltoall(sb, count, MPI_INT, s->recv, count, MPI_INT, comm,
                             req)
             : MPI_Alltoall(sb, count, MPI_INT, s->recv, count, MPI_INT, comm));
      break;
    }
    case kMtAlltoallv: {
      // Member r sends counts[(r + j) % n] ints to member j: every pair
      // agrees on its counts.
      for (int j = 0; j < n; ++j) {
        s->sendcounts[j] = c->counts[(me + j) % n];
        s->recvcounts[j] = c->counts[(j + me) % n];
      }
      const long stotal = mt_place(s->sendcounts, n, s->sdispls);
      const long rtotal = mt_place(s->recvcounts, n, s->rdispls);
      s->send = mt_alloc_ints(stotal, s->alloc_mem);
      FILL(s->send, stotal, me, 0);
      s->recv = mt_alloc_ints(rtotal, s->alloc_mem);
      memset(s->recv, 0xEE, sizeof(int) * (size_t)(rtotal > 0 ? rtotal : 1));
      MT_CHECK_MPI(nb ? MPI_Ialltoallv(s->send, s->sendcounts, s->sdispls,
                                       MPI_INT, s->recv, s->recvcounts,
                                       s->rdispls, MPI_INT, comm, req)
                      : MPI_Alltoallv(s->send, s->sendcounts, s->sdispls,
                                      MPI_INT, s->recv, s->recvcounts,
                                      s->rdispls, MPI_INT, comm));
      break;
    }
    case kMtReduceScatterBlock:
    case kMtReduceScatter: {
      const int block = c->kind == kMtReduceScatterBlock;
      long total = 0;
      for (int r = 0; r < n; ++r) {
        s->recvcounts[r] = block ? count : c->counts[r];
        s->rdispls[r] = (int)total;
        total += s->recvcounts[r];
      }
      s->send = mt_alloc_ints(total, s->alloc_mem);
      FILL(s->send, total, me, 0);
      const int mine = s->recvcounts[me];
      s->recv = mt_alloc_ints(c->in_place ? total : mine, s->alloc_mem);
      memset(s->recv, 0xEE,
             sizeof(int) * (size_t)((c->in_place ? total : mine) > 0
                                        ? (c->in_place ? total : mine)
                                        : 1));
      const void* sb = s->send;
      if (c->in_place) {
        memcpy(s->recv, s->send, sizeof(int) * (size_t)total);
        sb = MPI_IN_PLACE;
      }
      if (block) {
        MT_CHECK_MPI(nb ? MPI_Ireduce_scatter_block(sb, s->recv, count, MPI_INT,
                                                    op, comm, req)
                        : MPI_Reduce_scatter_block(sb, s->recv, count, MPI_INT,
                                                   op, comm));
      } else {
        MT_CHECK_MPI(nb ? MPI_Ireduce_scatter(sb, s->recv, s->recvcounts,
                                              MPI_INT, op, comm, req)
                        : MPI_Reduce_scatter(sb, s->recv, s->recvcounts,
                                             MPI_INT, op, comm));
      }
      break;
    }
    default:
      MT_FAIL("no such collective");
  }
#undef FILL
  return nb;
}

#define EXPECT_INT(got, want, what, index)                                    \
  MT_CHECK((got) == (want),                                                   \
           "step %ld %s%s%s on comm %d (rank %d of %d, root %d, count %d, "   \
           "op %d): %s[%ld] is %d, expected %d",                              \
           c->step, c->nonblocking ? "i" : "", mt_kind_name(c->kind),         \
           c->in_place ? " in place" : "", c->comm, me, n, c->root, c->count, \
           (int)c->op, (what), (long)(index), (got), (want))

// Checks a completed call and frees what it holds (MtFlight's finish).
static void finish(void* record) {
  Slot* s = record;
  const Call* c = &s->call;
  const CommInfo* ci = &g_comms[c->comm];
  const int me = ci->rank, n = ci->size;
  const int count = c->count;
  const int root = c->root;
  const long step = c->step;
  switch (c->kind) {
    case kMtBarrier:
      break;
    case kMtBcast:
      for (long i = 0; i < count; ++i) {
        EXPECT_INT(s->recv[i], mt_input(c->op, step, root, i), "buffer", i);
      }
      break;
    case kMtReduce:
    case kMtAllreduce:
      if (c->kind == kMtAllreduce || me == root) {
        for (long i = 0; i < count; ++i) {
          EXPECT_INT(s->recv[i], mt_reduced(c->op, c->step, 0, 0, n, i),
                     "result", i);
        }
      }
      break;
    case kMtScan:
      for (long i = 0; i < count; ++i) {
        EXPECT_INT(s->recv[i], mt_reduced(c->op, c->step, 0, 0, me + 1, i),
                   "result", i);
      }
      break;
    case kMtExscan:
      if (me > 0) {
        for (long i = 0; i < count; ++i) {
          EXPECT_INT(s->recv[i], mt_reduced(c->op, c->step, 0, 0, me, i),
                     "result", i);
        }
      }
      break;
    case kMtGather:
    case kMtAllgather:
      if (c->kind == kMtAllgather || me == root) {
        for (int r = 0; r < n; ++r) {
          for (long i = 0; i < count; ++i) {
            EXPECT_INT(s->recv[(long)r * count + i],
                       mt_input(c->op, step, r, i), "block",
                       (long)r * count + i);
          }
        }
      }
      break;
    case kMtGatherv:
    case kMtAllgatherv:
      if (c->kind == kMtAllgatherv || me == root) {
        for (int r = 0; r < n; ++r) {
          for (long i = 0; i < s->recvcounts[r]; ++i) {
            EXPECT_INT(s->recv[s->rdispls[r] + i], mt_input(c->op, step, r, i),
                       "block", s->rdispls[r] + i);
          }
          const long gap =
              s->rdispls[r] -
              (r > 0 ? s->rdispls[r - 1] + s->recvcounts[r - 1] : 0);
          for (long g = 1; g <= gap; ++g) {  // gaps stay untouched
            EXPECT_INT(s->recv[s->rdispls[r] - g], (int)0xEEEEEEEE, "gap",
                       s->rdispls[r] - g);
          }
        }
      }
      break;
    case kMtScatter:
      if (!(c->in_place && me == root)) {
        for (long i = 0; i < count; ++i) {
          EXPECT_INT(s->recv[i],
                     mt_input(c->op, step, root, (long)me * count + i), "block",
                     i);
        }
      }
      break;
    case kMtScatterv:
      if (!(c->in_place && me == root)) {
        for (long i = 0; i < c->counts[me]; ++i) {
          EXPECT_INT(s->recv[i],
                     mt_input(c->op, step, root, s->sdispls[me] + i), "block",
                     i);
        }
      }
      break;
    case kMtAlltoall:
      for (int r = 0; r < n; ++r) {
        for (long i = 0; i < count; ++i) {
          EXPECT_INT(s->recv[(long)r * count + i],
                     mt_input(c->op, step, r, (long)me * count + i), "block",
                     (long)r * count + i);
        }
      }
      break;
    case kMtAlltoallv:
      for (int r = 0; r < n; ++r) {
        // Member r's block for me sits at its sdispls[me]: recompute r's
        // layout of sends.
        int theirs[64];
        int their_displs[64];
        MT_ASSERT(n <= 64);
        for (int j = 0; j < n; ++j) {
          theirs[j] = c->counts[(r + j) % n];
        }
        mt_place(theirs, n, their_displs);
        for (long i = 0; i < s->recvcounts[r]; ++i) {
          EXPECT_INT(s->recv[s->rdispls[r] + i],
                     mt_input(c->op, step, r, their_displs[me] + i), "block",
                     s->rdispls[r] + i);
        }
      }
      break;
    case kMtReduceScatterBlock:
    case kMtReduceScatter:
      for (long i = 0; i < s->recvcounts[me]; ++i) {
        EXPECT_INT(s->recv[i],
                   mt_reduced(c->op, c->step, 0, 0, n, s->rdispls[me] + i),
                   "result", i);
      }
      break;
    default:
      break;
  }
  if (s->send != NULL) {
    mt_free(s->send, s->alloc_mem);
  }
  if (s->recv != NULL) {
    mt_free(s->recv, s->alloc_mem);
  }
  free(s->sendcounts);
  free(s->call.counts);
}

typedef struct {
  uint64_t seed;
  long steps;
  CommInfo comms[kComms];
} Sequence;

static void run_sequence(Sequence* sequence) {
  memcpy(g_comms, sequence->comms, sizeof g_comms);
  const int world = mt_rank();
  uint64_t shared = sequence->seed;
  uint64_t local = sequence->seed * 1000003u + (uint64_t)world;
  Slot slots[kMtMaxInFlight];
  memset(slots, 0, sizeof slots);
  MtFlight flight = {.start = start,
                     .finish = finish,
                     .records = slots,
                     .record_size = sizeof(Slot)};
  mt_flight_run(&flight, sequence->steps, &shared, &local);
}

static void* sequence_thread(void* arg) {
  run_sequence((Sequence*)arg);
  return NULL;
}

int main(int argc, char** argv) {
  const uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  const long steps = mt_scale(argc > 2 ? atol(argv[2]) : 300);
  const int threads = argc > 3 ? atoi(argv[3]) : 0;
  mt_init_threads(&argc, &argv, threads);
  const int world = mt_rank();
  const int size = mt_size();
  MT_CHECK(size <= 64, "at most 64 ranks");
  g_mpich_reduce_bug = mt_is_mpich("4.0") || mt_is_mpich("4.1");
  mt_random_ops_create();
  const int count = threads > 0 ? threads : 1;
  Sequence* sequence = mt_malloc(sizeof(Sequence) * (size_t)count);
  for (int t = 0; t < count; ++t) {
    Sequence* q = &sequence[t];
    q->seed = seed + 7919u * (uint64_t)t;
    q->steps = steps;
    // Threads never share a communicator; without threads the first is
    // MPI_COMM_WORLD itself.
    if (threads > 0) {
      MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &q->comms[0].comm));
    } else {
      q->comms[0].comm = MPI_COMM_WORLD;
    }
    MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &q->comms[1].comm));
    MT_CHECK_MPI(
        MPI_Comm_split(MPI_COMM_WORLD, world % 2, world, &q->comms[2].comm));
    MT_CHECK_MPI(
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - world, &q->comms[3].comm));
    for (int k = 0; k < kComms; ++k) {
      MPI_Comm_rank(q->comms[k].comm, &q->comms[k].rank);
      MPI_Comm_size(q->comms[k].comm, &q->comms[k].size);
    }
  }

  mt_run_threads(threads, sequence_thread, sequence, sizeof(Sequence));
  if (world == 0) {
    printf("random collectives: %ld calls, seed %llu", steps,
           (unsigned long long)seed);
    if (threads > 0) {
      printf(", %d threads", threads);
    }
    printf("\n");
  }
  for (int t = 0; t < count; ++t) {
    for (int k = threads > 0 ? 0 : 1; k < kComms; ++k) {
      MT_CHECK_MPI(MPI_Comm_free(&sequence[t].comms[k].comm));
    }
  }
  free(sequence);
  mt_random_ops_free();
  MPI_Finalize();
  return 0;
}
