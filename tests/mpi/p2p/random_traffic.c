// SPDX-License-Identifier: MIT
// Seeded random point-to-point traffic, checked message by message.
//
// Every rank draws the same schedule from the seed: phases of messages, each
// with a source, destination, communicator (MPI_COMM_WORLD, a duplicate, and
// a split with the ranks reversed), tag, length (mostly around the protocol
// boundaries, up to 1 MiB + 7), send mode, buffer kind (malloc, a large
// malloc'd block, MPI_Alloc_mem) and layout (contiguous or strided). Each
// receiver takes its messages in a random mix of styles: probe-gated
// blocking receives with and without wildcards, matched probes, posted
// receives (plain and persistent) completed with Testsome, and a wildcard
// receive cancelled at once (whether or not it matched). A nonblocking
// barrier and allreduce run under each phase's traffic.
//
// The receiver knows each sender's order of sends, so it checks not only
// content and status but the non-overtaking rule (MPI 4.0 §3.5): a receive
// must get the earliest message from its source that it matches and that no
// earlier receive has claimed.
//
// Deadlock freedom: blocking sends (standard, synchronous) go only to higher
// ranks; the others are nonblocking or buffered. A receiver never blocks on
// a message it has not seen: a blocking receive follows a probe that found
// a match, and posted receives are tested, not waited for. So the highest
// rank never blocks, and by induction every rank gets through its sends.
//
// With THREADS, each of that many threads runs a stream of its own (its
// own seed, on communicators of its own) under MPI_THREAD_MULTIPLE, all
// through the same pairs of ranks at once.
//
// usage: random_traffic [SEED [PHASES [THREADS]]]
#include <sched.h>

#include "mt_threads.h"

enum {
  kComms = 3,
  kTags = 3,
  kGap = 5,         // bytes between blocks of a strided layout
  kMaxPending = 8,  // posted receives at a time
  kStridedMax = 70000,
};
static const size_t kMaxLen = (1u << 20) + 7;
static const size_t kBsendCap = 1u << 20;  // buffered bytes per rank and phase

typedef enum {
  kSend,
  kSsend,
  kIsend,
  kIssend,
  kIbsend,
  kBsend,
  kPersistent,
  kModes
} SendMode;
typedef enum { kPrivate, kLargeBlock, kAllocMem, kBufKinds } BufKind;

typedef struct {
  int src, dst, comm, tag;
  size_t len;
  SendMode mode;
  BufKind send_buf;
  int send_block;  // 0: contiguous, else bytes per block of a strided type
  uint32_t seed;
  int assigned;  // receiver: claimed by a receive
} Message;

static unsigned pick(uint64_t* state, unsigned n) {
  return mt_random_below(state, n);
}

static size_t pick_len(uint64_t* state) {
  static const size_t kEdges[] = {
      0,     1,     7,     8,     27,    28,   29,   31,   32,    55,
      56,    57,    60,    63,    64,    65,   100,  127,  128,   200,
      255,   256,   511,   512,   1000,  1023, 1024, 1279, 1280,  1281,
      1791,  1792,  1793,  2047,  2048,  4095, 4096, 8192, 16383, 16384,
      32767, 32768, 32769, 65535, 65536, 65537};
  const unsigned r = pick(state, 100);
  if (r < 70) {
    return kEdges[pick(state, sizeof kEdges / sizeof kEdges[0])];
  }
  if (r < 90) {
    return pick(state, 70000);
  }
  if (r < 97) {
    return 65536 + pick(state, 300000);
  }
  return kMaxLen;
}

// A block length that divides len (so len bytes are whole blocks), or 0.
static int pick_block(uint64_t* state, size_t len) {
  static const int kBlocks[] = {1, 4, 16, 100};
  if (len == 0 || len > kStridedMax || pick(state, 3) != 0) {
    return 0;
  }
  const int b = kBlocks[pick(state, 4)];
  return len % (size_t)b == 0 ? b : 0;
}

// The communicators of the stream this thread runs (one stream per thread
// with threads, each on communicators of its own).
static _Thread_local MPI_Comm g_comms[kComms];
static int g_rank, g_size;

// Rank numbers: comm 2 numbers the ranks backwards (an involution).
static int to_comm_rank(int comm, int world) {
  return comm == 2 ? g_size - 1 - world : world;
}

// A layout of len bytes: contiguous MPI_BYTE, or blocks of `block` bytes
// every block + kGap bytes.
typedef struct {
  MPI_Datatype type;
  int count;
  int block;
  size_t span;  // bytes of buffer it covers
} Layout;

static Layout make_layout(size_t len, int block) {
  Layout l = {MPI_BYTE, (int)len, 0, len};
  if (block > 0) {
    MPI_Datatype contiguous;
    MT_CHECK_MPI(MPI_Type_contiguous(block, MPI_BYTE, &contiguous));
    MT_CHECK_MPI(MPI_Type_create_resized(contiguous, 0, block + kGap, &l.type));
    MT_CHECK_MPI(MPI_Type_commit(&l.type));
    MT_CHECK_MPI(MPI_Type_free(&contiguous));
    l.count = (int)(len / (size_t)block);
    l.block = block;
    l.span = (size_t)l.count * (size_t)(block + kGap);
  }
  return l;
}
static void free_layout(Layout* l) {
  if (l->block > 0) {
    MT_CHECK_MPI(MPI_Type_free(&l->type));
  }
}
// Where logical byte i of the message lies in the buffer.
static size_t layout_offset(const Layout* l, size_t i) {
  if (l->block == 0) {
    return i;
  }
  return i / (size_t)l->block * (size_t)(l->block + kGap) +
         i % (size_t)l->block;
}

// A buffer of at least `bytes` plus a guard; a large block is at least
// 64 KiB (shmpi puts those in the shared heap).
typedef struct {
  unsigned char* base;
  BufKind kind;
} Buffer;

static Buffer make_buffer(size_t bytes, BufKind kind) {
  Buffer b = {NULL, kind};
  size_t need = bytes + MT_GUARD_LEN;
  if (kind == kLargeBlock && need < 65536 + 4096) {
    need = 65536 + 4096;
  }
  b.base = (unsigned char*)mt_alloc(need, kind == kAllocMem);
  return b;
}
static void free_buffer(Buffer* b) {
  mt_free(b->base, b->kind == kAllocMem);
  b->base = NULL;
}

// ---- the schedule ----

typedef struct {
  Message* messages;
  int count;
} Phase;

static Phase draw_phase(uint64_t* state) {
  Phase p;
  p.count = 3 * g_size + (int)pick(state, (unsigned)(3 * g_size));
  p.messages = mt_malloc(sizeof(Message) * (size_t)p.count);
  size_t* buffered = calloc((size_t)g_size, sizeof(size_t));
  MT_ASSERT(buffered != NULL);
  for (int i = 0; i < p.count; ++i) {
    Message* m = &p.messages[i];
    m->src = (int)pick(state, (unsigned)g_size);
    m->dst = (int)pick(state, (unsigned)g_size);
    m->comm = (int)pick(state, kComms);
    m->tag = (int)pick(state, kTags);
    m->len = pick_len(state);
    m->mode = (SendMode)pick(state, kModes);
    if (m->dst <= m->src && (m->mode == kSend || m->mode == kSsend)) {
      m->mode = kIsend;  // blocking sends go to higher ranks only
    }
    if (m->mode == kIbsend || m->mode == kBsend) {
      if (buffered[m->src] + m->len > kBsendCap) {
        m->mode = kIsend;
      } else {
        buffered[m->src] += m->len;
      }
    }
    m->send_buf = (BufKind)pick(state, kBufKinds);
    m->send_block = pick_block(state, m->len);
    m->seed = (uint32_t)mt_random(state);
    m->assigned = 0;
  }
  free(buffered);
  return p;
}

// ---- sending ----

typedef struct {
  MPI_Request request;
  Buffer buffer;
  Layout layout;
  int persistent;
} SendSlot;

static int post_sends(const Phase* p, SendSlot* slots) {
  int n = 0;
  for (int i = 0; i < p->count; ++i) {
    const Message* m = &p->messages[i];
    if (m->src != g_rank) {
      continue;
    }
    SendSlot* s = &slots[n++];
    s->layout = make_layout(m->len, m->send_block);
    s->buffer = make_buffer(s->layout.span, m->send_buf);
    memset(s->buffer.base, 0xA5, s->layout.span);
    for (size_t k = 0; k < m->len; ++k) {
      s->buffer.base[layout_offset(&s->layout, k)] =
          mt_pattern_byte(m->seed, k);
    }
    s->request = MPI_REQUEST_NULL;
    s->persistent = 0;
    const MPI_Comm comm = g_comms[m->comm];
    const int dst = to_comm_rank(m->comm, m->dst);
    void* buf = s->buffer.base;
    const MPI_Datatype t = s->layout.type;
    const int c = s->layout.count;
    switch (m->mode) {
      case kSend:
        MT_CHECK_MPI(MPI_Send(buf, c, t, dst, m->tag, comm));
        break;
      case kSsend:
        MT_CHECK_MPI(MPI_Ssend(buf, c, t, dst, m->tag, comm));
        break;
      case kIsend:
        MT_CHECK_MPI(MPI_Isend(buf, c, t, dst, m->tag, comm, &s->request));
        break;
      case kIssend:
        MT_CHECK_MPI(MPI_Issend(buf, c, t, dst, m->tag, comm, &s->request));
        break;
      case kIbsend:
        MT_CHECK_MPI(MPI_Ibsend(buf, c, t, dst, m->tag, comm, &s->request));
        break;
      case kBsend:
        MT_CHECK_MPI(MPI_Bsend(buf, c, t, dst, m->tag, comm));
        break;
      default:
        MT_CHECK_MPI(MPI_Send_init(buf, c, t, dst, m->tag, comm, &s->request));
        MT_CHECK_MPI(MPI_Start(&s->request));
        s->persistent = 1;
        break;
    }
  }
  return n;
}

static void finish_sends(SendSlot* slots, int n) {
  for (int i = 0; i < n; ++i) {
    SendSlot* s = &slots[i];
    if (s->request != MPI_REQUEST_NULL) {
      MT_CHECK_MPI(MPI_Wait(&s->request, MPI_STATUS_IGNORE));
    }
    if (s->persistent) {
      MT_CHECK_MPI(MPI_Request_free(&s->request));
    }
    free_layout(&s->layout);
    free_buffer(&s->buffer);
  }
}

// ---- receiving ----

typedef struct {
  Message** incoming;  // this rank's messages in schedule (= send) order
  int count;
  int done;
  size_t bytes;
} Inbox;

// The earliest unclaimed message of comm from `src` (world rank, or -1 for
// any) with `tag` (or MPI_ANY_TAG), or NULL.
static Message* first_unclaimed(Inbox* in, int comm, int src, int tag) {
  for (int i = 0; i < in->count; ++i) {
    Message* m = in->incoming[i];
    if (!m->assigned && m->comm == comm && (src < 0 || m->src == src) &&
        (tag == MPI_ANY_TAG || m->tag == tag)) {
      return m;
    }
  }
  return NULL;
}

typedef struct {
  MPI_Request request;
  Message* expected;  // claimed at posting (specific source and tag)
  Buffer buffer;
  Layout layout;
  size_t capacity;  // logical bytes the receive accepts
  int persistent;
  const char* style;
} RecvSlot;

// A receive buffer for a message of `len` bytes (known) or up to kMaxLen.
static void prepare_recv(RecvSlot* r, const Message* known, uint64_t* local) {
  const size_t len = known != NULL ? known->len : kMaxLen;
  const int block = known != NULL ? pick_block(local, len) : 0;
  const size_t extra = known != NULL && block == 0 ? pick(local, 3) * 40 : 0;
  r->layout = make_layout(len + extra, block);
  r->capacity = len + extra;
  r->buffer = make_buffer(r->layout.span, (BufKind)pick(local, kBufKinds));
  memset(r->buffer.base, MT_GUARD_BYTE, r->layout.span + MT_GUARD_LEN);
  r->request = MPI_REQUEST_NULL;
  r->persistent = 0;
}

// Checks a completed receive of `m` (world source) with `status`.
static void check_received(Inbox* in, RecvSlot* r, Message* m,
                           const MPI_Status* status) {
  MT_CHECK(m != NULL,
           "%s: got a message (source %d, tag %d) that no unclaimed one "
           "matches",
           r->style, status->MPI_SOURCE, status->MPI_TAG);
  const int src_in_comm = to_comm_rank(m->comm, m->src);
  int count = -1;
  MT_CHECK_MPI(MPI_Get_count(status, MPI_BYTE, &count));
  MT_CHECK(status->MPI_SOURCE == src_in_comm && status->MPI_TAG == m->tag &&
               (size_t)count == m->len,
           "%s: status source %d tag %d count %d, expected the earliest "
           "match: source %d tag %d length %zu (comm %d)",
           r->style, status->MPI_SOURCE, status->MPI_TAG, count, src_in_comm,
           m->tag, m->len, m->comm);
  // Past the message only its first 4 KiB and the guard: a wildcard
  // receive's buffer holds the largest message.
  const size_t checked =
      r->capacity < m->len + 4096 ? r->capacity : m->len + 4096;
  for (size_t k = 0; k < checked; ++k) {
    const unsigned char got = r->buffer.base[layout_offset(&r->layout, k)];
    const unsigned char want =
        k < m->len ? mt_pattern_byte(m->seed, k) : MT_GUARD_BYTE;
    MT_CHECK(got == want,
             "%s: byte %zu of %zu (capacity %zu, block %d) is %#x, not %#x: "
             "from rank %d, comm %d, tag %d",
             r->style, k, m->len, r->capacity, r->layout.block, got, want,
             m->src, m->comm, m->tag);
  }
  if (r->layout.block > 0) {  // the gaps between blocks stay untouched
    for (size_t off = 0; off < r->layout.span; ++off) {
      if (off % (size_t)(r->layout.block + kGap) >= (size_t)r->layout.block) {
        MT_CHECK(r->buffer.base[off] == MT_GUARD_BYTE,
                 "%s: gap byte %zu of a strided receive was written", r->style,
                 off);
      }
    }
  }
  MT_CHECK_GUARD(r->buffer.base, r->layout.span, r->style);
  m->assigned = 1;
  in->done++;
  in->bytes += m->len;
}

static void release_recv(RecvSlot* r) {
  if (r->persistent) {
    MT_CHECK_MPI(MPI_Request_free(&r->request));
  }
  free_layout(&r->layout);
  free_buffer(&r->buffer);
}

// The world rank of a status's source in `comm`.
static int world_source(int comm, const MPI_Status* status) {
  return to_comm_rank(comm, status->MPI_SOURCE);
}

// A random unclaimed message: its stream picks the receive's envelope.
static Message* any_unclaimed(Inbox* in, uint64_t* local) {
  int left = 0;
  for (int i = 0; i < in->count; ++i) {
    left += !in->incoming[i]->assigned;
  }
  if (left == 0) {
    return NULL;
  }
  int k = (int)pick(local, (unsigned)left);
  for (int i = 0; i < in->count; ++i) {
    if (!in->incoming[i]->assigned && k-- == 0) {
      return in->incoming[i];
    }
  }
  return NULL;
}

// A probe-gated blocking receive, with or without wildcards. Returns 1 if
// it received something.
static int probe_then_recv(Inbox* in, uint64_t* local) {
  const Message* hint = any_unclaimed(in, local);
  if (hint == NULL) {
    return 0;
  }
  const int comm = hint->comm;
  const unsigned wild = pick(local, 4);  // bit 0: any source, bit 1: any tag
  const int src = (wild & 1) ? MPI_ANY_SOURCE : to_comm_rank(comm, hint->src);
  const int tag = (wild & 2) ? MPI_ANY_TAG : hint->tag;
  int flag = 0;
  MPI_Status probed;
  MT_CHECK_MPI(MPI_Iprobe(src, tag, g_comms[comm], &flag, &probed));
  if (!flag) {
    return 0;
  }
  const int world = world_source(comm, &probed);
  Message* m = first_unclaimed(in, comm, world, tag);
  RecvSlot r;
  r.style = wild == 0   ? "probe + recv"
            : wild == 1 ? "probe + recv (any source)"
            : wild == 2 ? "probe + recv (any tag)"
                        : "probe + recv (any source, any tag)";
  // Half the time the receive repeats the probe's envelope; else it uses
  // what the probe found (the message the next receive must get).
  const int exact = pick(local, 2);
  prepare_recv(&r, exact ? m : NULL, local);
  MPI_Status status;
  MT_CHECK_MPI(MPI_Recv(r.buffer.base, r.layout.count, r.layout.type,
                        exact ? probed.MPI_SOURCE : src,
                        exact ? probed.MPI_TAG : tag, g_comms[comm], &status));
  int probed_count = -1;
  MPI_Get_count(&probed, MPI_BYTE, &probed_count);
  if (exact || !(wild & 1)) {
    MT_CHECK(status.MPI_SOURCE == probed.MPI_SOURCE,
             "%s: probe found source %d, receive got %d", r.style,
             probed.MPI_SOURCE, status.MPI_SOURCE);
  }
  if (world_source(comm, &status) != world) {
    m = first_unclaimed(in, comm, world_source(comm, &status), tag);
  }
  check_received(in, &r, m, &status);
  release_recv(&r);
  return 1;
}

// A matched probe (blocking MPI_Mprobe only after MPI_Improbe found one),
// then MPI_Mrecv or MPI_Imrecv.
static int matched_probe(Inbox* in, uint64_t* local) {
  const Message* hint = any_unclaimed(in, local);
  if (hint == NULL) {
    return 0;
  }
  const int comm = hint->comm;
  const unsigned wild = pick(local, 4);
  const int src = (wild & 1) ? MPI_ANY_SOURCE : to_comm_rank(comm, hint->src);
  const int tag = (wild & 2) ? MPI_ANY_TAG : hint->tag;
  int flag = 0;
  MPI_Message message;
  MPI_Status probed;
  MT_CHECK_MPI(MPI_Improbe(src, tag, g_comms[comm], &flag, &message, &probed));
  if (!flag) {
    return 0;
  }
  Message* m = first_unclaimed(in, comm, world_source(comm, &probed), tag);
  RecvSlot r;
  r.style = "improbe + mrecv";
  prepare_recv(&r, pick(local, 2) ? m : NULL, local);
  MPI_Status status;
  if (pick(local, 2)) {
    MT_CHECK_MPI(MPI_Mrecv(r.buffer.base, r.layout.count, r.layout.type,
                           &message, &status));
  } else {
    r.style = "improbe + imrecv";
    MPI_Request request;
    MT_CHECK_MPI(MPI_Imrecv(r.buffer.base, r.layout.count, r.layout.type,
                            &message, &request));
    MT_CHECK_MPI(MPI_Wait(&request, &status));
  }
  MT_ASSERT(message == MPI_MESSAGE_NULL);
  check_received(in, &r, m, &status);
  release_recv(&r);
  return 1;
}

// Posts a receive for a specific source and tag; it claims that stream's
// earliest unclaimed message now (receives match in the order posted).
static void post_specific(Inbox* in, RecvSlot* r, uint64_t* local) {
  const Message* hint = any_unclaimed(in, local);
  Message* m = first_unclaimed(in, hint->comm, hint->src, hint->tag);
  m->assigned = 2;  // claimed, not yet received
  r->expected = m;
  prepare_recv(r, m, local);
  const MPI_Comm comm = g_comms[m->comm];
  const int src = to_comm_rank(m->comm, m->src);
  if (pick(local, 3) == 0) {
    r->style = "persistent recv";
    MT_CHECK_MPI(MPI_Recv_init(r->buffer.base, r->layout.count, r->layout.type,
                               src, m->tag, comm, &r->request));
    MT_CHECK_MPI(MPI_Start(&r->request));
    r->persistent = 1;
  } else {
    r->style = "irecv";
    MT_CHECK_MPI(MPI_Irecv(r->buffer.base, r->layout.count, r->layout.type, src,
                           m->tag, comm, &r->request));
  }
}

// A wildcard receive posted and cancelled at once: either the cancel wins
// (nothing is consumed) or the receive got the earliest message it matched.
// Only with no other receive posted, so that message is known.
static int cancelled_wildcard(Inbox* in, uint64_t* local) {
  const int comm = (int)pick(local, kComms);
  RecvSlot r;
  r.style = "cancelled wildcard irecv";
  prepare_recv(&r, NULL, local);
  MPI_Request request;
  MT_CHECK_MPI(MPI_Irecv(r.buffer.base, r.layout.count, r.layout.type,
                         MPI_ANY_SOURCE, MPI_ANY_TAG, g_comms[comm], &request));
  if (pick(local, 2)) {
    int flag = 0;
    MT_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, g_comms[comm], &flag,
                            MPI_STATUS_IGNORE));
  }
  MT_CHECK_MPI(MPI_Cancel(&request));
  MPI_Status status;
  MT_CHECK_MPI(MPI_Wait(&request, &status));
  int cancelled = 0;
  MT_CHECK_MPI(MPI_Test_cancelled(&status, &cancelled));
  int got = 0;
  if (!cancelled) {
    Message* m =
        first_unclaimed(in, comm, world_source(comm, &status), MPI_ANY_TAG);
    check_received(in, &r, m, &status);
    got = 1;
  }
  release_recv(&r);
  return got;
}

static void receive_all(Inbox* in, uint64_t* local, MPI_Request* colls,
                        int ncolls) {
  RecvSlot pending[kMaxPending];
  MPI_Request requests[kMaxPending];
  int npending = 0;
  int idle = 0;
  while (in->done < in->count) {
    int progress = 0;
    if (npending > 0) {
      for (int i = 0; i < npending; ++i) {
        requests[i] = pending[i].request;
      }
      int outcount = 0;
      int indices[kMaxPending];
      MPI_Status statuses[kMaxPending];
      MT_CHECK_MPI(
          MPI_Testsome(npending, requests, &outcount, indices, statuses));
      if (outcount != MPI_UNDEFINED && outcount > 0) {
        for (int k = 0; k < outcount; ++k) {
          RecvSlot* r = &pending[indices[k]];
          r->request = requests[indices[k]];
          check_received(in, r, r->expected, &statuses[k]);
          release_recv(r);
          r->buffer.base = NULL;
        }
        int kept = 0;
        for (int i = 0; i < npending; ++i) {
          if (pending[i].buffer.base != NULL) {
            pending[kept] = pending[i];
            pending[kept].request = requests[i];
            ++kept;
          }
        }
        npending = kept;
        progress = 1;
      } else {
        for (int i = 0; i < npending; ++i) {
          pending[i].request = requests[i];
        }
      }
    }
    if (ncolls > 0 && pick(local, 4) == 0) {
      int flag = 0;
      MT_CHECK_MPI(MPI_Testall(ncolls, colls, &flag, MPI_STATUSES_IGNORE));
    }
    switch (pick(local, 8)) {
      case 0:
      case 1:
      case 2:
        progress |= probe_then_recv(in, local);
        break;
      case 3:
      case 4:
        progress |= matched_probe(in, local);
        break;
      case 5:
      case 6:
        if (npending < kMaxPending && any_unclaimed(in, local) != NULL) {
          post_specific(in, &pending[npending++], local);
          progress = 1;
        }
        break;
      default:
        if (npending == 0 && pick(local, 4) == 0) {
          progress |= cancelled_wildcard(in, local);
        }
        break;
    }
    if (progress) {
      idle = 0;
    } else if (++idle >= 64) {
      sched_yield();
      idle = 0;
    }
  }
  MT_ASSERT(npending == 0);
}

typedef struct {
  uint64_t seed;
  long phases;
  MPI_Comm comms[kComms];
  long total;  // messages this rank received
} Stream;

static void run_stream(Stream* stream) {
  memcpy(g_comms, stream->comms, sizeof g_comms);
  uint64_t shared = stream->seed;  // the same on every rank
  uint64_t local = stream->seed * 1000003u + (uint64_t)g_rank;  // this rank's
  for (long phase = 0; phase < stream->phases; ++phase) {
    Phase p = draw_phase(&shared);
    Inbox in = {mt_malloc(sizeof(Message*) * (size_t)p.count), 0, 0, 0};
    size_t expected_bytes = 0;
    for (int i = 0; i < p.count; ++i) {
      if (p.messages[i].dst == g_rank) {
        in.incoming[in.count++] = &p.messages[i];
      }
      expected_bytes += p.messages[i].len;
    }
    // Collectives in flight under the traffic.
    MPI_Request colls[2];
    long mine = (long)g_rank + 1;
    long sum = 0;
    MT_CHECK_MPI(MPI_Ibarrier(g_comms[1], &colls[0]));
    MT_CHECK_MPI(MPI_Iallreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, g_comms[2],
                                &colls[1]));

    SendSlot* slots = mt_malloc(sizeof(SendSlot) * (size_t)p.count);
    const int nsent = post_sends(&p, slots);
    receive_all(&in, &local, colls, 2);
    finish_sends(slots, nsent);
    MT_CHECK_MPI(MPI_Waitall(2, colls, MPI_STATUSES_IGNORE));
    MT_CHECK(sum == (long)g_size * (g_size + 1) / 2,
             "phase %ld: MPI_Iallreduce gave %ld", phase, sum);
    // Every byte scheduled was received somewhere.
    unsigned long received = in.bytes;
    unsigned long all = 0;
    MT_CHECK_MPI(MPI_Allreduce(&received, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM,
                               g_comms[phase % kComms]));
    MT_CHECK(all == expected_bytes, "phase %ld: %lu bytes received of %zu",
             phase, all, expected_bytes);
    stream->total += in.count;
    free(slots);
    free(in.incoming);
    free(p.messages);
  }
}

static void* stream_thread(void* arg) {
  run_stream((Stream*)arg);
  return NULL;
}

int main(int argc, char** argv) {
  const uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  const long phases = mt_scale(argc > 2 ? atol(argv[2]) : 24);
  const int threads = argc > 3 ? atoi(argv[3]) : 0;
  mt_init_threads(&argc, &argv, threads);
  g_rank = mt_rank();
  g_size = mt_size();
  const int streams = threads > 0 ? threads : 1;
  Stream* stream = mt_malloc(sizeof(Stream) * (size_t)streams);
  for (int t = 0; t < streams; ++t) {
    stream[t].seed = seed + 7919u * (uint64_t)t;
    stream[t].phases = phases;
    stream[t].total = 0;
    // Threads never share a communicator, so each stream's matching is
    // its own; without threads the first is MPI_COMM_WORLD itself.
    if (threads > 0) {
      MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &stream[t].comms[0]));
    } else {
      stream[t].comms[0] = MPI_COMM_WORLD;
    }
    MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &stream[t].comms[1]));
    MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, g_size - 1 - g_rank,
                                &stream[t].comms[2]));
  }

  // Buffered sends of every stream share the attached buffer.
  const int bsend_size =
      (int)((size_t)streams *
            (2 * kBsendCap + 512 * (size_t)MPI_BSEND_OVERHEAD + 64 * 1024));
  void* bsend_buffer = mt_malloc((size_t)bsend_size);
  MT_CHECK_MPI(MPI_Buffer_attach(bsend_buffer, bsend_size));

  mt_run_threads(threads, stream_thread, stream, sizeof(Stream));

  void* detached = NULL;
  int detached_size = 0;
  MT_CHECK_MPI(MPI_Buffer_detach(&detached, &detached_size));
  free(bsend_buffer);
  long total = 0;
  for (int t = 0; t < streams; ++t) {
    total += stream[t].total;
    for (int k = threads > 0 ? 0 : 1; k < kComms; ++k) {
      MT_CHECK_MPI(MPI_Comm_free(&stream[t].comms[k]));
    }
  }
  free(stream);
  long all = 0;
  MT_CHECK_MPI(
      MPI_Reduce(&total, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (g_rank == 0) {
    printf("random traffic: %ld messages in %ld phases, seed %llu", all, phases,
           (unsigned long long)seed);
    if (threads > 0) {
      printf(", %d threads", threads);
    }
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
