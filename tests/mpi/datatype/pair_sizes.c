// SPDX-License-Identifier: MIT
// The sizes of the value-index pair types whose C struct pads (MPI 4.0
// §6.9.4 defines each as the struct of its two fields): MPI_Type_size counts
// the data (12, 12, 6, 20 bytes for MPI_DOUBLE_INT, MPI_LONG_INT,
// MPI_SHORT_INT, MPI_LONG_DOUBLE_INT), MPI_Type_get_extent is the C
// struct's, MPI_Type_get_true_extent ends with the index (12, 12, 8, 20),
// and a message of them holds the data only: received as MPI_BYTE it counts
// size bytes per element (as MPICH does), and it unpacks element by element.
// MPI_Pack / MPI_Unpack round trip, and a gather, an allgather, an alltoall
// and a broadcast between the pair type and the equivalent user struct type
// match.
#include <stddef.h>

#include "mpitest.h"

typedef struct {
  double value;
  int index;
} DoubleInt;
typedef struct {
  long value;
  int index;
} LongInt;
typedef struct {
  short value;
  int index;
} ShortInt;
typedef struct {
  long double value;
  int index;
} LongDoubleInt;

enum { kCount = 3, kPairs = 4 };

typedef struct {
  MPI_Datatype type;
  const char* name;
  MPI_Datatype value_type;
  int value_bytes;
  MPI_Aint index_at;
  MPI_Aint extent;
} Pair;

static Pair pairs[kPairs];

static void init_pairs(void) {
  const Pair list[kPairs] = {
      {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", MPI_DOUBLE, sizeof(double),
       offsetof(DoubleInt, index), sizeof(DoubleInt)},
      {MPI_LONG_INT, "MPI_LONG_INT", MPI_LONG, sizeof(long),
       offsetof(LongInt, index), sizeof(LongInt)},
      {MPI_SHORT_INT, "MPI_SHORT_INT", MPI_SHORT, sizeof(short),
       offsetof(ShortInt, index), sizeof(ShortInt)},
      {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE,
       sizeof(long double), offsetof(LongDoubleInt, index),
       sizeof(LongDoubleInt)},
  };
  memcpy(pairs, list, sizeof list);
}

// Element i of a buffer of pair p: value i + 1 (in its own type), index
// 100 * (p + 1) + i; padding bytes 0xee.
static void fill(int p, unsigned char* buffer, int count) {
  const Pair* pair = &pairs[p];
  memset(buffer, 0xee, (size_t)(count * pair->extent));
  for (int i = 0; i < count; i++) {
    unsigned char* at = buffer + i * pair->extent;
    const int index = 100 * (p + 1) + i;
    switch (p) {
      case 0: {
        const double v = i + 1;
        memcpy(at, &v, sizeof v);
        break;
      }
      case 1: {
        const long v = i + 1;
        memcpy(at, &v, sizeof v);
        break;
      }
      case 2: {
        const short v = (short)(i + 1);
        memcpy(at, &v, sizeof v);
        break;
      }
      default: {
        const long double v = i + 1;
        memset(at, 0, sizeof v);  // the 80-bit value's unused bytes too
        memcpy(at, &v, sizeof v);
        break;
      }
    }
    memcpy(at + pair->index_at, &index, sizeof index);
  }
}

// Whether element i of `buffer` (laid out as pair p) holds fill()'s data.
static int element_ok(int p, const unsigned char* at, int i) {
  const Pair* pair = &pairs[p];
  int index;
  memcpy(&index, at + pair->index_at, sizeof index);
  if (index != 100 * (p + 1) + i) {
    return 0;
  }
  switch (p) {
    case 0: {
      double v;
      memcpy(&v, at, sizeof v);
      return v == i + 1;
    }
    case 1: {
      long v;
      memcpy(&v, at, sizeof v);
      return v == i + 1;
    }
    case 2: {
      short v;
      memcpy(&v, at, sizeof v);
      return v == i + 1;
    }
    default: {
      long double v;
      memcpy(&v, at, sizeof v);
      return v == i + 1;
    }
  }
}

static void check_buffer(int p, const unsigned char* buffer, int count,
                         const char* what) {
  for (int i = 0; i < count; i++) {
    MT_CHECK(element_ok(p, buffer + i * pairs[p].extent, i),
             "%s: %s element %d is wrong", pairs[p].name, what, i);
  }
}

// The user struct with the pair's type map and extent.
static MPI_Datatype user_pair(const Pair* pair) {
  const int lengths[2] = {1, 1};
  const MPI_Aint displacements[2] = {0, pair->index_at};
  const MPI_Datatype types[2] = {pair->value_type, MPI_INT};
  MPI_Datatype loose, type;
  MT_CHECK_MPI(
      MPI_Type_create_struct(2, lengths, displacements, types, &loose));
  MT_CHECK_MPI(MPI_Type_create_resized(loose, 0, pair->extent, &type));
  MT_CHECK_MPI(MPI_Type_free(&loose));
  MT_CHECK_MPI(MPI_Type_commit(&type));
  return type;
}

static void check_queries(int p) {
  const Pair* pair = &pairs[p];
  const int data = pair->value_bytes + (int)sizeof(int);
  int size = -1;
  MT_CHECK_MPI(MPI_Type_size(pair->type, &size));
  MT_CHECK(size == data, "%s: MPI_Type_size %d, expected %d", pair->name, size,
           data);
  MPI_Aint lb = -1, extent = -1;
  MT_CHECK_MPI(MPI_Type_get_extent(pair->type, &lb, &extent));
  MT_CHECK(lb == 0 && extent == pair->extent,
           "%s: lb %ld, extent %ld, expected 0 and %ld", pair->name, (long)lb,
           (long)extent, (long)pair->extent);
  MPI_Aint true_lb = -1, true_extent = -1;
  MT_CHECK_MPI(MPI_Type_get_true_extent(pair->type, &true_lb, &true_extent));
  const MPI_Aint expected = pair->index_at + (MPI_Aint)sizeof(int);
  MT_CHECK(true_lb == 0 && true_extent == expected,
           "%s: true lb %ld, true extent %ld, expected 0 and %ld", pair->name,
           (long)true_lb, (long)true_extent, (long)expected);

  // The user struct of the same fields agrees.
  MPI_Datatype user = user_pair(pair);
  int user_size = -1;
  MPI_Aint user_true_lb = -1, user_true_extent = -1;
  MT_CHECK_MPI(MPI_Type_size(user, &user_size));
  MT_CHECK_MPI(
      MPI_Type_get_true_extent(user, &user_true_lb, &user_true_extent));
  MT_CHECK(user_size == size && user_true_lb == true_lb &&
               user_true_extent == true_extent,
           "%s: the user struct has size %d, true extent %ld", pair->name,
           user_size, (long)user_true_extent);
  MT_CHECK_MPI(MPI_Type_free(&user));

  // MPI_Pack and MPI_Unpack round trip.
  unsigned char in[kCount * sizeof(LongDoubleInt)];
  unsigned char out[kCount * sizeof(LongDoubleInt)];
  unsigned char packed[kCount * sizeof(LongDoubleInt) + 64];
  int pack_size = -1;
  MT_CHECK_MPI(MPI_Pack_size(kCount, pair->type, MPI_COMM_WORLD, &pack_size));
  MT_CHECK(pack_size >= kCount * data && pack_size <= (int)sizeof packed,
           "%s: MPI_Pack_size %d for %d elements", pair->name, pack_size,
           kCount);
  fill(p, in, kCount);
  int position = 0;
  MT_CHECK_MPI(MPI_Pack(in, kCount, pair->type, packed, (int)sizeof packed,
                        &position, MPI_COMM_WORLD));
  memset(out, 0, sizeof out);
  int read = 0;
  MT_CHECK_MPI(MPI_Unpack(packed, position, &read, out, kCount, pair->type,
                          MPI_COMM_WORLD));
  MT_CHECK(read == position, "%s: unpacked %d of %d bytes", pair->name, read,
           position);
  check_buffer(p, out, kCount, "MPI_Pack/MPI_Unpack");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  init_pairs();

  for (int p = 0; p < kPairs; p++) {
    check_queries(p);
  }

  for (int p = 0; p < kPairs && size > 1; p++) {
    const Pair* pair = &pairs[p];
    const int data = pair->value_bytes + (int)sizeof(int);
    unsigned char buffer[kCount * sizeof(LongDoubleInt)];
    unsigned char bytes[kCount * sizeof(LongDoubleInt)];
    if (rank == 0) {
      fill(p, buffer, kCount);
      MT_CHECK_MPI(MPI_Send(buffer, kCount, pair->type, 1, p, MPI_COMM_WORLD));
      MT_CHECK_MPI(MPI_Send(buffer, kCount, pair->type, 1, p, MPI_COMM_WORLD));
    } else if (rank == 1) {
      // As bytes: size bytes per element, value then index.
      MPI_Status status;
      memset(bytes, 0, sizeof bytes);
      MT_CHECK_MPI(MPI_Recv(bytes, (int)sizeof bytes, MPI_BYTE, 0, p,
                            MPI_COMM_WORLD, &status));
      int count = -1;
      MT_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &count));
      MT_CHECK(count == kCount * data,
               "%s: %d elements received as %d bytes, expected %d", pair->name,
               kCount, count, kCount * data);
      MT_CHECK_MPI(MPI_Get_count(&status, pair->type, &count));
      MT_CHECK(count == kCount, "%s: MPI_Get_count %d, expected %d", pair->name,
               count, kCount);
      MT_CHECK_MPI(MPI_Get_elements(&status, pair->type, &count));
      MT_CHECK(count == 2 * kCount, "%s: MPI_Get_elements %d, expected %d",
               pair->name, count, 2 * kCount);
      // The second message with the pair type itself.
      memset(buffer, 0, sizeof buffer);
      MT_CHECK_MPI(
          MPI_Recv(buffer, kCount, pair->type, 0, p, MPI_COMM_WORLD, &status));
      check_buffer(p, buffer, kCount, "MPI_Recv");
    }
  }

  // A gather: the pair type on the way in, the user struct at the root.
  for (int p = 0; p < kPairs; p++) {
    const Pair* pair = &pairs[p];
    MPI_Datatype user = user_pair(pair);
    unsigned char mine[kCount * sizeof(LongDoubleInt)];
    unsigned char* all = malloc((size_t)(size * kCount * pair->extent));
    fill(p, mine, kCount);
    MT_CHECK_MPI(MPI_Gather(mine, kCount, pair->type, all, kCount, user, 0,
                            MPI_COMM_WORLD));
    if (rank == 0) {
      for (int r = 0; r < size; r++) {
        check_buffer(p, all + r * kCount * pair->extent, kCount, "MPI_Gather");
      }
    }
    // Allgather: the pair type sent, the user struct received.
    memset(all, 0, (size_t)(size * kCount * pair->extent));
    MT_CHECK_MPI(MPI_Allgather(mine, kCount, pair->type, all, kCount, user,
                               MPI_COMM_WORLD));
    for (int r = 0; r < size; r++) {
      check_buffer(p, all + r * kCount * pair->extent, kCount, "MPI_Allgather");
    }
    // Alltoall: the user struct sent, the pair type received.
    unsigned char* out = malloc((size_t)(size * kCount * pair->extent));
    for (int r = 0; r < size; r++) {
      fill(p, out + r * kCount * pair->extent, kCount);
    }
    memset(all, 0, (size_t)(size * kCount * pair->extent));
    MT_CHECK_MPI(MPI_Alltoall(out, kCount, user, all, kCount, pair->type,
                              MPI_COMM_WORLD));
    for (int r = 0; r < size; r++) {
      check_buffer(p, all + r * kCount * pair->extent, kCount, "MPI_Alltoall");
    }
    free(out);
    // Bcast: the root's pair type, the others' user struct (same signature).
    if (rank == 0) {
      fill(p, mine, kCount);
    } else {
      memset(mine, 0, sizeof mine);
    }
    MT_CHECK_MPI(MPI_Bcast(mine, kCount, rank == 0 ? pair->type : user, 0,
                           MPI_COMM_WORLD));
    check_buffer(p, mine, kCount, "MPI_Bcast");
    free(all);
    MT_CHECK_MPI(MPI_Type_free(&user));
  }

  MPI_Finalize();
  return 0;
}
