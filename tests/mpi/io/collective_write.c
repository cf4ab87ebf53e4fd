// SPDX-License-Identifier: MIT
// MPI 4.0 §14.4.1: "The collective data access routines ... allow the
// implementation to optimize the access by using information about the
// accesses of the other processes"; the result must be what each process's
// own access would give. Collective writes through views that cut each
// member's data into many small runs (shmpi then assembles the file in
// aggregators, src/mpi/file_collective.cpp), each read back with
// independent reads and checked byte for byte against the image the
// writes must leave, over a prefilled file (bytes no member writes keep
// their contents):
//   interleave  1-, 8- and 100-byte blocks of every rank in turn, uneven
//               counts, the last rank writing nothing (write_at_all);
//   holes       a filetype whose tiles leave bytes no member writes;
//   subarray    a 2-D array of ints in a process grid, written with two
//               write_all calls in a row (the individual pointer advances
//               by each member's own etypes);
//   darray      MPI_Type_create_darray (block x cyclic(2), uneven sizes) as
//               both the memory type and the filetype;
//   ordered     write_ordered and write_ordered_begin/end through a view of
//               every other byte (the shared pointer moves past them all);
//   forms       iwrite_at_all, iwrite_all, write_at_all_begin/end and
//               write_all_begin/end;
//   atomic      write_at_all in atomic mode;
//   mixed       rank 0 writes through a contiguous view, the others
//               through views of 8-byte blocks: the members must agree
//               that some view is not contiguous (set_view), or rank 0
//               skips the collective step the others take;
//   big         20 MiB of 1000-byte blocks and 24-byte gaps (an
//               aggregator's domain in pieces).
#include "mt_file.h"

enum { kFill = 0xEE };

// The data byte `i` of rank `rank`'s write number `salt`.
static unsigned char value(int rank, long i, int salt) {
  return (unsigned char)(rank * 37 + i * 11 + i / 253 + salt * 5 + 1);
}

static void byte_view(MPI_File fh) {
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
      "MPI_File_set_view (bytes)");
}

// What the writes of every rank since the last sync are visible to every
// rank after (MPI 4.0 §14.6.1: sync-barrier-sync).
static void sync_all(MPI_File fh) {
  MT_CHECK_IO(MPI_File_sync(fh), "MPI_File_sync");
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_IO(MPI_File_sync(fh), "MPI_File_sync");
}

// The file's first `bytes` bytes set to kFill by rank 0, visible to all.
static void prefill(MPI_File fh, long bytes) {
  byte_view(fh);
  if (mt_rank() == 0) {
    unsigned char* fill = malloc((size_t)bytes);
    memset(fill, kFill, (size_t)bytes);
    MT_CHECK_IO(
        MPI_File_write_at(fh, 0, fill, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE),
        "MPI_File_write_at (prefill)");
    free(fill);
  }
  sync_all(fh);
}

// Every rank reads its share of the file's first `bytes` bytes with
// independent reads and compares them with `expected`.
static void expect_file(MPI_File fh, const unsigned char* expected, long bytes,
                        const char* what) {
  sync_all(fh);
  byte_view(fh);
  const int rank = mt_rank();
  const int size = mt_size();
  const long share = (bytes + size - 1) / size;
  const long first = rank * share < bytes ? rank * share : bytes;
  const long end = first + share < bytes ? first + share : bytes;
  unsigned char* got = malloc((size_t)(end - first) + 1);
  MPI_Status status;
  MT_CHECK_IO(
      MPI_File_read_at(fh, first, got, (int)(end - first), MPI_BYTE, &status),
      "MPI_File_read_at");
  MT_CHECK(mt_status_bytes(&status) == (int)(end - first),
           "%s: read %d bytes at %ld, expected %ld", what,
           mt_status_bytes(&status), first, end - first);
  for (long i = first; i < end; ++i) {
    if (got[i - first] != expected[i]) {
      MT_FAIL("%s: file byte %ld is 0x%02x, expected 0x%02x", what, i,
              got[i - first], expected[i]);
    }
  }
  free(got);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void expect_count(const MPI_Status* status, long bytes,
                         const char* what) {
  MT_CHECK(mt_status_bytes(status) == (int)bytes,
           "%s: the status counts %d bytes, expected %ld", what,
           mt_status_bytes(status), bytes);
}

// Blocks of `block` bytes, rank r's block j at file byte
// j * (size * block + gap) + r * block (the gap is no member's); rank r
// writes blocks - 3 * r blocks, the last of several ranks none.
static void interleave(long block, long gap, long blocks, int salt) {
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_File fh = mt_open_scratch_file("cb-interleave");
  const long extent = block * size + gap;
  const long file_bytes = blocks * extent;
  prefill(fh, file_bytes);
  MPI_Datatype contiguous, filetype;
  MPI_Type_contiguous((int)block, MPI_BYTE, &contiguous);
  MPI_Type_create_resized(contiguous, 0, extent, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(MPI_File_set_view(fh, rank * block, MPI_BYTE, filetype, "native",
                                MPI_INFO_NULL),
              "MPI_File_set_view (interleave)");
  unsigned char* expected = malloc((size_t)file_bytes);
  memset(expected, kFill, (size_t)file_bytes);
  long mine = 0;
  for (int r = 0; r < size; ++r) {
    const long count =
        (size > 1 && r == size - 1) ? 0 : (blocks - 3 * r) * block;
    for (long i = 0; i < count; ++i) {
      expected[i / block * extent + r * block + i % block] = value(r, i, salt);
    }
    if (r == rank) {
      mine = count;
    }
  }
  unsigned char* out = malloc((size_t)mine + 1);
  for (long i = 0; i < mine; ++i) {
    out[i] = value(rank, i, salt);
  }
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at_all(fh, 0, out, (int)mine, MPI_BYTE, &status),
              "MPI_File_write_at_all (interleave)");
  expect_count(&status, mine, "MPI_File_write_at_all (interleave)");
  char what[64];
  snprintf(what, sizeof what, "interleave of %ld-byte blocks", block);
  expect_file(fh, expected, file_bytes, what);
  free(out);
  free(expected);
  MPI_Type_free(&contiguous);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// Tiles of 16 * size + 5 bytes: rank r writes bytes [16r, 16r + 8) of each;
// the other bytes are no member's.
static void holes(void) {
  enum { kTiles = 200 };
  const int rank = mt_rank();
  const int size = mt_size();
  const long extent = 16L * size + 5;
  const long file_bytes = kTiles * extent;
  MPI_File fh = mt_open_scratch_file("cb-holes");
  prefill(fh, file_bytes);
  MPI_Datatype contiguous, filetype;
  MPI_Type_contiguous(8, MPI_BYTE, &contiguous);
  MPI_Type_create_resized(contiguous, 0, extent, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(MPI_File_set_view(fh, 16L * rank, MPI_BYTE, filetype, "native",
                                MPI_INFO_NULL),
              "MPI_File_set_view (holes)");
  unsigned char* expected = malloc((size_t)file_bytes);
  memset(expected, kFill, (size_t)file_bytes);
  for (int r = 0; r < size; ++r) {
    for (long i = 0; i < kTiles * 8; ++i) {
      expected[i / 8 * extent + 16 * r + i % 8] = value(r, i, 2);
    }
  }
  unsigned char out[kTiles * 8];
  for (long i = 0; i < kTiles * 8; ++i) {
    out[i] = value(rank, i, 2);
  }
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at_all(fh, 0, out, kTiles * 8, MPI_BYTE, &status),
              "MPI_File_write_at_all (holes)");
  expect_count(&status, kTiles * 8, "MPI_File_write_at_all (holes)");
  expect_file(fh, expected, file_bytes, "holes");
  free(expected);
  MPI_Type_free(&contiguous);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// A rows x cols array of ints, element (i, j) = i * cols + j, in a process
// grid of blocks as even as the sizes allow.
static void subarray(void) {
  enum { kRows = 37, kCols = 29 };
  const int rank = mt_rank();
  const int size = mt_size();
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int coords[2] = {rank / dims[1], rank % dims[1]};
  const int global[2] = {kRows, kCols};
  int sub[2], start[2];
  for (int d = 0; d < 2; ++d) {
    const int base = global[d] / dims[d];
    const int extra = global[d] % dims[d];
    sub[d] = base + (coords[d] < extra ? 1 : 0);
    start[d] = coords[d] * base + (coords[d] < extra ? coords[d] : extra);
  }
  MPI_Datatype filetype;
  MPI_Type_create_subarray(2, global, sub, start, MPI_ORDER_C, MPI_INT,
                           &filetype);
  MPI_Type_commit(&filetype);
  MPI_File fh = mt_open_scratch_file("cb-subarray");
  const long file_bytes = (long)kRows * kCols * (long)sizeof(int);
  prefill(fh, file_bytes);
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL),
      "MPI_File_set_view (subarray)");
  const int n = sub[0] * sub[1];
  int* local = malloc(sizeof(int) * (size_t)n + 1);
  for (int i = 0; i < sub[0]; ++i) {
    for (int j = 0; j < sub[1]; ++j) {
      local[i * sub[1] + j] = (start[0] + i) * kCols + start[1] + j;
    }
  }
  // Two calls in a row: the second starts where the first left this
  // member's pointer.
  const int first = n / 3;
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_all(fh, local, first, MPI_INT, &status),
              "MPI_File_write_all (first)");
  expect_count(&status, first * (long)sizeof(int), "MPI_File_write_all");
  MPI_Offset position = -1;
  MPI_File_get_position(fh, &position);
  MT_CHECK(position == first, "after the first write_all the pointer is %lld",
           (long long)position);
  MT_CHECK_IO(
      MPI_File_write_all(fh, local + first, n - first, MPI_INT, &status),
      "MPI_File_write_all (second)");
  expect_count(&status, (n - first) * (long)sizeof(int), "MPI_File_write_all");
  MPI_File_get_position(fh, &position);
  MT_CHECK(position == n, "after both write_all calls the pointer is %lld",
           (long long)position);
  int* expected = malloc((size_t)file_bytes);
  for (int i = 0; i < kRows * kCols; ++i) {
    expected[i] = i;
  }
  expect_file(fh, (const unsigned char*)expected, file_bytes, "subarray");
  free(expected);
  free(local);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// The darray is the memory type too: each rank's ints sit in a whole-array
// buffer where the file has them.
static void darray(void) {
  enum { kRows = 33, kCols = 26 };
  const int rank = mt_rank();
  const int size = mt_size();
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int global[2] = {kRows, kCols};
  const int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  const int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
  MPI_Datatype darray;
  MPI_Type_create_darray(size, rank, 2, global, distribs, dargs, dims,
                         MPI_ORDER_C, MPI_INT, &darray);
  MPI_Type_commit(&darray);
  MPI_File fh = mt_open_scratch_file("cb-darray");
  const long file_bytes = (long)kRows * kCols * (long)sizeof(int);
  prefill(fh, file_bytes);
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_INT, darray, "native", MPI_INFO_NULL),
      "MPI_File_set_view (darray)");
  int* whole = malloc((size_t)file_bytes);
  for (int i = 0; i < kRows * kCols; ++i) {
    whole[i] = i;
  }
  int type_size = 0;
  MPI_Type_size(darray, &type_size);
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at_all(fh, 0, whole, 1, darray, &status),
              "MPI_File_write_at_all (darray)");
  expect_count(&status, type_size, "MPI_File_write_at_all (darray)");
  expect_file(fh, (const unsigned char*)whole, file_bytes, "darray");
  free(whole);
  MPI_Type_free(&darray);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// Every other byte of the file is the view; rank r's part of each ordered
// call is 100 * (r + 1) bytes, after the lower ranks'.
static void ordered(void) {
  const int rank = mt_rank();
  const int size = mt_size();
  const long total = 100L * size * (size + 1) / 2;  // stream bytes per call
  const long file_bytes = 4 * total;                // two calls
  MPI_File fh = mt_open_scratch_file("cb-ordered");
  prefill(fh, file_bytes);
  MPI_Datatype filetype;
  MPI_Type_create_resized(MPI_BYTE, 0, 2, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_BYTE, filetype, "native", MPI_INFO_NULL),
      "MPI_File_set_view (ordered)");
  unsigned char* expected = malloc((size_t)file_bytes);
  memset(expected, kFill, (size_t)file_bytes);
  long before = 0;  // stream bytes of the lower ranks
  for (int r = 0; r < size; ++r) {
    const long mine = 100L * (r + 1);
    for (int call = 0; call < 2; ++call) {
      for (long i = 0; i < mine; ++i) {
        expected[2 * (call * total + before + i)] = value(r, i, 3 + call);
      }
    }
    before += mine;
  }
  const long mine = 100L * (rank + 1);
  unsigned char* out = malloc((size_t)mine);
  for (long i = 0; i < mine; ++i) {
    out[i] = value(rank, i, 3);
  }
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_ordered(fh, out, (int)mine, MPI_BYTE, &status),
              "MPI_File_write_ordered");
  expect_count(&status, mine, "MPI_File_write_ordered");
  for (long i = 0; i < mine; ++i) {
    out[i] = value(rank, i, 4);
  }
  MT_CHECK_IO(MPI_File_write_ordered_begin(fh, out, (int)mine, MPI_BYTE),
              "MPI_File_write_ordered_begin");
  MT_CHECK_IO(MPI_File_write_ordered_end(fh, out, &status),
              "MPI_File_write_ordered_end");
  expect_count(&status, mine, "MPI_File_write_ordered_end");
  MPI_Offset shared = -1;
  MT_CHECK_IO(MPI_File_get_position_shared(fh, &shared),
              "MPI_File_get_position_shared");
  MT_CHECK(shared == 2 * total, "the shared pointer is at %lld, expected %ld",
           (long long)shared, 2 * total);
  expect_file(fh, expected, file_bytes, "ordered");
  free(out);
  free(expected);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// 8-byte blocks of every rank in turn, kBlocks each, written by the four
// other forms into four consecutive regions of the view.
static void forms(void) {
  enum { kBlocks = 150, kBytes = kBlocks * 8 };
  const int rank = mt_rank();
  const int size = mt_size();
  const long file_bytes = 4L * kBytes * size;
  MPI_File fh = mt_open_scratch_file("cb-forms");
  prefill(fh, file_bytes);
  MPI_Datatype contiguous, filetype;
  MPI_Type_contiguous(8, MPI_BYTE, &contiguous);
  MPI_Type_create_resized(contiguous, 0, 8L * size, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(MPI_File_set_view(fh, 8L * rank, MPI_BYTE, filetype, "native",
                                MPI_INFO_NULL),
              "MPI_File_set_view (forms)");
  unsigned char* expected = malloc((size_t)file_bytes);
  for (int r = 0; r < size; ++r) {
    for (long i = 0; i < 4L * kBytes; ++i) {
      expected[(i / 8 * size + r) * 8 + i % 8] = value(r, i, 5);
    }
  }
  unsigned char* out = malloc(4 * kBytes);
  for (long i = 0; i < 4L * kBytes; ++i) {
    out[i] = value(rank, i, 5);
  }
  MPI_Status status;
  MPI_Request request;
  MT_CHECK_IO(MPI_File_iwrite_at_all(fh, 0, out, kBytes, MPI_BYTE, &request),
              "MPI_File_iwrite_at_all");
  MPI_Wait(&request, &status);
  expect_count(&status, kBytes, "MPI_File_iwrite_at_all");
  MT_CHECK_IO(
      MPI_File_write_at_all_begin(fh, kBytes, out + kBytes, kBytes, MPI_BYTE),
      "MPI_File_write_at_all_begin");
  MT_CHECK_IO(MPI_File_write_at_all_end(fh, out + kBytes, &status),
              "MPI_File_write_at_all_end");
  expect_count(&status, kBytes, "MPI_File_write_at_all_end");
  MT_CHECK_IO(MPI_File_seek(fh, 2 * kBytes, MPI_SEEK_SET), "MPI_File_seek");
  MT_CHECK_IO(
      MPI_File_iwrite_all(fh, out + 2 * kBytes, kBytes, MPI_BYTE, &request),
      "MPI_File_iwrite_all");
  MPI_Wait(&request, &status);
  expect_count(&status, kBytes, "MPI_File_iwrite_all");
  MT_CHECK_IO(MPI_File_write_all_begin(fh, out + 3 * kBytes, kBytes, MPI_BYTE),
              "MPI_File_write_all_begin");
  MT_CHECK_IO(MPI_File_write_all_end(fh, out + 3 * kBytes, &status),
              "MPI_File_write_all_end");
  expect_count(&status, kBytes, "MPI_File_write_all_end");
  MPI_Offset position = -1;
  MPI_File_get_position(fh, &position);
  MT_CHECK(position == 4 * kBytes, "the pointer is at %lld, expected %d",
           (long long)position, 4 * kBytes);
  expect_file(fh, expected, file_bytes, "forms");
  free(out);
  free(expected);
  MPI_Type_free(&contiguous);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// The interleave of 8-byte blocks in atomic mode.
static void atomic(void) {
  enum { kBlocks = 300, kBytes = kBlocks * 8 };
  const int rank = mt_rank();
  const int size = mt_size();
  const long file_bytes = (long)kBytes * size;
  MPI_File fh = mt_open_scratch_file("cb-atomic");
  prefill(fh, file_bytes);
  MT_CHECK_IO(MPI_File_set_atomicity(fh, 1), "MPI_File_set_atomicity");
  MPI_Datatype contiguous, filetype;
  MPI_Type_contiguous(8, MPI_BYTE, &contiguous);
  MPI_Type_create_resized(contiguous, 0, 8L * size, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(MPI_File_set_view(fh, 8L * rank, MPI_BYTE, filetype, "native",
                                MPI_INFO_NULL),
              "MPI_File_set_view (atomic)");
  unsigned char* expected = malloc((size_t)file_bytes);
  for (int r = 0; r < size; ++r) {
    for (long i = 0; i < kBytes; ++i) {
      expected[(i / 8 * size + r) * 8 + i % 8] = value(r, i, 6);
    }
  }
  unsigned char out[kBytes];
  for (long i = 0; i < kBytes; ++i) {
    out[i] = value(rank, i, 6);
  }
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at_all(fh, 0, out, kBytes, MPI_BYTE, &status),
              "MPI_File_write_at_all (atomic)");
  expect_count(&status, kBytes, "MPI_File_write_at_all (atomic)");
  expect_file(fh, expected, file_bytes, "atomic");
  free(expected);
  MPI_Type_free(&contiguous);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// The first `blocks` tiles of 8 * (size - 1) bytes hold the 8-byte blocks
// of ranks 1 .. size - 1 in turn; rank 0's kTail bytes follow, written
// through the default-like view of bytes at their start.
static void mixed(void) {
  enum { kBlocks = 200, kTail = 1000 };
  const int rank = mt_rank();
  const int size = mt_size();
  const long tile = 8L * (size - 1);
  const long file_bytes = kBlocks * tile + kTail;
  MPI_File fh = mt_open_scratch_file("cb-mixed");
  prefill(fh, file_bytes);
  MPI_Datatype contiguous, filetype;
  MPI_Type_contiguous(8, MPI_BYTE, &contiguous);
  MPI_Type_create_resized(contiguous, 0, tile > 0 ? tile : 8, &filetype);
  MPI_Type_commit(&filetype);
  if (rank == 0) {
    MT_CHECK_IO(MPI_File_set_view(fh, kBlocks * tile, MPI_BYTE, MPI_BYTE,
                                  "native", MPI_INFO_NULL),
                "MPI_File_set_view (mixed, bytes)");
  } else {
    MT_CHECK_IO(MPI_File_set_view(fh, 8L * (rank - 1), MPI_BYTE, filetype,
                                  "native", MPI_INFO_NULL),
                "MPI_File_set_view (mixed, blocks)");
  }
  unsigned char* expected = malloc((size_t)file_bytes);
  for (int r = 1; r < size; ++r) {
    for (long i = 0; i < 8L * kBlocks; ++i) {
      expected[i / 8 * tile + 8L * (r - 1) + i % 8] = value(r, i, 8);
    }
  }
  for (long i = 0; i < kTail; ++i) {
    expected[kBlocks * tile + i] = value(0, i, 8);
  }
  const long mine = rank == 0 ? kTail : 8L * kBlocks;
  unsigned char* out = malloc((size_t)mine);
  for (long i = 0; i < mine; ++i) {
    out[i] = value(rank, i, 8);
  }
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at_all(fh, 0, out, (int)mine, MPI_BYTE, &status),
              "MPI_File_write_at_all (mixed)");
  expect_count(&status, mine, "MPI_File_write_at_all (mixed)");
  expect_file(fh, expected, file_bytes, "mixed views");
  free(out);
  free(expected);
  MPI_Type_free(&contiguous);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  interleave(1, 0, 500, 0);
  interleave(8, 0, 300, 1);
  interleave(100, 0, 100, 2);
  holes();
  subarray();
  darray();
  ordered();
  forms();
  atomic();
  mixed();
  // 20 MiB with gaps: with one rank the aggregator's domain is over 16 MiB.
  const long blocks = (20L << 20) / (1000L * mt_size() + 24);
  interleave(1000, 24, blocks, 7);
  MPI_Finalize();
  return 0;
}
