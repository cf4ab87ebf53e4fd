// SPDX-License-Identifier: MIT
// A seeded random schedule of communicator creation and destruction,
// interleaved with checked traffic on the communicators alive at the time.
//
// Every rank draws the same schedule from the seed (and the choices that
// may differ between ranks, the order of completing nonblocking calls,
// from a stream of its own). A pool holds up to 12 communicators:
// MPI_COMM_WORLD and those the schedule made, each with the MPI_COMM_WORLD
// ranks of its members in rank order, which every rank predicts from the
// draws; a rank holds the handles of the communicators it is a member of
// and MPI_COMM_NULL for the others, and only members call anything on a
// communicator. At each step one of:
//  - create from a random communicator of the pool (MPI 4.0 §7.4.2, §7.6):
//    MPI_Comm_dup; MPI_Comm_idup, left in flight for some steps among the
//    other nonblocking calls; MPI_Comm_dup_with_info; MPI_Comm_split with
//    random colors (MPI_UNDEFINED for some members) and keys (ties broken
//    by parent rank); MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) with
//    random keys, MPI_UNDEFINED for some; MPI_Comm_create of a random
//    subgroup in a random order, or of two disjoint ones in one call;
//    MPI_Comm_create_group called by the group's members only, one or two
//    disjoint groups at once, random tags; MPI_Intercomm_create between
//    two random groups (leaders, keys and peer communicator, the parent or
//    MPI_COMM_WORLD, drawn), traffic across it, then MPI_Intercomm_merge
//    with drawn high flags. Every new communicator is checked: size, rank,
//    the group's MPI_COMM_WORLD ranks, MPI_Comm_test_inter,
//    MPI_Comm_compare against its parent (congruent, similar or unequal
//    as predicted); after splits, creates and merges an allgather of the
//    world ranks gives the predicted order. What does not fit in the pool
//    is freed at once;
//  - free a random communicator of the pool (§7.4.3): other communicators,
//    and sometimes itself, may have nonblocking collectives in flight,
//    which must complete as usual;
//  - traffic on a random communicator of the pool: a barrier, a bcast, an
//    allreduce (SUM, MAX, BXOR, PROD or a non-commutative user op) or an
//    allgather of world ranks and values, blocking or left in flight (up
//    to six calls at once over all communicators); or point-to-point: a
//    ring shift with MPI_Sendrecv, or a ring and wildcard receives at rank
//    0 (mt_comm.h);
//  - isolation: on two congruent communicators (a dup and its parent, or
//    two dups), receives with the same source and tag (or wildcards) are
//    posted on both in an order each rank draws and the sends go the
//    other way; each message names the communicator it was sent on;
//  - a sweep: one message on every communicator of the pool, receives
//    with MPI_ANY_SOURCE posted on all before the sends: communicators
//    sharing a context ID in one process would swap them.
// Calls in flight complete in each rank's own order (MPI_Wait,
// MPI_Waitany, MPI_Waitall, MPI_Testall) now and then; at points of the
// schedule (one drawn place, all of them, or a place needed for a new call)
// every member completes them, and only then does a communicator made by
// MPI_Comm_idup join those the schedule may use.
//
// Before and after the schedule, each rank counts how many MPI_COMM_SELF
// dups it can hold at once (MPI_ERRORS_RETURN): context IDs lost by frees
// would show as a smaller count afterwards (allowing for the 32 IDs shmpi
// may keep in reserve for MPI_COMM_WORLD's dups). At 2 ranks, 12000 steps
// make about 6300 communicators, over 4000 on each rank, while at most
// 12 are alive: each of the 2045 context IDs (2046 in MPICH) is used
// twice over, and the scratch blocks many times.
//
// usage: random_churn [SEED [STEPS]]  (2 ranks or more)

#include "mt_comm.h"
#include "mt_random_coll.h"

enum {
  kPool = 12,
  kMaxRanks = kMtMaxMembers,
  kMaxCount = 4096,  // ints per member in a collective, at most
  // Tags: each kind of traffic has its own range, so that no wildcard
  // receive can match a message of another kind from a member that runs
  // ahead. MT_CHECK_P2P: even tags below 500 (and the odd ones after
  // them); ring shifts 500..999; create_group 1000..1999; intercomm
  // creation 2000..2999; isolation 3000..3999; sweeps 4000.
  kRingTag = 500,
  kGroupTag = 1000,
  kInterTag = 2000,
  kIsolationTag = 3000,
  kSweepTag = 4000,
  kReserveSlack = 32,   // context IDs MPI_COMM_WORLD may hold in reserve
  kSelfDupLimit = 4096  // MPI_COMM_SELF dups tried at most
};

#define UNTOUCHED ((int)0xEEEEEEEEu)

// A communicator of the pool; all but comm and rank are the same on every
// rank.
typedef struct {
  int live;
  int ready;      // 0 while the MPI_Comm_idup that makes it is in flight
  int in_flight;  // nonblocking collectives in flight on it
  int idups;      // MPI_Comm_idup calls in flight from it
  int id;         // serial number, in messages and message contents
  int n;
  int members[kMaxRanks];  // MPI_COMM_WORLD ranks, in rank order
  int rank;                // this rank's rank in it, -1 outside
  MPI_Comm comm;           // MPI_COMM_NULL outside
  char how[96];
} Entry;

static Entry g_pool[kPool];
static int g_world;  // this rank in MPI_COMM_WORLD
static int g_np;
static long g_step;
static char g_doing[256];  // the current step's action, for messages
static int g_next_id = 1;

// Counts for the summary: communicators made (distinct; each member of one
// made its handle), handles this rank got, and frees.
enum {
  kDup,
  kIdup,
  kDupInfo,
  kSplit,
  kSplitType,
  kCreate,
  kCreateGroup,
  kInter,
  kCreateKinds
};
static const char* const kCreateNames[kCreateKinds] = {
    "dup",        "idup",   "dup_with_info", "split",
    "split_type", "create", "create_group",  "intercomm+merge"};
static long g_made;       // communicators made (all kinds, shared count)
static long g_made_here;  // handles this rank got
static long g_kind_count[kCreateKinds];  // creation calls of each kind
static long g_freed_busy;                // frees with own collectives in flight
static long g_freed_others;  // frees with collectives in flight elsewhere
static int g_max_live;

#define CALL(call)                                                          \
  do {                                                                      \
    const int call_rc_ = (call);                                            \
    MT_CHECK(call_rc_ == MPI_SUCCESS, "%s: %s returned %s", g_doing, #call, \
             mt_error_string(call_rc_));                                    \
  } while (0)

static int index_of(const int* list, int n, int value) {
  for (int i = 0; i < n; ++i) {
    if (list[i] == value) {
      return i;
    }
  }
  return -1;
}

// What MPI_Comm_compare must say of two distinct intracommunicators with
// these members.
static int expected_compare(const int* a, int na, const int* b, int nb) {
  if (na != nb) {
    return MPI_UNEQUAL;
  }
  int same_order = 1;
  for (int i = 0; i < na; ++i) {
    if (a[i] != b[i]) {
      same_order = 0;
    }
    if (index_of(b, nb, a[i]) < 0) {
      return MPI_UNEQUAL;
    }
  }
  return same_order ? MPI_CONGRUENT : MPI_SIMILAR;
}

// ---- the pool ----

static int live_count(void) {
  int k = 0;
  for (int e = 0; e < kPool; ++e) {
    k += g_pool[e].live;
  }
  return k;
}

// A random ready communicator of the pool with at least min_members.
static int pick_ready(uint64_t* state, int min_members) {
  int list[kPool];
  int k = 0;
  for (int e = 0; e < kPool; ++e) {
    if (g_pool[e].live && g_pool[e].ready && g_pool[e].n >= min_members) {
      list[k++] = e;
    }
  }
  MT_ASSERT(k > 0);  // MPI_COMM_WORLD always
  return list[mt_pick(state, k)];
}

// Puts a communicator in the pool; returns its place, or -1 when full.
static int add_entry(const int* members, int n, MPI_Comm comm, int ready,
                     const char* how) {
  for (int e = 1; e < kPool; ++e) {
    Entry* x = &g_pool[e];
    if (x->live) {
      continue;
    }
    memset(x, 0, sizeof *x);
    x->live = 1;
    x->ready = ready;
    x->id = g_next_id++;
    x->n = n;
    memcpy(x->members, members, sizeof(int) * (size_t)n);
    x->rank = index_of(members, n, g_world);
    x->comm = comm;
    snprintf(x->how, sizeof x->how, "#%d, %s", x->id, how);
    const int live = live_count();
    g_max_live = live > g_max_live ? live : g_max_live;
    return e;
  }
  return -1;
}

// Checks a new intracommunicator this rank holds (comm) or not (members
// says whether it must): members, MPI_Comm_compare with its parent and,
// with `gather`, an allgather of the world ranks. Then puts it in the pool,
// or frees it if the pool is full. Returns its place or -1.
static int finish_creation(const int* members, int n, MPI_Comm comm,
                           const Entry* parent, int gather, const char* how) {
  const int mine = index_of(members, n, g_world) >= 0;
  ++g_made;
  MT_CHECK(mine == (comm != MPI_COMM_NULL),
           "%s: members [%s]; this rank got %s", g_doing,
           mt_rank_list(members, n),
           comm == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
  if (mine) {
    ++g_made_here;
    MT_CHECK_MEMBERS(comm, members, n, g_doing);
    MT_CHECK_COMPARE(parent->comm, comm,
                     expected_compare(parent->members, parent->n, members, n),
                     g_doing);
    if (gather) {
      MT_CHECK_GATHERED_ORDER(comm, members, n, g_doing);
    }
  }
  const int e = add_entry(members, n, comm, 1, how);
  if (e < 0 && mine) {
    CALL(MPI_Comm_free(&comm));
  }
  return e;
}

// ---- calls in flight ----

typedef enum {
  kOpBarrier,
  kOpBcast,
  kOpAllreduce,
  kOpAllgather,
  kOpCollKinds,
  kOpIdup = kOpCollKinds
} OpKind;
static const char* const kOpNames[] = {"barrier", "bcast", "allreduce",
                                       "allgather", "idup"};

// A call, with what its check needs (the communicator may be freed and its
// place reused before the call completes).
typedef struct {
  OpKind kind;
  int nonblocking;
  long step;
  int id, n, rank, root, count;
  MtOpKind op;
  int members[kMaxRanks];
  int* send;
  int* recv;
  long recv_len;
  int entry;        // kOpIdup: the new communicator's place
  MPI_Comm parent;  // kOpIdup
} Op;

static Op g_ops[kMtMaxInFlight];
// The places of MtFlight as the schedule sees them (the same on every
// rank): busy from the start of a call until the schedule settles it; a
// rank's own slot is active only if it is a member, and may complete
// earlier.
static int g_busy[kMtMaxInFlight];
static int g_busy_entry[kMtMaxInFlight];  // -1 once that one is freed
static MtFlight g_flight;

static void finish_op(void* record);

static void fail_op(const Op* o, const char* what, long i, int got, int want) {
  MT_FAIL(
      "%s%s started at step %ld on communicator #%d (%d members [%s], rank "
      "%d), root %d, count %d, op %d: %s[%ld] is %d, expected %d",
      o->nonblocking ? "i" : "", kOpNames[o->kind], o->step, o->id, o->n,
      mt_rank_list(o->members, o->n), o->rank, o->root, o->count, (int)o->op,
      what, i, got, want);
}

// Draws a collective on communicator e (every rank draws it).
static Op draw_coll(uint64_t* state, int e) {
  const Entry* x = &g_pool[e];
  Op o;
  memset(&o, 0, sizeof o);
  o.kind = (OpKind)mt_pick(state, kOpCollKinds);
  o.nonblocking = mt_pick(state, 2);
  o.step = g_step;
  o.id = x->id;
  o.n = x->n;
  o.rank = x->rank;
  memcpy(o.members, x->members, sizeof(int) * (size_t)x->n);
  o.root = mt_pick(state, x->n);
  o.op = (MtOpKind)mt_pick(state, kMtOps);
  o.count =
      mt_pick(state, 3) == 0 ? mt_pick_count(state, x->n) : mt_pick(state, 9);
  if (o.count > kMaxCount) {
    o.count = kMaxCount;
  }
  return o;
}

static int* alloc_filled(long n, int value) {
  int* p = mt_alloc_ints(n, 0);
  for (long i = 0; i < n; ++i) {
    p[i] = value;
  }
  return p;
}

// Starts a collective (req NULL: blocking).
static void start_coll(Op* o, MPI_Comm comm, MPI_Request* req) {
  const int c = o->count, r = o->rank;
  o->send = NULL;
  o->recv = NULL;
  o->recv_len = 0;
  switch (o->kind) {
    case kOpBarrier:
      CALL(req != NULL ? MPI_Ibarrier(comm, req) : MPI_Barrier(comm));
      break;
    case kOpBcast:
      o->recv_len = c;
      o->recv = alloc_filled(c, UNTOUCHED);
      if (r == o->root) {
        for (int i = 0; i < c; ++i) {
          o->recv[i] = mt_input(kMtSum, o->step, r, i);
        }
      }
      CALL(req != NULL ? MPI_Ibcast(o->recv, c, MPI_INT, o->root, comm, req)
                       : MPI_Bcast(o->recv, c, MPI_INT, o->root, comm));
      break;
    case kOpAllreduce: {
      const MPI_Op op = mt_mpi_op(o->op);
      o->send = mt_alloc_ints(c, 0);
      for (int i = 0; i < c; ++i) {
        o->send[i] = mt_input(o->op, o->step, r, i);
      }
      o->recv_len = c;
      o->recv = alloc_filled(c, UNTOUCHED);
      CALL(req != NULL
               ? MPI_Iallreduce(o->send, o->recv, c, MPI_INT, op, comm, req)
               : MPI_Allreduce(o->send, o->recv, c, MPI_INT, op, comm));
      break;
    }
    case kOpAllgather: {
      // Each member's block: its world rank, its rank, c inputs.
      const int block = c + 2;
      o->send = mt_alloc_ints(block, 0);
      o->send[0] = g_world;
      o->send[1] = r;
      for (int i = 0; i < c; ++i) {
        o->send[2 + i] = mt_input(kMtSum, o->step, r, i);
      }
      o->recv_len = (long)block * o->n;
      o->recv = alloc_filled(o->recv_len, UNTOUCHED);
      CALL(req != NULL ? MPI_Iallgather(o->send, block, MPI_INT, o->recv, block,
                                        MPI_INT, comm, req)
                       : MPI_Allgather(o->send, block, MPI_INT, o->recv, block,
                                       MPI_INT, comm));
      break;
    }
    default:
      MT_FAIL("no such collective");
  }
}

// Checks a completed collective and frees its buffers.
static void finish_coll(Op* o) {
  const int c = o->count;
  for (long i = 0; i < o->recv_len; ++i) {
    int want = 0;
    switch (o->kind) {
      case kOpBcast:
        want = mt_input(kMtSum, o->step, o->root, i);
        break;
      case kOpAllreduce:
        want = mt_reduced(o->op, o->step, 0, 0, o->n, i);
        break;
      default: {  // allgather
        const int from = (int)(i / (c + 2)), at = (int)(i % (c + 2));
        want = at == 0   ? o->members[from]
               : at == 1 ? from
                         : mt_input(kMtSum, o->step, from, at - 2);
      }
    }
    if (o->recv[i] != want) {
      fail_op(o, "recv", i, o->recv[i], want);
    }
  }
  for (int i = 0; o->send != NULL && o->kind == kOpAllreduce && i < c; ++i) {
    if (o->send[i] != mt_input(o->op, o->step, o->rank, i)) {
      fail_op(o, "send", i, o->send[i], mt_input(o->op, o->step, o->rank, i));
    }
  }
  free(o->send);
  free(o->recv);
  o->send = o->recv = NULL;
}

// MtFlight's finish: a call of this rank completed.
static void finish_op(void* record) {
  Op* o = record;
  if (o->kind != kOpIdup) {
    finish_coll(o);
    return;
  }
  const Entry* x = &g_pool[o->entry];
  char what[160];
  snprintf(what, sizeof what,
           "MPI_Comm_idup started at step %ld, making communicator %s", o->step,
           x->how);
  MT_CHECK(x->comm != MPI_COMM_NULL && x->comm != o->parent,
           "%s: no new communicator", what);
  MT_CHECK_MEMBERS(x->comm, x->members, x->n, what);
  MT_CHECK_COMPARE(o->parent, x->comm, MPI_CONGRUENT, what);
  ++g_made_here;
}

// Settles place s of the schedule: completes this rank's call there if it
// is still in flight, and makes an idup's communicator ready.
static void settle(int s) {
  if (!g_busy[s]) {
    return;
  }
  if (g_flight.active[s]) {
    CALL(MPI_Wait(&g_flight.requests[s], MPI_STATUS_IGNORE));
    mt_flight_finish(&g_flight, s);
  }
  g_busy[s] = 0;
  const Op* o = &g_ops[s];
  if (o->kind == kOpIdup) {
    g_pool[o->entry].ready = 1;
    g_pool[g_busy_entry[s]].idups--;
  } else if (g_busy_entry[s] >= 0) {
    g_pool[g_busy_entry[s]].in_flight--;
  }
}

// Settles every place: this rank completes its calls in an order of its
// own first.
static void settle_all(uint64_t* local) {
  for (;;) {
    int any = 0;
    for (int s = 0; s < kMtMaxInFlight; ++s) {
      any |= g_flight.active[s];
    }
    if (!any) {
      break;
    }
    mt_flight_complete_some(&g_flight, local);
  }
  for (int s = 0; s < kMtMaxInFlight; ++s) {
    settle(s);
  }
}

// A free place for a call, settling a drawn one when all are busy.
static int take_place(uint64_t* shared) {
  for (int s = 0; s < kMtMaxInFlight; ++s) {
    if (!g_busy[s]) {
      return s;
    }
  }
  const int s = mt_pick(shared, kMtMaxInFlight);
  settle(s);
  return s;
}

// ---- actions ----

// Sets g_doing: "step N: " and what the step does.
static void describe(const char* fmt, ...) {
  const int at = snprintf(g_doing, sizeof g_doing, "step %ld: ", g_step);
  va_list args;
  va_start(args, fmt);
  vsnprintf(g_doing + at, sizeof g_doing - (size_t)at, fmt, args);
  va_end(args);
}

static void do_traffic(uint64_t* shared) {
  const int e = pick_ready(shared, 1);
  const Entry* x = &g_pool[e];
  const int how = mt_pick(shared, 4);
  const int tag =
      how == 2 ? kRingTag + mt_pick(shared, 500) : 2 * mt_pick(shared, 250);
  if (how >= 2) {  // point-to-point
    describe("%s on communicator %s",
             how == 2 ? "ring shift" : "ring and gather", x->how);
    if (x->rank < 0) {
      return;
    }
    if (how == 3) {
      MT_CHECK_P2P(x->comm, x->members, x->n, tag, x->id, g_doing);
      return;
    }
    const int right = (x->rank + 1) % x->n, left = (x->rank + x->n - 1) % x->n;
    const int out[3] = {x->id, g_world, (int)g_step};
    int in[3] = {-1, -1, -1};
    MPI_Status status;
    CALL(MPI_Sendrecv(out, 3, MPI_INT, right, tag, in, 3, MPI_INT, left, tag,
                      x->comm, &status));
    MT_CHECK(status.MPI_SOURCE == left && status.MPI_TAG == tag &&
                 in[0] == x->id && in[1] == x->members[left] &&
                 in[2] == (int)g_step,
             "%s: from rank %d tag %d came {communicator #%d, "
             "world rank %d, step %d}, expected rank %d tag %d {#%d, %d, %ld}",
             g_doing, status.MPI_SOURCE, status.MPI_TAG, in[0], in[1], in[2],
             left, tag, x->id, x->members[left], g_step);
    return;
  }
  Op o = draw_coll(shared, e);
  describe("%s%s on communicator %s", o.nonblocking ? "i" : "",
           kOpNames[o.kind], x->how);
  if (!o.nonblocking) {
    if (x->rank >= 0) {
      start_coll(&o, x->comm, NULL);
      finish_coll(&o);
    }
    return;
  }
  const int s = take_place(shared);
  g_ops[s] = o;
  g_busy[s] = 1;
  g_busy_entry[s] = e;
  g_pool[e].in_flight++;
  if (x->rank >= 0) {
    g_flight.active[s] = 1;
    start_coll(&g_ops[s], x->comm, &g_flight.requests[s]);
  }
}

static void do_free(uint64_t* shared, uint64_t* local) {
  int list[kPool];
  int k = 0;
  for (int e = 1; e < kPool; ++e) {
    const Entry* x = &g_pool[e];
    if (x->live && x->ready && x->idups == 0) {
      list[k++] = e;
    }
  }
  if (k == 0) {
    describe("nothing to free");
    return;
  }
  const int e = list[mt_pick(shared, k)];
  Entry* x = &g_pool[e];
  describe("free of communicator %s", x->how);
  int elsewhere = 0;
  for (int s = 0; s < kMtMaxInFlight; ++s) {
    if (g_busy[s] && g_busy_entry[s] == e) {
      g_busy_entry[s] = -1;  // goes on without it
    } else if (g_busy[s]) {
      elsewhere = 1;
    }
  }
  g_freed_busy += x->in_flight > 0;
  g_freed_others += elsewhere;
  if (x->rank >= 0) {
    // Sometimes a member completes its calls on it first.
    if (x->in_flight > 0 && mt_pick(local, 2) == 0) {
      for (int s = 0; s < kMtMaxInFlight; ++s) {
        if (g_flight.active[s] && g_ops[s].id == x->id) {
          CALL(MPI_Wait(&g_flight.requests[s], MPI_STATUS_IGNORE));
          mt_flight_finish(&g_flight, s);
        }
      }
    }
    CALL(MPI_Comm_free(&x->comm));
    MT_CHECK(x->comm == MPI_COMM_NULL, "%s: MPI_Comm_free left the handle",
             g_doing);
  }
  x->live = 0;
}

static void do_dup(uint64_t* shared, int kind) {
  const int p = pick_ready(shared, 1);
  const Entry* parent = &g_pool[p];
  char how[64];
  snprintf(how, sizeof how, "%s of #%d", kCreateNames[kind], parent->id);
  describe("%s", how);
  g_kind_count[kind]++;
  MPI_Comm comm = MPI_COMM_NULL;
  if (parent->rank >= 0) {
    if (kind == kDup) {
      CALL(MPI_Comm_dup(parent->comm, &comm));
    } else {
      MPI_Info info;
      CALL(MPI_Info_create(&info));
      // Hints an implementation may ignore; the assertions stay false so
      // that wildcard receives remain allowed.
      CALL(MPI_Info_set(info, "mpi_assert_no_any_tag", "false"));
      CALL(MPI_Info_set(info, "mpi_assert_exact_length", "false"));
      CALL(MPI_Info_set(info, "random_churn_unknown_key", "1"));
      CALL(MPI_Comm_dup_with_info(parent->comm, info, &comm));
      CALL(MPI_Info_free(&info));
    }
  }
  finish_creation(parent->members, parent->n, comm, parent, 0, how);
}

static void do_idup(uint64_t* shared) {
  const int p = pick_ready(shared, 1);
  Entry* parent = &g_pool[p];
  char how[64];
  snprintf(how, sizeof how, "idup of #%d", parent->id);
  describe("%s", how);
  g_kind_count[kIdup]++;
  ++g_made;
  const int s = take_place(shared);
  const int e = add_entry(parent->members, parent->n, MPI_COMM_NULL, 0, how);
  MT_ASSERT(e >= 0);  // creations only run with a free place
  Op* o = &g_ops[s];
  memset(o, 0, sizeof *o);
  o->kind = kOpIdup;
  o->nonblocking = 1;
  o->step = g_step;
  o->id = parent->id;
  o->entry = e;
  o->parent = parent->comm;
  g_busy[s] = 1;
  g_busy_entry[s] = p;
  parent->idups++;
  if (parent->rank >= 0) {
    g_flight.active[s] = 1;
    CALL(MPI_Comm_idup(parent->comm, &g_pool[e].comm, &g_flight.requests[s]));
  }
}

// Parent ranks of p ordered by (key, parent rank), those with color c:
// MPI_Comm_split's order. Returns how many; out gets world ranks, ranks
// (if not NULL) parent ranks.
static int split_order(const Entry* p, const int* color, const int* key, int c,
                       int* out, int* ranks) {
  int order[kMaxRanks];
  int n = 0;
  for (int i = 0; i < p->n; ++i) {
    if (color[i] != c) {
      continue;
    }
    int at = n++;
    while (at > 0 && key[order[at - 1]] > key[i]) {
      order[at] = order[at - 1];
      --at;
    }
    order[at] = i;
  }
  for (int j = 0; j < n; ++j) {
    out[j] = p->members[order[j]];
    if (ranks != NULL) {
      ranks[j] = order[j];
    }
  }
  return n;
}

static void do_split(uint64_t* shared, int type_shared) {
  const int p = pick_ready(shared, 1);
  const Entry* parent = &g_pool[p];
  const int colors = type_shared ? 1 : 1 + mt_pick(shared, 3);
  int color[kMaxRanks], key[kMaxRanks];
  for (int i = 0; i < parent->n; ++i) {
    color[i] =
        mt_pick(shared, 5) == 0 ? MPI_UNDEFINED : mt_pick(shared, colors);
    key[i] = mt_pick(shared, 5) - 2;
  }
  char how[64];
  snprintf(how, sizeof how, "%s of #%d",
           type_shared ? "split_type(MPI_COMM_TYPE_SHARED)" : "split",
           parent->id);
  describe("%s into %d colors", how, colors);
  g_kind_count[type_shared ? kSplitType : kSplit]++;
  MPI_Comm comm = MPI_COMM_NULL;
  const int me = parent->rank;
  if (me >= 0 && type_shared) {
    CALL(MPI_Comm_split_type(
        parent->comm,
        color[me] == MPI_UNDEFINED ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
        key[me], MPI_INFO_NULL, &comm));
  } else if (me >= 0) {
    CALL(MPI_Comm_split(parent->comm, color[me], key[me], &comm));
  }
  if (me >= 0 && color[me] == MPI_UNDEFINED) {
    MT_CHECK(comm == MPI_COMM_NULL, "%s: MPI_UNDEFINED gave a communicator",
             g_doing);
  }
  for (int c = 0; c < colors; ++c) {
    int members[kMaxRanks];
    const int n = split_order(parent, color, key, c, members, NULL);
    if (n > 0) {
      const int mine = me >= 0 && color[me] == c;
      finish_creation(members, n, mine ? comm : MPI_COMM_NULL, parent, 1, how);
    }
  }
}

// Draws `count` (1 or 2) disjoint nonempty groups of parent ranks, each in
// a random order (sometimes the whole parent in its order); len gets
// their sizes, which (per parent rank) the group or -1.
static void draw_groups(uint64_t* shared, int pn, int count,
                        int groups[2][kMaxRanks], int len[2], int* which) {
  int perm[kMaxRanks];
  mt_shuffle(shared, perm, pn);
  if (count == 1 && mt_pick(shared, 4) == 0) {
    for (int i = 0; i < pn; ++i) {
      perm[i] = i;
    }
  }
  const int total = count + mt_pick(shared, pn - count + 1);
  len[0] = count == 1 ? total : 1 + mt_pick(shared, total - 1);
  len[1] = total - len[0];
  for (int i = 0; i < pn; ++i) {
    which[i] = -1;
  }
  for (int j = 0; j < total; ++j) {
    const int g = j < len[0] ? 0 : 1;
    groups[g][j - (g == 0 ? 0 : len[0])] = perm[j];
    which[perm[j]] = g;
  }
}

// MPI_Comm_create (two groups: the disjoint form) or MPI_Comm_create_group.
static void do_create(uint64_t* shared, int by_group) {
  const int p = pick_ready(shared, 1);
  const Entry* parent = &g_pool[p];
  const int count = parent->n >= 2 ? 1 + mt_pick(shared, 2) : 1;
  int groups[2][kMaxRanks], len[2], which[kMaxRanks];
  draw_groups(shared, parent->n, count, groups, len, which);
  const int tag[2] = {kGroupTag + mt_pick(shared, 1000),
                      kGroupTag + mt_pick(shared, 1000)};
  char how[64];
  snprintf(how, sizeof how, "%s of #%d", by_group ? "create_group" : "create",
           parent->id);
  describe("%s, %d group(s) of %d and %d", how, count, len[0],
           count == 2 ? len[1] : 0);
  g_kind_count[by_group ? kCreateGroup : kCreate]++;
  const int me = parent->rank;
  MPI_Comm comm = MPI_COMM_NULL;
  if (me >= 0) {
    // Single group: every member of the parent passes it. Two: each passes
    // its own, the others MPI_GROUP_EMPTY (and skip create_group).
    const int g = count == 1 ? 0 : which[me];
    MPI_Group parent_group, group = MPI_GROUP_EMPTY;
    CALL(MPI_Comm_group(parent->comm, &parent_group));
    if (g >= 0) {
      CALL(MPI_Group_incl(parent_group, len[g], groups[g], &group));
    }
    if (!by_group) {
      CALL(MPI_Comm_create(parent->comm, group, &comm));
    } else if (which[me] >= 0) {
      CALL(MPI_Comm_create_group(parent->comm, group, tag[g], &comm));
    }
    if (group != MPI_GROUP_EMPTY) {
      CALL(MPI_Group_free(&group));
    }
    CALL(MPI_Group_free(&parent_group));
  }
  for (int g = 0; g < count; ++g) {
    int members[kMaxRanks];
    for (int j = 0; j < len[g]; ++j) {
      members[j] = parent->members[groups[g][j]];
    }
    const int mine = me >= 0 && which[me] == g;
    finish_creation(members, len[g], mine ? comm : MPI_COMM_NULL, parent, 1,
                    how);
  }
}

// Traffic across an intercommunicator whose groups (world ranks) are
// local[0..nl) and remote[0..nr): point-to-point to every remote rank, or
// an allreduce that gives each group the sum of the other's world ranks.
static void inter_traffic(MPI_Comm inter, int how, const int* remote, int nr,
                          int tag) {
  if (how == 0) {
    MT_CHECK_INTER_P2P(inter, remote, nr, tag, (int)g_step, g_doing);
    return;
  }
  long sum = 0, want = 0;
  for (int i = 0; i < nr; ++i) {
    want += remote[i];
  }
  const long mine = g_world;
  CALL(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, inter));
  MT_CHECK(sum == want,
           "%s: allreduce across gave %ld, expected %ld (the "
           "remote group's world ranks [%s])",
           g_doing, sum, want, mt_rank_list(remote, nr));
}

static void do_intercomm(uint64_t* shared) {
  const int p = pick_ready(shared, 2);
  const Entry* parent = &g_pool[p];
  const int pn = parent->n;
  int perm[kMaxRanks], side[kMaxRanks], key[kMaxRanks];
  mt_shuffle(shared, perm, pn);
  const int total = 2 + mt_pick(shared, pn - 1);
  const int n0 = 1 + mt_pick(shared, total - 1);
  for (int i = 0; i < pn; ++i) {
    side[i] = MPI_UNDEFINED;
    key[i] = mt_pick(shared, 4);
  }
  for (int j = 0; j < total; ++j) {
    side[perm[j]] = j < n0 ? 0 : 1;
  }
  int world[2][kMaxRanks], prank[2][kMaxRanks], n[2], leader[2], high[2];
  for (int g = 0; g < 2; ++g) {
    n[g] = split_order(parent, side, key, g, world[g], prank[g]);
    leader[g] = mt_pick(shared, n[g]);
    high[g] = mt_pick(shared, 2);
  }
  const int peer_is_world = mt_pick(shared, 2);
  const int tag = kInterTag + mt_pick(shared, 1000);
  const int traffic = mt_pick(shared, 3);
  char first[kMaxRanks * 6 + 8];
  snprintf(first, sizeof first, "%s", mt_rank_list(world[0], n[0]));
  describe(
      "intercomm of #%d, groups [%s] and [%s], leaders %d and %d, peer %s, "
      "high %d/%d",
      parent->id, first, mt_rank_list(world[1], n[1]), leader[0], leader[1],
      peer_is_world ? "world" : "parent", high[0], high[1]);
  g_kind_count[kInter]++;
  g_made += 4;  // the two local communicators, the intercommunicator, the
                // merged one (counted again if it goes in the pool)
  const int me = parent->rank;
  const int g = me >= 0 ? side[me] : MPI_UNDEFINED;
  MPI_Comm merged = MPI_COMM_NULL;
  if (me >= 0) {
    MPI_Comm local = MPI_COMM_NULL;
    CALL(MPI_Comm_split(parent->comm, g, key[me], &local));
    if (g != MPI_UNDEFINED) {
      g_made_here += 3;
      const int o = 1 - g;
      MT_CHECK_MEMBERS(local, world[g], n[g], g_doing);
      const int remote_leader =
          peer_is_world ? world[o][leader[o]] : prank[o][leader[o]];
      MPI_Comm inter = MPI_COMM_NULL;
      CALL(MPI_Intercomm_create(local, leader[g],
                                peer_is_world ? MPI_COMM_WORLD : parent->comm,
                                remote_leader, tag, &inter));
      MT_CHECK_INTER(inter, world[g], n[g], world[o], n[o], g_doing);
      MT_CHECK_COMPARE(inter, parent->comm, MPI_UNEQUAL, g_doing);
      if (traffic < 2) {
        inter_traffic(inter, traffic, world[o], n[o], tag);
      }
      CALL(MPI_Intercomm_merge(inter, high[g], &merged));
      CALL(MPI_Comm_free(&inter));
      CALL(MPI_Comm_free(&local));
    } else {
      MT_CHECK(local == MPI_COMM_NULL, "%s: MPI_UNDEFINED gave a communicator",
               g_doing);
    }
  }
  int order[kMaxRanks];
  const int low = high[0] ? 1 : 0;
  memcpy(order, world[low], sizeof(int) * (size_t)n[low]);
  memcpy(order + n[low], world[1 - low], sizeof(int) * (size_t)n[1 - low]);
  if (high[0] != high[1]) {
    --g_made;  // finish_creation counts it
    if (g != MPI_UNDEFINED) {
      --g_made_here;
    }
    finish_creation(order, total, merged, parent, 1, "merge");
    return;
  }
  // Equal flags: MPI leaves the order open, so only the members are
  // checked (and the communicator does not join the pool, whose member
  // lists every rank must know).
  if (merged == MPI_COMM_NULL) {
    return;
  }
  int size = -1, got[kMaxRanks];
  CALL(MPI_Comm_size(merged, &size));
  MT_CHECK(size == total, "%s: merged size %d, expected %d", g_doing, size,
           total);
  CALL(MPI_Allgather(&g_world, 1, MPI_INT, got, 1, MPI_INT, merged));
  for (int i = 0; i < total; ++i) {
    MT_CHECK(index_of(got, total, order[i]) >= 0,
             "%s: world rank %d missing from the merge", g_doing, order[i]);
  }
  CALL(MPI_Comm_free(&merged));
}

// Isolation between two congruent communicators: a dup and its parent (or
// two dups of one). Receives on both, in an order each rank draws; sends
// the other way round; each message must arrive on its own communicator.
static void do_isolation(uint64_t* shared, uint64_t* local) {
  const int a = pick_ready(shared, 1);
  int list[kPool];
  int k = 0;
  for (int e = 0; e < kPool; ++e) {
    const Entry* y = &g_pool[e];
    if (e != a && y->live && y->ready &&
        expected_compare(y->members, y->n, g_pool[a].members, g_pool[a].n) ==
            MPI_CONGRUENT) {
      list[k++] = e;
    }
  }
  const int wildcards = mt_pick(shared, 3);
  const int tag = kIsolationTag + mt_pick(shared, 1000);
  int b = k > 0 ? list[mt_pick(shared, k)] : -1;
  MPI_Comm temp = MPI_COMM_NULL;
  const Entry* x = &g_pool[a];
  describe("isolation between %s and %s", x->how,
           b >= 0 ? g_pool[b].how : "a new dup");
  if (b < 0) {  // a dup for the purpose
    g_kind_count[kDup]++;
    MPI_Comm comm = MPI_COMM_NULL;
    if (x->rank >= 0) {
      CALL(MPI_Comm_dup(x->comm, &comm));
    }
    char how[64];
    snprintf(how, sizeof how, "dup of #%d", x->id);
    const int live = live_count();
    if (live < kPool) {
      b = finish_creation(x->members, x->n, comm, x, 0, how);
    } else {
      ++g_made;
      g_made_here += x->rank >= 0;
      temp = comm;
    }
  }
  if (x->rank < 0) {
    return;
  }
  MPI_Comm comms[2] = {x->comm, b >= 0 ? g_pool[b].comm : temp};
  const int ids[2] = {x->id, b >= 0 ? g_pool[b].id : -1};
  MT_CHECK_COMPARE(comms[0], comms[1], MPI_CONGRUENT, g_doing);
  const int n = x->n, r = x->rank;
  const int right = (r + 1) % n, left = (r + n - 1) % n;
  const int first = mt_pick(local, 2);
  int out[2][3], in[2][3];
  MPI_Request reqs[4];
  for (int j = 0; j < 2; ++j) {
    const int c = j == 0 ? first : 1 - first;
    in[c][0] = in[c][1] = in[c][2] = -1;
    CALL(MPI_Irecv(in[c], 3, MPI_INT, wildcards > 0 ? MPI_ANY_SOURCE : left,
                   wildcards > 1 ? MPI_ANY_TAG : tag, comms[c], &reqs[c]));
  }
  for (int j = 0; j < 2; ++j) {
    const int c = j == 0 ? 1 - first : first;
    out[c][0] = ids[c];
    out[c][1] = g_world;
    out[c][2] = c;
    CALL(MPI_Isend(out[c], 3, MPI_INT, right, tag, comms[c], &reqs[2 + c]));
  }
  MPI_Status statuses[4];
  CALL(MPI_Waitall(4, reqs, statuses));
  for (int c = 0; c < 2; ++c) {
    MT_CHECK(
        statuses[c].MPI_SOURCE == left && statuses[c].MPI_TAG == tag &&
            in[c][0] == ids[c] && in[c][1] == x->members[left] && in[c][2] == c,
        "%s: on communicator %d (#%d) came from rank %d tag "
        "%d the message {#%d, world rank %d, %d}, expected rank %d tag "
        "%d {#%d, %d, %d}",
        g_doing, c, ids[c], statuses[c].MPI_SOURCE, statuses[c].MPI_TAG,
        in[c][0], in[c][1], in[c][2], left, tag, ids[c], x->members[left], c);
  }
  if (wildcards > 1) {
    // Until every member has received, no member may go on to later
    // traffic that an MPI_ANY_TAG receive would match.
    CALL(MPI_Barrier(comms[0]));
  }
  if (temp != MPI_COMM_NULL) {
    CALL(MPI_Comm_free(&temp));
  }
}

// A sweep: one message on every communicator this rank holds, to its
// right neighbour there, received with MPI_ANY_SOURCE on the sweeps' tag;
// the receives are posted in the pool's order or the reverse (each rank
// draws), the sends go the other way. Two communicators that share a
// context in one process would swap messages.
static void do_sweep(uint64_t* local) {
  describe("one message on each communicator");
  int held[kPool];
  int k = 0;
  for (int e = 0; e < kPool; ++e) {
    if (g_pool[e].live && g_pool[e].ready && g_pool[e].rank >= 0) {
      held[k++] = e;
    }
  }
  const int reverse = mt_pick(local, 2);
  int in[kPool][3], out[kPool][3];
  MPI_Request reqs[2 * kPool];
  MPI_Status statuses[2 * kPool];
  for (int j = 0; j < k; ++j) {
    const int i = reverse ? k - 1 - j : j;
    in[i][0] = in[i][1] = in[i][2] = -1;
    CALL(MPI_Irecv(in[i], 3, MPI_INT, MPI_ANY_SOURCE, kSweepTag,
                   g_pool[held[i]].comm, &reqs[i]));
  }
  for (int j = 0; j < k; ++j) {
    const int i = reverse ? j : k - 1 - j;
    const Entry* x = &g_pool[held[i]];
    out[i][0] = x->id;
    out[i][1] = g_world;
    out[i][2] = (int)g_step;
    CALL(MPI_Isend(out[i], 3, MPI_INT, (x->rank + 1) % x->n, kSweepTag, x->comm,
                   &reqs[k + i]));
  }
  CALL(MPI_Waitall(2 * k, reqs, statuses));
  for (int i = 0; i < k; ++i) {
    const Entry* x = &g_pool[held[i]];
    const int left = (x->rank + x->n - 1) % x->n;
    MT_CHECK(statuses[i].MPI_SOURCE == left && in[i][0] == x->id &&
                 in[i][1] == x->members[left] && in[i][2] == (int)g_step,
             "%s: on communicator %s (%d members [%s]) came from rank %d "
             "the message {#%d, world rank %d, step %d}, expected rank %d "
             "(world rank %d)",
             g_doing, x->how, x->n, mt_rank_list(x->members, x->n),
             statuses[i].MPI_SOURCE, in[i][0], in[i][1], in[i][2], left,
             x->members[left]);
  }
}

static void do_create_any(uint64_t* shared) {
  const int kind = mt_pick(shared, kCreateKinds);
  switch (kind) {
    case kDup:
    case kDupInfo:
      do_dup(shared, kind);
      break;
    case kIdup:
      do_idup(shared);
      break;
    case kSplit:
    case kSplitType:
      do_split(shared, kind == kSplitType);
      break;
    case kCreate:
    case kCreateGroup:
      do_create(shared, kind == kCreateGroup);
      break;
    default:
      do_intercomm(shared);
  }
}

// ---- context IDs left ----

// How many dups of MPI_COMM_SELF this process can hold at once.
static int self_dup_capacity(void) {
  static MPI_Comm dups[kSelfDupLimit];
  int n = 0;
  while (n < kSelfDupLimit &&
         MPI_Comm_dup(MPI_COMM_SELF, &dups[n]) == MPI_SUCCESS) {
    ++n;
  }
  for (int i = 0; i < n; ++i) {
    CALL(MPI_Comm_free(&dups[i]));
  }
  return n;
}

int main(int argc, char** argv) {
  const uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  const long steps = mt_scale(argc > 2 ? atol(argv[2]) : 2000);
  MPI_Init(&argc, &argv);
  g_world = mt_rank();
  g_np = mt_size();
  if (g_np < 2) {
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  MT_CHECK(g_np <= kMaxRanks, "at most %d ranks", (int)kMaxRanks);
  CALL(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CALL(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  mt_random_ops_create();
  describe("counting the MPI_COMM_SELF dups before");
  const int capacity_before = self_dup_capacity();

  Entry* world = &g_pool[0];
  world->live = world->ready = 1;
  world->n = g_np;
  for (int i = 0; i < g_np; ++i) {
    world->members[i] = i;
  }
  world->rank = g_world;
  world->comm = MPI_COMM_WORLD;
  snprintf(world->how, sizeof world->how, "#0, MPI_COMM_WORLD");
  for (int e = 1; e < kPool; ++e) {
    g_pool[e].comm = MPI_COMM_NULL;
  }
  g_flight = (MtFlight){.finish = finish_op,
                        .records = g_ops,
                        .record_size = sizeof(Op),
                        .mixed_completions = 1};
  for (int s = 0; s < kMtMaxInFlight; ++s) {
    g_flight.requests[s] = MPI_REQUEST_NULL;
  }
  uint64_t shared = seed;
  uint64_t local = seed * 1000003u + (uint64_t)g_world;
  for (g_step = 0; g_step < steps; ++g_step) {
    const int live = live_count();
    const int action = mt_pick(&shared, 100);
    if (live == kPool || (action < 30 && live > 1)) {
      do_free(&shared, &local);
    } else if (action < 70) {
      do_create_any(&shared);
    } else if (action < 90) {
      do_traffic(&shared);
    } else if (action < 96) {
      do_isolation(&shared, &local);
    } else {
      do_sweep(&local);
    }
    while (mt_pick(&local, 4) == 0) {
      mt_flight_complete_some(&g_flight, &local);
    }
    if (mt_pick(&shared, 8) == 0) {
      settle(mt_pick(&shared, kMtMaxInFlight));
    }
    if (mt_pick(&shared, 40) == 0) {
      settle_all(&local);
    }
  }
  describe("the end");
  settle_all(&local);
  for (int e = 1; e < kPool; ++e) {
    if (g_pool[e].live && g_pool[e].rank >= 0) {
      CALL(MPI_Comm_free(&g_pool[e].comm));
    }
  }
  describe("counting the MPI_COMM_SELF dups after");
  const int capacity_after = self_dup_capacity();
  MT_CHECK(capacity_after + kReserveSlack >= capacity_before,
           "%ld communicators made here: this process can hold %d dups of "
           "MPI_COMM_SELF at once now, %d before: context IDs were lost",
           g_made_here, capacity_after, capacity_before);
  long least = g_made_here;
  CALL(MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_LONG, MPI_MIN,
                     MPI_COMM_WORLD));
  if (g_world == 0) {
    printf(
        "random communicator churn: seed %llu, %ld steps, %ld "
        "communicators made (at least %ld on each rank), at most %d live; "
        "frees with own calls in flight %ld, with others' %ld; "
        "MPI_COMM_SELF dups held %d before, %d after\n",
        (unsigned long long)seed, steps, g_made, least, g_max_live,
        g_freed_busy, g_freed_others, capacity_before, capacity_after);
    printf("creation calls:");
    for (int k = 0; k < kCreateKinds; ++k) {
      printf(" %s %ld", kCreateNames[k], g_kind_count[k]);
    }
    printf("\n");
  }
  mt_random_ops_free();
  MPI_Finalize();
  return 0;
}
