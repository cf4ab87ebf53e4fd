// SPDX-License-Identifier: MIT
// MPI 4.0 §8.6: on a Cartesian topology the neighbours of a process are,
// for each dimension d, the one at -1 then the one at +1 (receive block 2d
// from the -1 neighbour, 2d + 1 from the +1 one; send block 2d to the -1
// neighbour, 2d + 1 to the +1 one). The block sent to the -1 neighbour
// lands in that neighbour's +1 block, even where both neighbours are one
// process: a periodic dimension of extent 1 (the process itself both
// ways) or 2. Past the edge of a dimension that does not wrap the
// neighbour is MPI_PROC_NULL: nothing is sent there and its receive block
// is left untouched.
//
// Topologies: 1-d periodic and not, over all ranks; 2-d (n/2 x 2 for even
// n, n x 1 otherwise) with each combination of periods; and 1 x n,
// periodic both ways. On each: neighbor_allgather and neighbor_alltoall,
// or (args=alltoallv) neighbor_alltoallv with a different count per
// direction, so that a block that went the wrong way would not even fit;
// blocking and nonblocking. (MPICH 4.0.2 reverses the order of the
// receives for alltoall only, not for alltoallv.)
#include "mpitest.h"

enum { MAX_DIMS = 2, MAX_BLOCKS = 2 * MAX_DIMS, K = 2, BUF = 256 };

typedef struct {
  int ndims;
  int dims[MAX_DIMS];
  int periods[MAX_DIMS];
} Cart;

// The rank `step` (+1 or -1) from `rank` along dimension d, row-major
// numbering, or MPI_PROC_NULL past an edge that does not wrap.
static int shift(const Cart* c, int rank, int d, int step) {
  int stride = 1;
  for (int q = d + 1; q < c->ndims; ++q) {
    stride *= c->dims[q];
  }
  const int coord = (rank / stride) % c->dims[d];
  int moved = coord + step;
  if (moved < 0 || moved >= c->dims[d]) {
    if (!c->periods[d]) {
      return MPI_PROC_NULL;
    }
    moved = (moved + c->dims[d]) % c->dims[d];
  }
  return rank + (moved - coord) * stride;
}

// Receive block j's neighbour: 2d at -1, 2d + 1 at +1.
static int neighbour(const Cart* c, int rank, int j) {
  return shift(c, rank, j / 2, j % 2 == 0 ? -1 : +1);
}

// The value of element e of the block that `from` sends out of its send
// block i, in round t.
static int value(int from, int i, int e, int t) {
  return (t << 20) | (from << 8) | (i << 4) | e;
}

// alltoallv: the count of a block that arrives as receive block j (so
// send block i carries count_of(i ^ 1)).
static int count_of(int j) { return j + 1; }

enum { ALLGATHER, ALLTOALL, ALLTOALLV, KINDS };
static const char* const kind_names[KINDS] = {"allgather", "alltoall",
                                              "alltoallv"};

static int sendbuf[BUF];
static int recvbuf[BUF];

static void run(const Cart* c, int kind, int nonblocking, int t) {
  const int rank = mt_rank();
  MPI_Comm cart = MPI_COMM_NULL;
  MT_CHECK_MPI(
      MPI_Cart_create(MPI_COMM_WORLD, c->ndims, c->dims, c->periods, 0, &cart));
  MT_CHECK(cart != MPI_COMM_NULL, "no Cartesian communicator");
  const int n = 2 * c->ndims;
  int scounts[MAX_BLOCKS], sdispls[MAX_BLOCKS], rcounts[MAX_BLOCKS],
      rdispls[MAX_BLOCKS];
  int soff = 0, roff = 0;
  for (int i = 0; i < n; ++i) {
    scounts[i] = kind == ALLTOALLV ? count_of(i ^ 1) : K;
    sdispls[i] = kind == ALLGATHER ? 0 : soff;
    soff += scounts[i] + 1;
    rcounts[i] = kind == ALLTOALLV ? count_of(i) : K;
    rdispls[i] = roff;
    roff += rcounts[i] + 1;
  }
  for (int x = 0; x < BUF; ++x) {
    sendbuf[x] = -2;
    recvbuf[x] = -1;
  }
  for (int i = 0; i < n; ++i) {
    for (int e = 0; e < scounts[i]; ++e) {
      sendbuf[sdispls[i] + e] = value(rank, kind == ALLGATHER ? 0 : i, e, t);
    }
  }
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Request* r = nonblocking ? &req : NULL;
  switch (kind) {
    case ALLGATHER:
      MT_CHECK_MPI(r ? MPI_Ineighbor_allgather(sendbuf, K, MPI_INT, recvbuf, K,
                                               MPI_INT, cart, r)
                     : MPI_Neighbor_allgather(sendbuf, K, MPI_INT, recvbuf, K,
                                              MPI_INT, cart));
      break;
    case ALLTOALL:
      MT_CHECK_MPI(r ? MPI_Ineighbor_alltoall(sendbuf, K + 1, MPI_INT, recvbuf,
                                              K + 1, MPI_INT, cart, r)
                     : MPI_Neighbor_alltoall(sendbuf, K + 1, MPI_INT, recvbuf,
                                             K + 1, MPI_INT, cart));
      break;
    default:
      MT_CHECK_MPI(r ? MPI_Ineighbor_alltoallv(sendbuf, scounts, sdispls,
                                               MPI_INT, recvbuf, rcounts,
                                               rdispls, MPI_INT, cart, r)
                     : MPI_Neighbor_alltoallv(sendbuf, scounts, sdispls,
                                              MPI_INT, recvbuf, rcounts,
                                              rdispls, MPI_INT, cart));
      break;
  }
  if (nonblocking) {
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  }
  // Alltoall sends and receives K + 1 ints per block, back to back: the
  // send blocks of K ints filled above with a gap after each, read whole.
  static unsigned char in_block[BUF];
  memset(in_block, 0, sizeof in_block);
  for (int j = 0; j < n; ++j) {
    const int from = neighbour(c, rank, j);
    const int count = kind == ALLTOALLV ? count_of(j) : K;
    // Allgather's and alltoall's blocks follow each other without gaps.
    const int start = kind == ALLGATHER  ? j * K
                      : kind == ALLTOALL ? j * (K + 1)
                                         : rdispls[j];
    const int blocks = kind == ALLTOALL ? K + 1 : count;
    if (from == MPI_PROC_NULL) {
      continue;  // left untouched: checked below
    }
    for (int e = 0; e < blocks; ++e) {
      // The sender's block toward us is j ^ 1 (our -1 neighbour sent us
      // its +1 block); alltoall sends K + 1 ints of the sender's buffer
      // from (j ^ 1) * (K + 1), which straddle its gaps.
      int want;
      if (kind == ALLTOALL) {
        const int at = (j ^ 1) * (K + 1) + e;
        // The sender filled block i (K ints) at i * (K + 1) with a gap.
        want =
            at % (K + 1) == K ? -2 : value(from, at / (K + 1), at % (K + 1), t);
      } else {
        want = value(from, kind == ALLGATHER ? 0 : j ^ 1, e, t);
      }
      MT_CHECK(recvbuf[start + e] == want,
               "%s%s, %d-d dims %d,%d periods %d,%d: block %d (from %d) "
               "element %d: %#x, expected %#x",
               nonblocking ? "i" : "", kind_names[kind], c->ndims, c->dims[0],
               c->ndims > 1 ? c->dims[1] : 0, c->periods[0],
               c->ndims > 1 ? c->periods[1] : 0, j, from, e, recvbuf[start + e],
               want);
      in_block[start + e] = 1;
    }
  }
  for (int x = 0; x < BUF; ++x) {
    MT_CHECK(in_block[x] || recvbuf[x] == -1,
             "%s%s, %d-d dims %d,%d: int %d outside the received blocks was "
             "written (%#x)",
             nonblocking ? "i" : "", kind_names[kind], c->ndims, c->dims[0],
             c->ndims > 1 ? c->dims[1] : 0, x, recvbuf[x]);
  }
  MT_CHECK_MPI(MPI_Comm_free(&cart));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int size = mt_size();
  const int only_v = argc > 1 && strcmp(argv[1], "alltoallv") == 0;
  Cart carts[8];
  int count = 0;
  for (int p = 0; p < 2; ++p) {
    carts[count++] = (Cart){1, {size, 0}, {p, 0}};
  }
  const int rows = size % 2 == 0 ? size / 2 : size;
  const int cols = size % 2 == 0 ? 2 : 1;
  for (int p = 0; p < 4; ++p) {
    carts[count++] = (Cart){2, {rows, cols}, {p & 1, (p >> 1) & 1}};
  }
  carts[count++] = (Cart){2, {1, size}, {1, 1}};
  int t = 0;
  for (int i = 0; i < count; ++i) {
    for (int kind = 0; kind < KINDS; ++kind) {
      if ((kind == ALLTOALLV) != only_v) {
        continue;
      }
      for (int nonblocking = 0; nonblocking < 2; ++nonblocking) {
        run(&carts[i], kind, nonblocking, ++t);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
