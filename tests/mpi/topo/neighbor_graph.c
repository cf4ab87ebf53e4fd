// SPDX-License-Identifier: MIT
// MPI 4.0 §8.6-8.8: the neighbourhood collectives on distributed graphs
// made by MPI_Dist_graph_create_adjacent. Block j of the receive buffer
// comes from the j-th source, block i of the send buffer goes to the i-th
// destination; repeated edges between two processes pair up in the order
// they are listed (the k-th a -> b among a's destinations is the k-th a
// among b's sources).
//
// args: ring | irregular, then any of: single; alltoallw (that kind
// only); no_alltoallw (every kind but that). The ring: destinations right
// then
// left, sources left then right (at 1 and 2 ranks these are self and
// repeated edges). The irregular graph: 0, 1 or 2 edges between each
// ordered pair (self edges too; at most 1 with "single"), listed in an
// order that separates the repeats, so in- and out-degrees differ; the
// last rank (from 3 ranks on) has no edge at all.
//
// MPICH 4.0.2 posts the receives in reverse order (for the Cartesian
// case, pmodels/mpich#5777), so repeated edges pair up the wrong way
// round there; MPI 4.1 section 8.6's equivalent code, and MPICH since
// pmodels/mpich#7945, match them in order. MPICH 4.0.2's alltoallw also
// moves the wrong number of elements where a process's in- and
// out-degrees differ (a block of 3 strided ints arrives as 1 int).
//
// Each of the five kinds runs blocking, nonblocking and persistent
// (started twice, with new data each time), in the int and the _c forms,
// with zero counts among the v counts and, in alltoallw, blocks of a
// strided derived type on either side. Every receive position is checked:
// the blocks against values computed from the graph, everything else (the
// gaps, and nothing at all at a process without sources) left untouched.
#include "mpitest.h"

enum { MAX_EDGES = 2 * 8 * 8 + 4, K = 3 };
enum { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW, KINDS };
static const char* const kind_names[KINDS] = {
    "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"};
enum { BLOCKING, NONBLOCKING, PERSISTENT, MODES };
static const char* const mode_names[MODES] = {"blocking", "nonblocking",
                                              "persistent"};

static int ring = 1;
static int size = 1;

static int single = 0;  // no repeated edges

// Edges a -> b in the irregular graph.
static int multiplicity(int a, int b) {
  if (size >= 3 && (a == size - 1 || b == size - 1)) {
    return 0;
  }
  const int m = (a * 3 + b * 5 + 1) % 4 == 0 ? 2 : (a + 2 * b) % 3 == 0 ? 1 : 0;
  return single && m > 1 ? 1 : m;
}

// Rank r's sources and destinations, in the order it lists them.
typedef struct {
  int in, out;
  int sources[MAX_EDGES];
  int destinations[MAX_EDGES];
} Edges;

static void edges_of(int r, Edges* e) {
  e->in = e->out = 0;
  if (ring) {
    e->destinations[e->out++] = (r + 1) % size;
    e->destinations[e->out++] = (r + size - 1) % size;
    e->sources[e->in++] = (r + size - 1) % size;
    e->sources[e->in++] = (r + 1) % size;
    return;
  }
  // First every neighbour once, then the second edges: destinations in
  // descending rank order, sources ascending.
  for (int pass = 1; pass <= 2; ++pass) {
    for (int b = size - 1; b >= 0; --b) {
      if (multiplicity(r, b) >= pass) {
        e->destinations[e->out++] = b;
      }
    }
    for (int a = 0; a < size; ++a) {
      if (multiplicity(a, r) >= pass) {
        e->sources[e->in++] = a;
      }
    }
  }
}

// The destination index at `from` of the edge that is source j at `to`.
static int matching_send(const Edges* at_to, int j, int from, int to) {
  int k = 0;
  for (int q = 0; q < j; ++q) {
    k += at_to->sources[q] == from;
  }
  Edges e;
  edges_of(from, &e);
  for (int i = 0; i < e.out; ++i) {
    if (e.destinations[i] == to && k-- == 0) {
      return i;
    }
  }
  MT_FAIL("no edge %d -> %d for source %d", from, to, j);
  return -1;
}

// Per kind, the layout of a block: `count` ints, `stride` apart, from
// int `start` of the buffer. Send block i of rank r; receive block j of
// rank r gets send block matching_send(...) of its source.
typedef struct {
  int count, stride, start;
} Block;

static int vcount(int r) { return (r + 1) % 3; }  // allgatherv's
static int pair_count(int r, int i) { return (r + 2 * i) % 4; }

static Block send_block(int kind, int r, int i, int out) {
  Block b = {K, 1, 0};
  switch (kind) {
    case ALLGATHER:
      return b;
    case ALLGATHERV:
      b.count = vcount(r);
      return b;
    case ALLTOALL:
      b.start = i * K;
      return b;
    default:
      break;
  }
  // v and w: in reverse order with a gap of 1; w: odd blocks strided.
  b.count = pair_count(r, i);
  b.stride = kind == ALLTOALLW && i % 2 == 1 ? 2 : 1;
  for (int q = out - 1; q > i; --q) {
    const int stride = kind == ALLTOALLW && q % 2 == 1 ? 2 : 1;
    b.start += pair_count(r, q) * stride + 1;
  }
  return b;
}

static Block recv_block(int kind, const Edges* e, int r, int j) {
  Block b = {K, 1, j * K};
  if (kind == ALLGATHER || kind == ALLTOALL) {
    return b;
  }
  // In order with a gap of 2 after each block; w: even blocks strided.
  b.start = 0;
  for (int q = 0; q <= j; ++q) {
    const int from = e->sources[q];
    int count;
    if (kind == ALLGATHERV) {
      count = vcount(from);
    } else {
      count = pair_count(from, matching_send(e, q, from, r));
    }
    const int stride = kind == ALLTOALLW && q % 2 == 0 ? 2 : 1;
    if (q == j) {
      b.count = count;
      b.stride = stride;
      return b;
    }
    b.start += count * stride + 2;
  }
  return b;
}

static int value(int kind, int from, int i, int e, int t) {
  const int block = kind == ALLGATHER || kind == ALLGATHERV ? 0 : i;
  return (t << 24) | (from << 16) | (block << 8) | e;
}

enum { BUF = 4096 };
static int sendbuf[BUF];
static int recvbuf[BUF];

static void fill(int kind, const Edges* e, int rank, int t) {
  for (int x = 0; x < BUF; ++x) {
    sendbuf[x] = -2;
    recvbuf[x] = -1;
  }
  const int blocks = kind == ALLGATHER || kind == ALLGATHERV ? 1 : e->out;
  for (int i = 0; i < blocks; ++i) {
    const Block b = send_block(kind, rank, i, e->out);
    for (int x = 0; x < b.count; ++x) {
      MT_ASSERT(b.start + x * b.stride < BUF);
      sendbuf[b.start + x * b.stride] = value(kind, rank, i, x, t);
    }
  }
}

static void check(int kind, const Edges* e, int rank, int t, const char* what) {
  static unsigned char expected_set[BUF];
  memset(expected_set, 0, sizeof expected_set);
  for (int j = 0; j < e->in; ++j) {
    const int from = e->sources[j];
    const int i = matching_send(e, j, from, rank);
    const Block b = recv_block(kind, e, rank, j);
    for (int x = 0; x < b.count; ++x) {
      const int at = b.start + x * b.stride;
      MT_ASSERT(at < BUF);
      const int want = value(kind, from, i, x, t);
      MT_CHECK(recvbuf[at] == want,
               "%s: block %d (from %d, its block %d) element %d: %#x, "
               "expected %#x",
               what, j, from, i, x, recvbuf[at], want);
      expected_set[at] = 1;
    }
  }
  for (int x = 0; x < BUF; ++x) {
    MT_CHECK(expected_set[x] || recvbuf[x] == -1,
             "%s: int %d outside every block was written (%#x)", what, x,
             recvbuf[x]);
  }
}

// The arguments of one call, in both count forms.
typedef struct {
  int scounts[MAX_EDGES], rcounts[MAX_EDGES];
  int sdispls[MAX_EDGES], rdispls[MAX_EDGES];
  MPI_Count scounts_c[MAX_EDGES], rcounts_c[MAX_EDGES];
  MPI_Aint sdispls_c[MAX_EDGES], rdispls_c[MAX_EDGES];
  MPI_Aint sbytes[MAX_EDGES], rbytes[MAX_EDGES];
  MPI_Datatype stypes[MAX_EDGES], rtypes[MAX_EDGES];
  int sendcount;  // allgather(v)
} Args;

static MPI_Datatype strided;  // an int, with the extent of two

static void make_args(int kind, const Edges* e, int rank, Args* a) {
  a->sendcount = send_block(kind, rank, 0, e->out).count;
  for (int i = 0; i < e->out; ++i) {
    const Block b = send_block(kind, rank, i, e->out);
    a->scounts[i] = b.count;
    a->scounts_c[i] = b.count;
    a->sdispls[i] = b.stride == 2 ? -1 : b.start;  // v: elements
    a->sdispls_c[i] = a->sdispls[i];
    a->sbytes[i] = (MPI_Aint)b.start * (MPI_Aint)sizeof(int);
    a->stypes[i] = b.stride == 2 ? strided : MPI_INT;
  }
  for (int j = 0; j < e->in; ++j) {
    const Block b = recv_block(kind, e, rank, j);
    a->rcounts[j] = b.count;
    a->rcounts_c[j] = b.count;
    a->rdispls[j] = b.stride == 2 ? -1 : b.start;
    a->rdispls_c[j] = a->rdispls[j];
    a->rbytes[j] = (MPI_Aint)b.start * (MPI_Aint)sizeof(int);
    a->rtypes[j] = b.stride == 2 ? strided : MPI_INT;
  }
}

#define FORMS(mode, req, Name, IName, Suffix, ...)                     \
  do {                                                                 \
    if ((mode) == BLOCKING) {                                          \
      rc = MPI_##Name##Suffix(__VA_ARGS__);                            \
    } else if ((mode) == NONBLOCKING) {                                \
      rc = MPI_##IName##Suffix(__VA_ARGS__, req);                      \
    } else {                                                           \
      rc = MPI_##Name##_init##Suffix(__VA_ARGS__, MPI_INFO_NULL, req); \
    }                                                                  \
  } while (0)

// Calls `kind` in `mode`: blocking returns done, the others leave *req.
static int call(int kind, int mode, int large, Args* a, MPI_Comm comm,
                MPI_Request* req) {
  int rc = MPI_ERR_OTHER;
  const int k = K;
  switch (kind) {
    case ALLGATHER:
      if (large) {
        FORMS(mode, req, Neighbor_allgather, Ineighbor_allgather, _c, sendbuf,
              (MPI_Count)a->sendcount, MPI_INT, recvbuf, (MPI_Count)k, MPI_INT,
              comm);
      } else {
        FORMS(mode, req, Neighbor_allgather, Ineighbor_allgather, , sendbuf,
              a->sendcount, MPI_INT, recvbuf, k, MPI_INT, comm);
      }
      break;
    case ALLGATHERV:
      if (large) {
        FORMS(mode, req, Neighbor_allgatherv, Ineighbor_allgatherv, _c, sendbuf,
              (MPI_Count)a->sendcount, MPI_INT, recvbuf, a->rcounts_c,
              a->rdispls_c, MPI_INT, comm);
      } else {
        FORMS(mode, req, Neighbor_allgatherv, Ineighbor_allgatherv, , sendbuf,
              a->sendcount, MPI_INT, recvbuf, a->rcounts, a->rdispls, MPI_INT,
              comm);
      }
      break;
    case ALLTOALL:
      if (large) {
        FORMS(mode, req, Neighbor_alltoall, Ineighbor_alltoall, _c, sendbuf,
              (MPI_Count)k, MPI_INT, recvbuf, (MPI_Count)k, MPI_INT, comm);
      } else {
        FORMS(mode, req, Neighbor_alltoall, Ineighbor_alltoall, , sendbuf, k,
              MPI_INT, recvbuf, k, MPI_INT, comm);
      }
      break;
    case ALLTOALLV:
      if (large) {
        FORMS(mode, req, Neighbor_alltoallv, Ineighbor_alltoallv, _c, sendbuf,
              a->scounts_c, a->sdispls_c, MPI_INT, recvbuf, a->rcounts_c,
              a->rdispls_c, MPI_INT, comm);
      } else {
        FORMS(mode, req, Neighbor_alltoallv, Ineighbor_alltoallv, , sendbuf,
              a->scounts, a->sdispls, MPI_INT, recvbuf, a->rcounts, a->rdispls,
              MPI_INT, comm);
      }
      break;
    default:
      if (large) {
        FORMS(mode, req, Neighbor_alltoallw, Ineighbor_alltoallw, _c, sendbuf,
              a->scounts_c, a->sbytes, a->stypes, recvbuf, a->rcounts_c,
              a->rbytes, a->rtypes, comm);
      } else {
        FORMS(mode, req, Neighbor_alltoallw, Ineighbor_alltoallw, , sendbuf,
              a->scounts, a->sbytes, a->stypes, recvbuf, a->rcounts, a->rbytes,
              a->rtypes, comm);
      }
      break;
  }
  return rc;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ring = !(argc > 1 && strcmp(argv[1], "irregular") == 0);
  int only_w = 0, no_w = 0;
  for (int i = 2; i < argc; ++i) {
    single |= strcmp(argv[i], "single") == 0;
    only_w |= strcmp(argv[i], "alltoallw") == 0;
    no_w |= strcmp(argv[i], "no_alltoallw") == 0;
  }
  const int rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= 8, "at most 8 ranks (got %d)", size);
  MT_CHECK_MPI(
      MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &strided));
  MT_CHECK_MPI(MPI_Type_commit(&strided));

  Edges e;
  edges_of(rank, &e);
  MPI_Comm graph = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Dist_graph_create_adjacent(
      MPI_COMM_WORLD, e.in, e.sources, MPI_UNWEIGHTED, e.out, e.destinations,
      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph));
  MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);

  static Args a;
  int t = 0;
  for (int kind = 0; kind < KINDS; ++kind) {
    if ((kind == ALLTOALLW && no_w) || (kind != ALLTOALLW && only_w)) {
      continue;
    }
    make_args(kind, &e, rank, &a);
    for (int mode = 0; mode < MODES; ++mode) {
      for (int large = 0; large < 2; ++large) {
        char what[128];
        snprintf(what, sizeof what, "%s %s%s", kind_names[kind],
                 mode_names[mode], large ? " _c" : "");
        MPI_Request req = MPI_REQUEST_NULL;
        ++t;
        fill(kind, &e, rank, t);
        const int rc = call(kind, mode, large, &a, graph, &req);
        MT_CHECK(rc == MPI_SUCCESS, "%s: %s", what, mt_error_string(rc));
        if (mode == NONBLOCKING) {
          MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else if (mode == PERSISTENT) {
          for (int start = 0; start < 2; ++start) {
            if (start > 0) {
              ++t;
              fill(kind, &e, rank, t);
            }
            MT_CHECK_MPI(MPI_Start(&req));
            MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            check(kind, &e, rank, t, what);
          }
          MT_CHECK_MPI(MPI_Request_free(&req));
        }
        check(kind, &e, rank, t, what);
      }
    }
  }
  MPI_Type_free(&strided);
  MPI_Comm_free(&graph);
  MPI_Finalize();
  return 0;
}
