// SPDX-License-Identifier: MIT
// MPI 4.0 section 5.1.5: a datatype's displacements may be absolute
// addresses, taken relative to address zero, which a call names by passing
// MPI_BOTTOM as the buffer. Every rank builds a struct type from the
// MPI_Get_address of a C struct's members and of a separate static array,
// and uses it with MPI_BOTTOM in MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv,
// MPI_Sendrecv, MPI_Bcast, MPI_Pack and MPI_Unpack; an all-int one is
// MPI_Gather's send side into the root's plain MPI_INT array, and one int
// type per peer is MPI_Alltoallw's send side.
#include "mpitest.h"

struct Record {
  int id;
  double weight[2];
  char kind;
};

// Apart from the records: a type's displacements span two objects.
static short extras[2][3];
static int lone;

static void fill(struct Record* r, short* extra, int rank, int round) {
  r->id = rank * 100 + round;
  r->weight[0] = rank + 0.25 * round;
  r->weight[1] = -rank - 0.5 * round;
  r->kind = (char)('a' + rank);
  for (int k = 0; k < 3; ++k) {
    extra[k] = (short)(rank * 10 + round + k);
  }
}

static void clear(struct Record* r, short* extra) {
  memset(r, 0, sizeof *r);
  memset(extra, 0, 3 * sizeof *extra);
}

static void expect(const struct Record* r, const short* extra, int rank,
                   int round, const char* what) {
  MT_CHECK(r->id == rank * 100 + round && r->weight[0] == rank + 0.25 * round &&
               r->weight[1] == -rank - 0.5 * round &&
               r->kind == (char)('a' + rank) &&
               extra[0] == (short)(rank * 10 + round) &&
               extra[2] == (short)(rank * 10 + round + 2),
           "%s: round %d: record %d %g %g '%c' extra %d %d, expected rank %d's",
           what, round, r->id, r->weight[0], r->weight[1], r->kind, extra[0],
           extra[2], rank);
}

// The record's members and `extra`, at absolute addresses, in an order
// that is not the memory order.
static MPI_Datatype record_type(struct Record* r, short* extra) {
  MPI_Aint displs[4];
  MT_CHECK_MPI(MPI_Get_address(extra, &displs[0]));
  MT_CHECK_MPI(MPI_Get_address(&r->kind, &displs[1]));
  MT_CHECK_MPI(MPI_Get_address(&r->id, &displs[2]));
  MT_CHECK_MPI(MPI_Get_address(r->weight, &displs[3]));
  const int lengths[4] = {3, 1, 1, 2};
  const MPI_Datatype types[4] = {MPI_SHORT, MPI_CHAR, MPI_INT, MPI_DOUBLE};
  MPI_Datatype type;
  MT_CHECK_MPI(MPI_Type_create_struct(4, lengths, displs, types, &type));
  MT_CHECK_MPI(MPI_Type_commit(&type));
  return type;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int rank = mt_rank();
  const int size = mt_size();
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;

  struct Record rec;
  short* rec_extra = extras[0];
  MPI_Datatype type = record_type(&rec, rec_extra);

  // MPI_Send / MPI_Recv: rank 0 to the last rank.
  clear(&rec, rec_extra);
  if (rank == 0) {
    fill(&rec, rec_extra, rank, 1);
    MT_CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, type, size - 1, 1, MPI_COMM_WORLD));
  } else if (rank == size - 1) {
    MPI_Status status;
    MT_CHECK_MPI(MPI_Recv(MPI_BOTTOM, 1, type, 0, 1, MPI_COMM_WORLD, &status));
    int count = -1;
    MT_CHECK_MPI(MPI_Get_count(&status, type, &count));
    MT_CHECK(count == 1, "MPI_Get_count says %d records", count);
    expect(&rec, rec_extra, 0, 1, "MPI_Recv");
  }

  // MPI_Isend / MPI_Irecv around a ring: the receive goes into a second
  // record and array (its own absolute type) while the first is sent.
  struct Record in;
  short* in_extra = extras[1];
  MPI_Datatype in_type = record_type(&in, in_extra);
  clear(&in, in_extra);
  fill(&rec, rec_extra, rank, 2);
  MPI_Request reqs[2];
  MT_CHECK_MPI(
      MPI_Irecv(MPI_BOTTOM, 1, in_type, prev, 2, MPI_COMM_WORLD, &reqs[0]));
  MT_CHECK_MPI(
      MPI_Isend(MPI_BOTTOM, 1, type, next, 2, MPI_COMM_WORLD, &reqs[1]));
  MT_CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  expect(&rec, rec_extra, rank, 2, "MPI_Isend's own record");
  expect(&in, in_extra, prev, 2, "MPI_Irecv");

  // MPI_Sendrecv around the ring, the other way.
  clear(&in, in_extra);
  fill(&rec, rec_extra, rank, 3);
  MT_CHECK_MPI(MPI_Sendrecv(MPI_BOTTOM, 1, type, prev, 3, MPI_BOTTOM, 1,
                            in_type, next, 3, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
  expect(&in, in_extra, next, 3, "MPI_Sendrecv");

  // MPI_Bcast from every root in turn.
  for (int root = 0; root < size; ++root) {
    clear(&rec, rec_extra);
    if (rank == root) {
      fill(&rec, rec_extra, root, 4);
    }
    MT_CHECK_MPI(MPI_Bcast(MPI_BOTTOM, 1, type, root, MPI_COMM_WORLD));
    expect(&rec, rec_extra, root, 4, "MPI_Bcast");
  }

  // MPI_Pack from MPI_BOTTOM, MPI_Unpack to it.
  clear(&in, in_extra);
  fill(&rec, rec_extra, rank, 5);
  char packed[64];
  int size_bytes = 0;
  MT_CHECK_MPI(MPI_Pack_size(1, type, MPI_COMM_WORLD, &size_bytes));
  MT_ASSERT(size_bytes <= (int)sizeof packed);
  int position = 0;
  MT_CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, type, packed, (int)sizeof packed,
                        &position, MPI_COMM_WORLD));
  const int packed_bytes = position;
  position = 0;
  MT_CHECK_MPI(MPI_Unpack(packed, packed_bytes, &position, MPI_BOTTOM, 1,
                          in_type, MPI_COMM_WORLD));
  expect(&in, in_extra, rank, 5, "MPI_Pack/MPI_Unpack");

  // MPI_Gather: four ints from three objects at absolute addresses, into
  // the root's contiguous MPI_INT array.
  int pair[2];
  MPI_Aint displs[3];
  MT_CHECK_MPI(MPI_Get_address(&lone, &displs[0]));
  MT_CHECK_MPI(MPI_Get_address(pair, &displs[1]));
  MT_CHECK_MPI(MPI_Get_address(&rec.id, &displs[2]));
  const int lengths[3] = {1, 2, 1};
  MPI_Datatype ints;
  MT_CHECK_MPI(MPI_Type_create_hindexed(3, lengths, displs, MPI_INT, &ints));
  MT_CHECK_MPI(MPI_Type_commit(&ints));
  lone = rank;
  pair[0] = rank * 2;
  pair[1] = rank * 3;
  rec.id = -rank;
  const int root = size - 1;
  int gathered[4 * 8];
  MT_ASSERT(size <= 8);
  memset(gathered, 0xff, sizeof gathered);
  MT_CHECK_MPI(MPI_Gather(MPI_BOTTOM, 1, ints, gathered, 4, MPI_INT, root,
                          MPI_COMM_WORLD));
  if (rank == root) {
    for (int r = 0; r < size; ++r) {
      const int* got = gathered + 4 * r;
      MT_CHECK(
          got[0] == r && got[1] == r * 2 && got[2] == r * 3 && got[3] == -r,
          "MPI_Gather: rank %d's block is %d %d %d %d", r, got[0], got[1],
          got[2], got[3]);
    }
  }

  // MPI_Alltoallw from MPI_BOTTOM: to rank j, one int at the absolute
  // address of outgoing[j] (an hindexed type each, zero displacements).
  int outgoing[8];
  int incoming[8];
  int counts[8];
  int zero_displs[8];
  int byte_displs[8];
  MPI_Datatype to[8];
  MPI_Datatype from[8];
  for (int j = 0; j < size; ++j) {
    outgoing[j] = rank * 100 + j;
    incoming[j] = -1;
    MPI_Aint address;
    MT_CHECK_MPI(MPI_Get_address(&outgoing[j], &address));
    const int one = 1;
    MT_CHECK_MPI(MPI_Type_create_hindexed(1, &one, &address, MPI_INT, &to[j]));
    MT_CHECK_MPI(MPI_Type_commit(&to[j]));
    from[j] = MPI_INT;
    counts[j] = 1;
    zero_displs[j] = 0;
    byte_displs[j] = j * (int)sizeof(int);
  }
  MT_CHECK_MPI(MPI_Alltoallw(MPI_BOTTOM, counts, zero_displs, to, incoming,
                             counts, byte_displs, from, MPI_COMM_WORLD));
  for (int j = 0; j < size; ++j) {
    MT_CHECK(incoming[j] == j * 100 + rank,
             "MPI_Alltoallw: from rank %d got %d, want %d", j, incoming[j],
             j * 100 + rank);
    MT_CHECK_MPI(MPI_Type_free(&to[j]));
  }

  MT_CHECK_MPI(MPI_Type_free(&ints));
  MT_CHECK_MPI(MPI_Type_free(&in_type));
  MT_CHECK_MPI(MPI_Type_free(&type));
  MPI_Finalize();
  return 0;
}
