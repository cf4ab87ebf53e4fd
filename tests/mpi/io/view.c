// SPDX-License-Identifier: MIT
// MPI 4.0 §14.3: "A view defines the current set of data visible and
// accessible from an open file as an ordered set of etypes. Each process
// has its own view of the file, defined by three quantities: a
// displacement, an etype, and a filetype. The pattern described by a
// filetype is repeated, beginning at the displacement, to define the
// view." One case per run (the argument), each a classic use of views:
//   interleave  each rank a strided vector filetype; the blocks of all
//               ranks interleave in the file (write_all, read back whole
//               and through a resized filetype that tiles);
//   subarray    a 2-D global array written with MPI_File_write_all through
//               subarray filetypes, read back whole by rank 0;
//   darray      the same with MPI_Type_create_darray (block x cyclic(2),
//               sizes that do not divide evenly);
//   holes       an etype of MPI_INT and a resized filetype with holes: the
//               holes keep what the file held;
//   noncontig   a noncontiguous memory datatype against a noncontiguous
//               view, both ways;
//   get_view    MPI_File_get_view returns the view (predefined types as
//               themselves, derived ones as new types the program frees),
//               and the view outlives the program's handles;
//   positions   MPI_File_get_byte_offset, MPI_File_seek and
//               MPI_File_get_position count etypes of the view;
//   seek_end    MPI_SEEK_END under a view with holes: the end of the file
//               in etypes of the view.
#include "mt_file.h"

enum { kInts = 96 };

static void byte_view(MPI_File fh) {
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
      "MPI_File_set_view (bytes)");
}

static void expect_ints(const int* got, const int* expected, int n,
                        const char* what) {
  for (int i = 0; i < n; ++i) {
    if (got[i] != expected[i]) {
      MT_FAIL("%s: int %d is %d, expected %d", what, i, got[i], expected[i]);
    }
  }
}

// Each rank's kInts ints in blocks of kBlock, rank r's block j at int
// (j * size + r) * kBlock of the file.
static void interleave(void) {
  enum { kBlock = 4, kBlocks = kInts / kBlock };
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_File fh = mt_open_scratch_file("view-interleave");
  int out[kInts];
  for (int i = 0; i < kInts; ++i) {
    out[i] = rank * 100000 + i;
  }
  // One tile: a vector of every rank's blocks, from this rank's first.
  MPI_Datatype vector;
  MPI_Type_vector(kBlocks, kBlock, kBlock * size, MPI_INT, &vector);
  MPI_Type_commit(&vector);
  MT_CHECK_IO(MPI_File_set_view(fh, (MPI_Offset)(rank * kBlock * sizeof(int)),
                                MPI_INT, vector, "native", MPI_INFO_NULL),
              "MPI_File_set_view (vector)");
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_all(fh, out, kInts, MPI_INT, &status),
              "MPI_File_write_all");
  if (mt_status_bytes(&status) != (int)sizeof out) {
    MT_FAIL("MPI_File_write_all wrote %d bytes, expected %d",
            mt_status_bytes(&status), (int)sizeof out);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  byte_view(fh);
  if (rank == 0) {
    const int total = kInts * size;
    int* all = malloc(sizeof(int) * (size_t)total);
    int* expected = malloc(sizeof(int) * (size_t)total);
    for (int k = 0; k < total; ++k) {
      const int block = k / kBlock;
      expected[k] =
          (block % size) * 100000 + (block / size) * kBlock + k % kBlock;
    }
    MT_CHECK_IO(MPI_File_read_at(fh, 0, all, total, MPI_INT, &status),
                "MPI_File_read_at (whole file)");
    expect_ints(all, expected, total, "the interleaved file");
    free(all);
    free(expected);
  }
  // The same blocks through a filetype that tiles: one block, resized to
  // a round of all ranks' blocks.
  MPI_Datatype block;
  MPI_Datatype tile;
  MPI_Type_contiguous(kBlock, MPI_INT, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)(kBlock * size * sizeof(int)),
                          &tile);
  MPI_Type_commit(&tile);
  MT_CHECK_IO(MPI_File_set_view(fh, (MPI_Offset)(rank * kBlock * sizeof(int)),
                                MPI_INT, tile, "native", MPI_INFO_NULL),
              "MPI_File_set_view (resized block)");
  int in[kInts];
  memset(in, 0, sizeof in);
  MT_CHECK_IO(MPI_File_read_at_all(fh, 0, in, kInts, MPI_INT, &status),
              "MPI_File_read_at_all");
  expect_ints(in, out, kInts, "the rank's blocks through the tiled view");
  // Offsets count etypes of the view: block 3 starts at etype 3 * kBlock.
  memset(in, 0, sizeof in);
  MT_CHECK_IO(MPI_File_read_at(fh, 3 * kBlock, in, kBlock, MPI_INT, &status),
              "MPI_File_read_at (block 3)");
  expect_ints(in, out + 3 * kBlock, kBlock, "block 3 through the view");
  MPI_Type_free(&vector);
  MPI_Type_free(&block);
  MPI_Type_free(&tile);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static void grid(int dims[2]) {
  dims[0] = 0;
  dims[1] = 0;
  MPI_Dims_create(mt_size(), 2, dims);
}

// Rank 0 reads the whole global array of `total` ints and checks it
// against `expected`.
static void check_whole(MPI_File fh, const int* expected, int total,
                        const char* what) {
  MPI_Barrier(MPI_COMM_WORLD);
  byte_view(fh);
  if (mt_rank() == 0) {
    int* all = malloc(sizeof(int) * (size_t)total);
    MPI_Status status;
    MT_CHECK_IO(MPI_File_read_at(fh, 0, all, total, MPI_INT, &status),
                "MPI_File_read_at (whole array)");
    if (mt_status_bytes(&status) != total * (int)sizeof(int)) {
      MT_FAIL("%s: the file holds %d bytes, expected %d", what,
              mt_status_bytes(&status), total * (int)sizeof(int));
    }
    expect_ints(all, expected, total, what);
    free(all);
  }
}

static void subarray(void) {
  enum { kRows = 3, kCols = 5 };  // of each rank's block
  int dims[2];
  grid(dims);
  const int rank = mt_rank();
  const int my_row = rank / dims[1];
  const int my_col = rank % dims[1];
  const int sizes[2] = {kRows * dims[0], kCols * dims[1]};
  const int subsizes[2] = {kRows, kCols};
  const int starts[2] = {my_row * kRows, my_col * kCols};
  MPI_Datatype filetype;
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT,
                           &filetype);
  MPI_Type_commit(&filetype);
  int local[kRows * kCols];
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < kCols; ++j) {
      local[i * kCols + j] = (starts[0] + i) * sizes[1] + starts[1] + j;
    }
  }
  MPI_File fh = mt_open_scratch_file("view-subarray");
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL),
      "MPI_File_set_view (subarray)");
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_all(fh, local, kRows * kCols, MPI_INT, &status),
              "MPI_File_write_all");
  const int total = sizes[0] * sizes[1];
  int* expected = malloc(sizeof(int) * (size_t)total);
  for (int k = 0; k < total; ++k) {
    expected[k] = k;
  }
  check_whole(fh, expected, total, "the subarray-written global array");
  free(expected);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// darray: rows in blocks (default darg), columns cyclic in blocks of 2.
enum { kDarrayRows = 5, kDarrayCols = 7, kCyclic = 2 };

static int rows_owned(int coord, int procs) {
  const int block = (kDarrayRows + procs - 1) / procs;
  int n = kDarrayRows - coord * block;
  return n < 0 ? 0 : (n > block ? block : n);
}

static int cols_owned(int coord, int procs) {
  int n = 0;
  for (int j = 0; j < kDarrayCols; ++j) {
    n += (j / kCyclic) % procs == coord;
  }
  return n;
}

static void darray(void) {
  int dims[2];
  grid(dims);
  const int rank = mt_rank();
  const int size = mt_size();
  const int gsizes[2] = {kDarrayRows, kDarrayCols};
  const int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  const int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, kCyclic};
  MPI_Datatype filetype;
  MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, dims,
                         MPI_ORDER_C, MPI_INT, &filetype);
  MPI_Type_commit(&filetype);
  int type_size = 0;
  MPI_Type_size(filetype, &type_size);
  const int mine = type_size / (int)sizeof(int);
  const int my_row = rank / dims[1];
  const int my_col = rank % dims[1];
  if (mine != rows_owned(my_row, dims[0]) * cols_owned(my_col, dims[1])) {
    MT_FAIL("the darray holds %d ints, expected %d x %d", mine,
            rows_owned(my_row, dims[0]), cols_owned(my_col, dims[1]));
  }
  int* local = malloc(sizeof(int) * (size_t)(mine + 1));
  for (int i = 0; i < mine; ++i) {
    local[i] = rank * 1000 + i;
  }
  MPI_File fh = mt_open_scratch_file("view-darray");
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL),
      "MPI_File_set_view (darray)");
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_all(fh, local, mine, MPI_INT, &status),
              "MPI_File_write_all");
  // Element (i, j) belongs to the process at grid (i / block, (j / 2) %
  // P1), at its local row-major index.
  const int total = kDarrayRows * kDarrayCols;
  int expected[kDarrayRows * kDarrayCols];
  const int row_block = (kDarrayRows + dims[0] - 1) / dims[0];
  for (int i = 0; i < kDarrayRows; ++i) {
    for (int j = 0; j < kDarrayCols; ++j) {
      const int c0 = i / row_block;
      const int c1 = (j / kCyclic) % dims[1];
      const int local_row = i % row_block;
      const int local_col = (j / kCyclic) / dims[1] * kCyclic + j % kCyclic;
      expected[i * kDarrayCols + j] = (c0 * dims[1] + c1) * 1000 +
                                      local_row * cols_owned(c1, dims[1]) +
                                      local_col;
    }
  }
  check_whole(fh, expected, total, "the darray-written global array");
  free(local);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// Each rank's region of the file: kInts ints, after the others'.
static MPI_Offset region(void) {
  return (MPI_Offset)mt_rank() * kInts * (MPI_Offset)sizeof(int);
}

// The filetype of the holes case: ints 1 and 2 of every 4.
static MPI_Datatype two_of_four(void) {
  const int lengths[1] = {2};
  const int displacements[1] = {1};
  MPI_Datatype placed;
  MPI_Datatype tile;
  MPI_Type_indexed(1, lengths, displacements, MPI_INT, &placed);
  MPI_Type_create_resized(placed, 0, 4 * sizeof(int), &tile);
  MPI_Type_commit(&tile);
  MPI_Type_free(&placed);
  return tile;
}

// Fills the rank's region with -1 through the byte view.
static void fill_region(MPI_File fh) {
  int minus[kInts];
  for (int i = 0; i < kInts; ++i) {
    minus[i] = -1;
  }
  byte_view(fh);
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at(fh, region(), minus, kInts, MPI_INT, &status),
              "MPI_File_write_at (fill)");
}

static void read_region(MPI_File fh, int* raw) {
  byte_view(fh);
  MPI_Status status;
  MT_CHECK_IO(MPI_File_read_at(fh, region(), raw, kInts, MPI_INT, &status),
              "MPI_File_read_at (region)");
}

static void holes(void) {
  MPI_File fh = mt_open_scratch_file("view-holes");
  fill_region(fh);
  MPI_Datatype tile = two_of_four();
  MT_CHECK_IO(
      MPI_File_set_view(fh, region(), MPI_INT, tile, "native", MPI_INFO_NULL),
      "MPI_File_set_view (holes)");
  // Etypes 1..6 of the view: ints 2, 5, 6, 9, 10, 13 of the region.
  const int out[6] = {11, 12, 13, 14, 15, 16};
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at(fh, 1, out, 6, MPI_INT, &status),
              "MPI_File_write_at (view)");
  int in[6] = {0};
  MT_CHECK_IO(MPI_File_read_at(fh, 1, in, 6, MPI_INT, &status),
              "MPI_File_read_at (view)");
  expect_ints(in, out, 6, "ints back through the view with holes");
  int raw[kInts];
  read_region(fh, raw);
  int expected[kInts];
  for (int i = 0; i < kInts; ++i) {
    expected[i] = -1;
  }
  const int places[6] = {2, 5, 6, 9, 10, 13};
  for (int k = 0; k < 6; ++k) {
    expected[places[k]] = out[k];
  }
  expect_ints(raw, expected, kInts, "the region under the view with holes");
  MPI_Type_free(&tile);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static void noncontig(void) {
  MPI_File fh = mt_open_scratch_file("view-noncontig");
  fill_region(fh);
  MPI_Datatype tile = two_of_four();
  // Memory: blocks of 3 ints every 5 (two ints of gap).
  MPI_Datatype memory;
  MPI_Type_vector(4, 3, 5, MPI_INT, &memory);
  MPI_Type_commit(&memory);
  MT_CHECK_IO(
      MPI_File_set_view(fh, region(), MPI_INT, tile, "native", MPI_INFO_NULL),
      "MPI_File_set_view (noncontig)");
  int out[20];
  for (int i = 0; i < 20; ++i) {
    out[i] = i % 5 < 3 ? 100 + i : -7;
  }
  MPI_Status status;
  // 12 ints from memory into etypes 0..11 of the view.
  MT_CHECK_IO(MPI_File_write_all(fh, out, 1, memory, &status),
              "MPI_File_write_all (vector memory type)");
  int raw[kInts];
  read_region(fh, raw);
  int expected[kInts];
  for (int i = 0; i < kInts; ++i) {
    expected[i] = -1;
  }
  int k = 0;
  for (int i = 0; i < 20; ++i) {
    if (i % 5 < 3) {
      expected[(k / 2) * 4 + 1 + k % 2] = out[i];
      ++k;
    }
  }
  expect_ints(raw, expected, kInts, "the region after a noncontiguous write");
  // And back: the memory type's gaps keep what they held.
  MT_CHECK_IO(
      MPI_File_set_view(fh, region(), MPI_INT, tile, "native", MPI_INFO_NULL),
      "MPI_File_set_view (noncontig again)");
  int in[20];
  for (int i = 0; i < 20; ++i) {
    in[i] = -7;
  }
  MT_CHECK_IO(MPI_File_read_all(fh, in, 1, memory, &status),
              "MPI_File_read_all (vector memory type)");
  expect_ints(in, out, 20, "a noncontiguous read into a vector");
  if (mt_status_bytes(&status) != 12 * (int)sizeof(int)) {
    MT_FAIL("MPI_File_read_all: the status counts %d bytes, expected %d",
            mt_status_bytes(&status), 12 * (int)sizeof(int));
  }
  MPI_Type_free(&memory);
  MPI_Type_free(&tile);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static int combiner_of(MPI_Datatype type) {
  int integers = 0;
  int addresses = 0;
  int types = 0;
  int combiner = -1;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner;
}

static void get_view(void) {
  MPI_File fh = mt_open_scratch_file("view-get");
  MPI_Offset disp = -1;
  MPI_Datatype etype = MPI_DATATYPE_NULL;
  MPI_Datatype filetype = MPI_DATATYPE_NULL;
  char datarep[MPI_MAX_DATAREP_STRING];
  // The default view: bytes from the start, "native".
  MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
              "MPI_File_get_view (default)");
  if (disp != 0 || etype != MPI_BYTE || filetype != MPI_BYTE ||
      strcmp(datarep, "native") != 0) {
    MT_FAIL("the default view is disp %lld, datarep %s, not 0 bytes native",
            (long long)disp, datarep);
  }
  // Predefined types come back as themselves.
  MT_CHECK_IO(
      MPI_File_set_view(fh, 12, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
      "MPI_File_set_view (ints)");
  MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
              "MPI_File_get_view (ints)");
  if (disp != 12 || etype != MPI_INT || filetype != MPI_INT) {
    MT_FAIL("the view of ints came back as disp %lld and other types",
            (long long)disp);
  }
  // Derived types come back as new types of the same type map.
  MPI_Datatype pair;
  MPI_Datatype tile = two_of_four();
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Datatype tiles;
  MPI_Type_contiguous(2, tile, &tiles);
  MPI_Type_commit(&tiles);
  MT_CHECK_IO(MPI_File_set_view(fh, 32, pair, tiles, "native", MPI_INFO_NULL),
              "MPI_File_set_view (derived)");
  MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
              "MPI_File_get_view (derived)");
  if (disp != 32 || strcmp(datarep, "native") != 0) {
    MT_FAIL("the derived view came back as disp %lld, datarep %s",
            (long long)disp, datarep);
  }
  if (combiner_of(etype) == MPI_COMBINER_NAMED ||
      combiner_of(filetype) == MPI_COMBINER_NAMED) {
    MT_FAIL("MPI_File_get_view returned a derived type as a named one");
  }
  int size_a = 0;
  int size_b = 0;
  MPI_Aint lb_a = 0;
  MPI_Aint lb_b = 0;
  MPI_Aint extent_a = 0;
  MPI_Aint extent_b = 0;
  MPI_Type_size(filetype, &size_a);
  MPI_Type_size(tiles, &size_b);
  MPI_Type_get_extent(filetype, &lb_a, &extent_a);
  MPI_Type_get_extent(tiles, &lb_b, &extent_b);
  if (size_a != size_b || lb_a != lb_b || extent_a != extent_b) {
    MT_FAIL("the returned filetype is %d bytes [%ld, +%ld), not %d [%ld, +%ld)",
            size_a, (long)lb_a, (long)extent_a, size_b, (long)lb_b,
            (long)extent_b);
  }
  MPI_Type_size(etype, &size_a);
  if (size_a != 2 * (int)sizeof(int)) {
    MT_FAIL("the returned etype holds %d bytes, expected %d", size_a,
            2 * (int)sizeof(int));
  }
  // The program frees what it got, and its own handles: the view stays.
  MT_CHECK_MPI(MPI_Type_free(&etype));
  MT_CHECK_MPI(MPI_Type_free(&filetype));
  MPI_Type_free(&pair);
  MPI_Type_free(&tiles);
  MPI_Type_free(&tile);
  const int out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int in[8] = {0};
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at(fh, region() / 8, out, 8, MPI_INT, &status),
              "MPI_File_write_at (after freeing the types)");
  MT_CHECK_IO(MPI_File_read_at(fh, region() / 8, in, 8, MPI_INT, &status),
              "MPI_File_read_at (after freeing the types)");
  expect_ints(in, out, 8, "data through a view whose types were freed");
  MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
              "MPI_File_get_view (after freeing)");
  MPI_Type_size(filetype, &size_a);
  if (size_a != 4 * (int)sizeof(int)) {
    MT_FAIL("the filetype came back with %d bytes after the frees", size_a);
  }
  MPI_Type_free(&etype);
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// The byte offset of etype e under two_of_four() at `disp`.
static MPI_Offset two_of_four_offset(MPI_Offset disp, MPI_Offset e) {
  return disp + (e / 2) * 16 + (1 + e % 2) * 4;
}

static void positions(void) {
  MPI_File fh = mt_open_scratch_file("view-positions");
  MPI_Datatype tile = two_of_four();
  const MPI_Offset disp = region() + 8;
  MT_CHECK_IO(
      MPI_File_set_view(fh, disp, MPI_INT, tile, "native", MPI_INFO_NULL),
      "MPI_File_set_view (positions)");
  for (MPI_Offset e = 0; e < 9; ++e) {
    MPI_Offset byte = -1;
    MT_CHECK_IO(MPI_File_get_byte_offset(fh, e, &byte),
                "MPI_File_get_byte_offset");
    if (byte != two_of_four_offset(disp, e)) {
      MT_FAIL("etype %lld is at byte %lld, expected %lld", (long long)e,
              (long long)byte, (long long)two_of_four_offset(disp, e));
    }
  }
  MPI_Offset position = -1;
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  MT_CHECK(position == 0, "set_view left the pointer at %lld",
           (long long)position);
  MT_CHECK_IO(MPI_File_seek(fh, 3, MPI_SEEK_SET), "MPI_File_seek (set)");
  const int out[3] = {31, 32, 33};
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write(fh, out, 3, MPI_INT, &status), "MPI_File_write");
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  MT_CHECK(position == 6, "after 3 etypes from 3 the pointer is at %lld",
           (long long)position);
  MT_CHECK_IO(MPI_File_seek(fh, -3, MPI_SEEK_CUR), "MPI_File_seek (cur)");
  int in[3] = {0};
  MT_CHECK_IO(MPI_File_read(fh, in, 3, MPI_INT, &status), "MPI_File_read");
  expect_ints(in, out, 3, "ints back at the seeked position");
  // Etype 3 is the second int of the second tile.
  int raw = 0;
  byte_view(fh);
  MT_CHECK_IO(MPI_File_read_at(fh, two_of_four_offset(disp, 3), &raw, 1,
                               MPI_INT, &status),
              "MPI_File_read_at (byte offset of etype 3)");
  MT_CHECK(raw == 31, "the byte offset of etype 3 holds %d, expected 31", raw);
  // A new view puts the pointer back at its start.
  MT_CHECK_IO(MPI_File_seek(fh, 5, MPI_SEEK_SET), "MPI_File_seek (bytes)");
  MT_CHECK_IO(
      MPI_File_set_view(fh, disp, MPI_INT, tile, "native", MPI_INFO_NULL),
      "MPI_File_set_view (again)");
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  MT_CHECK(position == 0, "set_view left the pointer at %lld",
           (long long)position);
  MPI_Type_free(&tile);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// MPI_SEEK_END for a file of `bytes` bytes, under two_of_four() from 0.
static MPI_Offset end_in_etypes(MPI_File fh, MPI_Offset bytes) {
  // Rank 0 makes the file `bytes` long (a byte at the end), then every
  // rank looks.
  byte_view(fh);
  if (mt_rank() == 0) {
    const char last = 'x';
    MPI_Status status;
    MT_CHECK_IO(MPI_File_write_at(fh, bytes - 1, &last, 1, MPI_CHAR, &status),
                "MPI_File_write_at (size)");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Datatype tile = two_of_four();
  MT_CHECK_IO(MPI_File_set_view(fh, 0, MPI_INT, tile, "native", MPI_INFO_NULL),
              "MPI_File_set_view (seek_end)");
  MPI_Type_free(&tile);
  MT_CHECK_IO(MPI_File_seek(fh, 0, MPI_SEEK_END), "MPI_File_seek (end)");
  MPI_Offset position = -1;
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  MPI_Barrier(MPI_COMM_WORLD);
  return position;
}

static void seek_end(void) {
  MPI_File fh = mt_open_scratch_file("view-seek-end");
  // Three whole tiles (16 bytes, data at [4, 12)) and 8 bytes more: the
  // fourth tile's first int, [52, 56), is the 7th etype.
  MPI_Offset end = end_in_etypes(fh, 3 * 16 + 8);
  MT_CHECK(end == 7, "a 56-byte file ends at etype %lld, expected 7",
           (long long)end);
  // Ending inside a hole (files only grow here, so a longer one): five
  // tiles and 3 bytes, [80, 83) lies before the sixth tile's data.
  end = end_in_etypes(fh, 5 * 16 + 3);
  MT_CHECK(end == 10, "an 83-byte file ends at etype %lld, expected 10",
           (long long)end);
  // Ending inside an etype's bytes rounds up to the next whole etype.
  end = end_in_etypes(fh, 5 * 16 + 6);
  MT_CHECK(end == 11, "an 86-byte file ends at etype %lld, expected 11",
           (long long)end);
  // A relative seek from the end.
  MT_CHECK_IO(MPI_File_seek(fh, -4, MPI_SEEK_END), "MPI_File_seek (end-4)");
  MPI_Offset position = -1;
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  MT_CHECK(position == 7, "4 etypes before the end is %lld, expected 7",
           (long long)position);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

int main(int argc, char** argv) {
  static const mt_case kCases[] = {
      {"interleave", interleave}, {"subarray", subarray},
      {"darray", darray},         {"holes", holes},
      {"noncontig", noncontig},   {"get_view", get_view},
      {"positions", positions},   {"seek_end", seek_end},
  };
  MPI_Init(&argc, &argv);
  mt_run_case(argc, argv, kCases, sizeof kCases / sizeof kCases[0]);
  MPI_Finalize();
  return 0;
}
