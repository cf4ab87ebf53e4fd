// SPDX-License-Identifier: MIT
// MPI 4.0 §14.5, data representations: "native" stores the bytes as memory
// holds them, "external32" is "big-endian IEEE" with the sizes of §14.5.2,
// and MPI_Register_datarep adds representations whose conversion functions
// MPI calls on every access. "For those functions that accept displacements
// in bytes, the displacements must be specified in terms of their values in
// the file for the file data representation being used"; etypes and
// filetypes that are portable datatypes are scaled. One case per run:
//   external32        ints, shorts and doubles written in external32 are
//                     big-endian in the file (read back raw with "native"),
//                     and read back converted, through noncontiguous memory
//                     and a filetype with holes;
//   external32_sizes  MPI_LONG takes 4 bytes in external32: etypes, a
//                     portable filetype and the status count follow;
//   extent            MPI_File_get_type_extent(_c) in "native",
//                     "external32" and a user representation;
//   user              a user representation (ints as 8-byte big-endian)
//                     round trip through a view with holes, its conversion
//                     functions called with consecutive positions;
//   user_null         MPI_CONVERSION_FN_NULL moves native bytes, and is an
//                     error when the file extents disagree;
//   dup               MPI_ERR_DUP_DATAREP for a name registered twice;
//   dup_predefined    ... and for "native", "internal" and "external32";
//   unsupported       MPI_ERR_UNSUPPORTED_DATAREP for an unknown name;
//   conversion_error  MPI_ERR_CONVERSION when a conversion or extent
//                     function fails.
#include <stdint.h>

#include "mt_file.h"

static MPI_File open_file(const char* tag) {
  MPI_File fh = mt_open_scratch_file(tag);
  return fh;
}

// Each rank's region of the file.
enum { kRegion = 4096 };
static MPI_Offset region(void) { return (MPI_Offset)mt_rank() * kRegion; }

static void set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                     MPI_Datatype filetype, const char* datarep) {
  char what[128];
  snprintf(what, sizeof what, "MPI_File_set_view (\"%s\")", datarep);
  MT_CHECK_IO(
      MPI_File_set_view(fh, disp, etype, filetype, datarep, MPI_INFO_NULL),
      what);
}

static void read_raw(MPI_File fh, MPI_Offset at, unsigned char* raw, int n) {
  set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native");
  MPI_Status status;
  MT_CHECK_IO(MPI_File_read_at(fh, at, raw, n, MPI_BYTE, &status),
              "MPI_File_read_at (raw)");
  MT_CHECK(mt_status_bytes(&status) == n, "read %d raw bytes of %d",
           mt_status_bytes(&status), n);
}

static uint64_t big_endian(const unsigned char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value = (value << 8) | p[i];
  }
  return value;
}

static void expect_big_endian(const unsigned char* p, int bytes,
                              uint64_t expected, const char* what) {
  if (big_endian(p, bytes) != expected) {
    MT_FAIL("%s: the file holds 0x%llx, expected the big-endian 0x%llx", what,
            (unsigned long long)big_endian(p, bytes),
            (unsigned long long)expected);
  }
}

static uint64_t bits_of_double(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

static void external32(void) {
  MPI_File fh = open_file("datarep-ext32");
  const int ints[4] = {1, -2, 0x01020304, 2147483647};
  const short shorts[2] = {0x0102, -3};
  const double doubles[2] = {1.5, -2.25};
  MPI_Status status;
  set_view(fh, region(), MPI_BYTE, MPI_BYTE, "external32");
  MT_CHECK_IO(MPI_File_write_at(fh, 0, ints, 4, MPI_INT, &status),
              "MPI_File_write_at (ints)");
  MT_CHECK(mt_status_bytes(&status) == 16, "the status counts %d bytes",
           mt_status_bytes(&status));
  MT_CHECK_IO(MPI_File_write_at(fh, 16, shorts, 2, MPI_SHORT, &status),
              "MPI_File_write_at (shorts)");
  MT_CHECK_IO(MPI_File_write_at(fh, 20, doubles, 2, MPI_DOUBLE, &status),
              "MPI_File_write_at (doubles)");
  unsigned char raw[36];
  read_raw(fh, region(), raw, 36);
  for (int i = 0; i < 4; ++i) {
    expect_big_endian(raw + 4 * i, 4, (uint32_t)ints[i], "an int");
  }
  expect_big_endian(raw + 16, 2, 0x0102, "a short");
  expect_big_endian(raw + 18, 2, 0xfffd, "a negative short");
  expect_big_endian(raw + 20, 8, bits_of_double(1.5), "a double");
  expect_big_endian(raw + 28, 8, bits_of_double(-2.25), "a negative double");

  set_view(fh, region(), MPI_BYTE, MPI_BYTE, "external32");
  int ints_in[4] = {0};
  short shorts_in[2] = {0};
  double doubles_in[2] = {0};
  MT_CHECK_IO(MPI_File_read_at(fh, 0, ints_in, 4, MPI_INT, &status),
              "MPI_File_read_at (ints)");
  MT_CHECK_IO(MPI_File_read_at(fh, 16, shorts_in, 2, MPI_SHORT, &status),
              "MPI_File_read_at (shorts)");
  MT_CHECK_IO(MPI_File_read_at(fh, 20, doubles_in, 2, MPI_DOUBLE, &status),
              "MPI_File_read_at (doubles)");
  MT_CHECK(memcmp(ints_in, ints, sizeof ints) == 0 &&
               memcmp(shorts_in, shorts, sizeof shorts) == 0 &&
               doubles_in[0] == 1.5 && doubles_in[1] == -2.25,
           "external32 data did not read back as written");

  // Noncontiguous both ways: ints 0, 2, 4, 6 of memory into a filetype of
  // one int every 8 file bytes (a byte extent: file terms, as is).
  MPI_Datatype every_other;
  MPI_Datatype spaced;
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Type_create_resized(MPI_INT, 0, 8, &spaced);
  MPI_Type_commit(&spaced);
  const int memory[8] = {10, -1, -20, -1, 30, -1, -40, -1};
  set_view(fh, region() + 64, MPI_INT, spaced, "external32");
  MT_CHECK_IO(MPI_File_write_at(fh, 0, memory, 1, every_other, &status),
              "MPI_File_write_at (noncontiguous)");
  read_raw(fh, region() + 64, raw, 28);
  for (int i = 0; i < 4; ++i) {
    expect_big_endian(raw + 8 * i, 4, (uint32_t)memory[2 * i],
                      "an int of the filetype");
  }
  set_view(fh, region() + 64, MPI_INT, spaced, "external32");
  int back[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  MT_CHECK_IO(MPI_File_read_at(fh, 0, back, 1, every_other, &status),
              "MPI_File_read_at (noncontiguous)");
  MT_CHECK(memcmp(back, memory, sizeof back) == 0,
           "noncontiguous external32 data did not read back (%d %d %d %d)",
           back[0], back[2], back[4], back[6]);
  MPI_Type_free(&every_other);
  MPI_Type_free(&spaced);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static void external32_sizes(void) {
  MPI_File fh = open_file("datarep-ext32-sizes");
  // A portable filetype: a vector of MPI_LONG whose stride scales with the
  // 4-byte external32 extent: longs at file bytes 0, 12 of every 16.
  MPI_Datatype filetype;
  MPI_Type_vector(2, 1, 3, MPI_LONG, &filetype);
  MPI_Type_commit(&filetype);
  set_view(fh, region(), MPI_LONG, filetype, "external32");
  const long out[4] = {1, -2, 3, -4};
  MPI_Status status;
  MT_CHECK_IO(MPI_File_write_at(fh, 1, out, 4, MPI_LONG, &status),
              "MPI_File_write_at (longs)");
  MT_CHECK(mt_status_bytes(&status) == (int)sizeof out,
           "the status counts %d bytes, expected %d", mt_status_bytes(&status),
           (int)sizeof out);
  MPI_Offset byte = -1;
  MT_CHECK_IO(MPI_File_get_byte_offset(fh, 3, &byte),
              "MPI_File_get_byte_offset");
  MT_CHECK(byte == region() + 16 + 12, "etype 3 is at byte %lld, expected %lld",
           (long long)byte, (long long)(region() + 28));
  MPI_Offset position = -1;
  MT_CHECK_IO(MPI_File_seek(fh, 2, MPI_SEEK_SET), "MPI_File_seek");
  long in[2] = {0, 0};
  MT_CHECK_IO(MPI_File_read(fh, in, 2, MPI_LONG, &status), "MPI_File_read");
  MT_CHECK(in[0] == -2 && in[1] == 3, "etypes 2 and 3 read back %ld %ld", in[0],
           in[1]);
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  MT_CHECK(position == 4, "the pointer is at etype %lld, expected 4",
           (long long)position);
  unsigned char raw[36];
  read_raw(fh, region(), raw, 36);
  // Etype k is at (k / 2) * 16 + (k % 2) * 12.
  const int at[4] = {12, 16, 28, 32};
  for (int k = 0; k < 4; ++k) {
    expect_big_endian(raw + at[k], 4, (uint32_t)(int32_t)out[k],
                      "a 4-byte external32 long");
  }
  MPI_Type_free(&filetype);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// A user representation: every int is 8 bytes in the file, big-endian and
// sign-extended; nothing else is allowed. Its conversion functions handle
// MPI_INT and vectors of MPI_INT tiled over the buffer.
static int calls = 0;
static MPI_Offset next_position = 0;

static int wide_extent(MPI_Datatype type, MPI_Aint* extent, void* state) {
  (void)state;
  if (type == MPI_INT) {
    *extent = 8;
    return MPI_SUCCESS;
  }
  return MPI_ERR_TYPE;
}

// The address of int item `k` of `type` tiled over `buf`.
static int* item_address(void* buf, MPI_Datatype type, MPI_Offset k) {
  if (type == MPI_INT) {
    return (int*)buf + k;
  }
  int ints[3];
  MPI_Aint addresses[1];
  MPI_Datatype old[1];
  MPI_Type_get_contents(type, 3, 0, 1, ints, addresses, old);
  MPI_Aint lb;
  MPI_Aint extent;
  MPI_Type_get_extent(type, &lb, &extent);
  const MPI_Offset per = (MPI_Offset)ints[0] * ints[1];
  const MPI_Offset element = k / per;
  const MPI_Offset j = k % per;
  return (int*)((char*)buf + element * extent) + (j / ints[1]) * ints[2] +
         j % ints[1];
}

static int check_call(MPI_Offset position, int count) {
  if (position != next_position) {
    return MPI_ERR_OTHER;
  }
  next_position += count;
  ++calls;
  return MPI_SUCCESS;
}

static int wide_read(void* userbuf, MPI_Datatype type, int count, void* filebuf,
                     MPI_Offset position, void* state) {
  (void)state;
  if (check_call(position, count) != MPI_SUCCESS) {
    return MPI_ERR_OTHER;
  }
  const unsigned char* file = filebuf;
  for (int i = 0; i < count; ++i) {
    *item_address(userbuf, type, position + i) =
        (int)(int64_t)big_endian(file + 8 * i, 8);
  }
  return MPI_SUCCESS;
}

static int wide_write(void* userbuf, MPI_Datatype type, int count,
                      void* filebuf, MPI_Offset position, void* state) {
  (void)state;
  if (check_call(position, count) != MPI_SUCCESS) {
    return MPI_ERR_OTHER;
  }
  unsigned char* file = filebuf;
  for (int i = 0; i < count; ++i) {
    const uint64_t value =
        (uint64_t)(int64_t)*item_address(userbuf, type, position + i);
    for (int b = 0; b < 8; ++b) {
      file[8 * i + b] = (unsigned char)(value >> (56 - 8 * b));
    }
  }
  return MPI_SUCCESS;
}

static void register_wide(void) {
  MT_CHECK_IO(MPI_Register_datarep("shmpi-test-wide", wide_read, wide_write,
                                   wide_extent, NULL),
              "MPI_Register_datarep");
}

static void start_calls(void) {
  calls = 0;
  next_position = 0;
}

static void user(void) {
  register_wide();
  MPI_File fh = open_file("datarep-user");
  // One int every 16 file bytes: an 8-byte int and an 8-byte hole.
  MPI_Datatype spaced;
  MPI_Type_create_resized(MPI_INT, 0, 16, &spaced);
  MPI_Type_commit(&spaced);
  enum { kN = 6 };
  const int out[kN] = {1, -2, 3, -400000, 5, 2147483647};
  set_view(fh, region(), MPI_INT, spaced, "shmpi-test-wide");
  MPI_Status status;
  start_calls();
  MT_CHECK_IO(MPI_File_write_at(fh, 0, out, kN, MPI_INT, &status),
              "MPI_File_write_at (wide)");
  MT_CHECK(calls >= 1 && next_position == kN,
           "the write conversion converted %lld items in %d calls",
           (long long)next_position, calls);
  MT_CHECK(mt_status_bytes(&status) == (int)sizeof out,
           "the status counts %d bytes, expected %d", mt_status_bytes(&status),
           (int)sizeof out);
  unsigned char raw[16 * kN];
  read_raw(fh, region(), raw, 16 * kN - 8);
  for (int i = 0; i < kN; ++i) {
    expect_big_endian(raw + 16 * i, 8, (uint64_t)(int64_t)out[i],
                      "an 8-byte int");
  }
  // Back through a vector memory type: ints 0, 3, 6, ... of the buffer.
  MPI_Datatype every_third;
  MPI_Type_vector(2, 1, 3, MPI_INT, &every_third);
  MPI_Type_commit(&every_third);
  int in[3 * kN];
  for (int i = 0; i < 3 * kN; ++i) {
    in[i] = -9;
  }
  set_view(fh, region(), MPI_INT, spaced, "shmpi-test-wide");
  start_calls();
  MT_CHECK_IO(MPI_File_read_at(fh, 0, in, kN / 2, every_third, &status),
              "MPI_File_read_at (wide, vector)");
  MT_CHECK(next_position == kN, "the read conversion converted %lld items",
           (long long)next_position);
  for (int i = 0; i < kN; ++i) {
    // Element e of the vector holds items 2e and 2e+1 at ints 4e and 4e+3.
    const int at = (i / 2) * 4 + (i % 2) * 3;
    MT_CHECK(in[at] == out[i], "item %d read back as %d, expected %d", i,
             in[at], out[i]);
  }
  MT_CHECK(in[1] == -9 && in[2] == -9, "the vector's gaps were written");
  // A portable filetype scales with the file extent: a vector of 2 ints
  // with stride 3 puts them 24 file bytes apart.
  MPI_Datatype vector;
  MPI_Type_vector(2, 1, 3, MPI_INT, &vector);
  MPI_Type_commit(&vector);
  set_view(fh, region() + 256, MPI_INT, vector, "shmpi-test-wide");
  MPI_Offset byte = -1;
  MT_CHECK_IO(MPI_File_get_byte_offset(fh, 1, &byte),
              "MPI_File_get_byte_offset");
  MT_CHECK(byte == region() + 256 + 24,
           "etype 1 is at byte %lld, expected %lld", (long long)byte,
           (long long)(region() + 280));
  // Many items: the conversion may be called in pieces, at consecutive
  // positions.
  enum { kMany = 1 << 20 };
  int* many = malloc(sizeof(int) * kMany);
  for (int i = 0; i < kMany; ++i) {
    many[i] = i - kMany / 2;
  }
  set_view(fh,
           (MPI_Offset)kRegion * mt_size() + (MPI_Offset)mt_rank() * 8 * kMany,
           MPI_INT, MPI_INT, "shmpi-test-wide");
  start_calls();
  MT_CHECK_IO(MPI_File_write_at(fh, 0, many, kMany, MPI_INT, &status),
              "MPI_File_write_at (many)");
  MT_CHECK(next_position == kMany, "converted %lld of %d items",
           (long long)next_position, kMany);
  memset(many, 0, sizeof(int) * kMany);
  start_calls();
  MT_CHECK_IO(MPI_File_read_at(fh, 0, many, kMany, MPI_INT, &status),
              "MPI_File_read_at (many)");
  MT_CHECK(next_position == kMany, "converted %lld of %d items back",
           (long long)next_position, kMany);
  for (int i = 0; i < kMany; ++i) {
    if (many[i] != i - kMany / 2) {
      MT_FAIL("item %d read back as %d", i, many[i]);
    }
  }
  free(many);
  MPI_Type_free(&spaced);
  MPI_Type_free(&every_third);
  MPI_Type_free(&vector);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static int native_extent(MPI_Datatype type, MPI_Aint* extent, void* state) {
  (void)state;
  MPI_Aint lb;
  return MPI_Type_get_extent(type, &lb, extent);
}

static void user_null(void) {
  MT_CHECK_IO(MPI_Register_datarep("shmpi-test-same", MPI_CONVERSION_FN_NULL,
                                   MPI_CONVERSION_FN_NULL, native_extent, NULL),
              "MPI_Register_datarep (FN_NULL)");
  MPI_File fh = open_file("datarep-null");
  const int out[3] = {7, -8, 9};
  MPI_Status status;
  set_view(fh, region(), MPI_INT, MPI_INT, "shmpi-test-same");
  MT_CHECK_IO(MPI_File_write_at(fh, 0, out, 3, MPI_INT, &status),
              "MPI_File_write_at (FN_NULL)");
  int raw[3] = {0};
  read_raw(fh, region(), (unsigned char*)raw, (int)sizeof raw);
  MT_CHECK(memcmp(raw, out, sizeof out) == 0,
           "MPI_CONVERSION_FN_NULL did not store the native bytes");
  // No conversion, but 8 bytes an int in the file: nothing can write them.
  MT_CHECK_IO(
      MPI_Register_datarep("shmpi-test-null-wide", MPI_CONVERSION_FN_NULL,
                           MPI_CONVERSION_FN_NULL, wide_extent, NULL),
      "MPI_Register_datarep (FN_NULL, wide)");
  set_view(fh, region(), MPI_INT, MPI_INT, "shmpi-test-null-wide");
  int rc = MPI_File_write_at(fh, 0, out, 3, MPI_INT, &status);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_CONVERSION,
           "writing 4-byte ints as 8 bytes without a conversion: class %d, "
           "expected MPI_ERR_CONVERSION",
           error_class);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

// Large-count conversion functions (MPI_Register_datarep_c).
static int wide_read_c(void* userbuf, MPI_Datatype type, MPI_Count count,
                       void* filebuf, MPI_Offset position, void* state) {
  return wide_read(userbuf, type, (int)count, filebuf, position, state);
}

static int wide_write_c(void* userbuf, MPI_Datatype type, MPI_Count count,
                        void* filebuf, MPI_Offset position, void* state) {
  return wide_write(userbuf, type, (int)count, filebuf, position, state);
}

static void expect_extent(MPI_File fh, MPI_Datatype type, MPI_Aint expected,
                          const char* what) {
  MPI_Aint extent = -1;
  MT_CHECK_IO(MPI_File_get_type_extent(fh, type, &extent),
              "MPI_File_get_type_extent");
  MT_CHECK(extent == expected, "%s: extent %ld in the file, expected %ld", what,
           (long)extent, (long)expected);
  MPI_Count large = -1;
  MT_CHECK_IO(MPI_File_get_type_extent_c(fh, type, &large),
              "MPI_File_get_type_extent_c");
  MT_CHECK(large == expected, "%s: extent_c %lld in the file, expected %ld",
           what, (long long)large, (long)expected);
}

static void extent(void) {
  MPI_File fh = open_file("datarep-extent");
  // A struct {char at 0; double at 8} and a vector of 3 longs, stride 2.
  MPI_Datatype pair;
  MPI_Datatype longs;
  MPI_Datatype ints;
  const int lengths[2] = {1, 1};
  const MPI_Aint displacements[2] = {0, 8};
  const MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE};
  MPI_Type_create_struct(2, lengths, displacements, types, &pair);
  MPI_Type_vector(3, 1, 2, MPI_LONG, &longs);
  MPI_Type_contiguous(3, MPI_INT, &ints);
  MPI_Type_commit(&pair);
  MPI_Type_commit(&longs);
  MPI_Type_commit(&ints);

  set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native");
  expect_extent(fh, MPI_LONG, (MPI_Aint)sizeof(long), "native MPI_LONG");
  expect_extent(fh, pair, 16, "native struct {char; double}");
  expect_extent(fh, longs, 5 * (MPI_Aint)sizeof(long), "native vector");

  set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32");
  expect_extent(fh, MPI_INT, 4, "external32 MPI_INT");
  expect_extent(fh, MPI_LONG, 4, "external32 MPI_LONG");
  expect_extent(fh, MPI_DOUBLE, 8, "external32 MPI_DOUBLE");
  expect_extent(fh, MPI_LONG_DOUBLE, 16, "external32 MPI_LONG_DOUBLE");
  expect_extent(fh, MPI_DOUBLE_INT, 12, "external32 MPI_DOUBLE_INT");
  // Byte displacements are file bytes already: the double still ends at 16.
  expect_extent(fh, pair, 16, "external32 struct {char; double}");
  // A stride in elements scales: (2 * 2 + 1) longs of 4 bytes.
  expect_extent(fh, longs, 20, "external32 vector of MPI_LONG");

  MT_CHECK_IO(MPI_Register_datarep_c("shmpi-test-wide-c", wide_read_c,
                                     wide_write_c, wide_extent, NULL),
              "MPI_Register_datarep_c");
  set_view(fh, 0, MPI_INT, MPI_INT, "shmpi-test-wide-c");
  expect_extent(fh, MPI_INT, 8, "user MPI_INT");
  expect_extent(fh, ints, 24, "user contiguous(3, MPI_INT)");
  // Data through the _c conversion functions.
  const int out[2] = {-5, 6};
  int in[2] = {0, 0};
  MPI_Status status;
  start_calls();
  MT_CHECK_IO(MPI_File_write_at(fh, 2 * mt_rank(), out, 2, MPI_INT, &status),
              "MPI_File_write_at (_c functions)");
  start_calls();
  MT_CHECK_IO(MPI_File_read_at(fh, 2 * mt_rank(), in, 2, MPI_INT, &status),
              "MPI_File_read_at (_c functions)");
  MT_CHECK(in[0] == -5 && in[1] == 6 && calls >= 1,
           "the _c conversion functions read back %d %d", in[0], in[1]);
  MPI_Type_free(&pair);
  MPI_Type_free(&longs);
  MPI_Type_free(&ints);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static void expect_class(int rc, int expected, const char* what) {
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == expected, "%s: class %s (%d), expected %s (%d); %s",
           what, mt_class_name(error_class), error_class,
           mt_class_name(expected), expected, mt_error_string(rc));
}

static void duplicate(void) {
  MT_CHECK_IO(MPI_Register_datarep("shmpi-test-dup", MPI_CONVERSION_FN_NULL,
                                   MPI_CONVERSION_FN_NULL, native_extent, NULL),
              "MPI_Register_datarep");
  expect_class(
      MPI_Register_datarep("shmpi-test-dup", MPI_CONVERSION_FN_NULL,
                           MPI_CONVERSION_FN_NULL, native_extent, NULL),
      MPI_ERR_DUP_DATAREP, "registering a name twice");
}

static void duplicate_predefined(void) {
  const char* names[3] = {"native", "internal", "external32"};
  for (int i = 0; i < 3; ++i) {
    expect_class(
        MPI_Register_datarep(names[i], MPI_CONVERSION_FN_NULL,
                             MPI_CONVERSION_FN_NULL, native_extent, NULL),
        MPI_ERR_DUP_DATAREP, names[i]);
  }
}

static void unsupported(void) {
  MPI_File fh = open_file("datarep-unsupported");
  expect_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT,
                                 "shmpi-no-such-representation", MPI_INFO_NULL),
               MPI_ERR_UNSUPPORTED_DATAREP, "an unknown data representation");
  // The view is unchanged.
  MPI_Offset disp = -1;
  MPI_Datatype etype;
  MPI_Datatype filetype;
  char datarep[MPI_MAX_DATAREP_STRING];
  MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
              "MPI_File_get_view");
  MT_CHECK(disp == 0 && etype == MPI_BYTE && filetype == MPI_BYTE &&
               strcmp(datarep, "native") == 0,
           "a refused view changed the view (datarep %s)", datarep);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

static int failing_write(void* userbuf, MPI_Datatype type, int count,
                         void* filebuf, MPI_Offset position, void* state) {
  (void)userbuf;
  (void)type;
  (void)count;
  (void)filebuf;
  (void)position;
  (void)state;
  return MPI_ERR_OTHER;
}

static void conversion_error(void) {
  MT_CHECK_IO(MPI_Register_datarep("shmpi-test-failing", wide_read,
                                   failing_write, wide_extent, NULL),
              "MPI_Register_datarep (failing)");
  MPI_File fh = open_file("datarep-failing");
  set_view(fh, region(), MPI_INT, MPI_INT, "shmpi-test-failing");
  const int out[2] = {1, 2};
  MPI_Status status;
  expect_class(MPI_File_write_at(fh, 0, out, 2, MPI_INT, &status),
               MPI_ERR_CONVERSION, "a failing write_conversion_fn");
  // dtype_file_extent_fn knows MPI_INT only.
  MPI_Aint extent = 0;
  expect_class(MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent),
               MPI_ERR_CONVERSION, "a failing dtype_file_extent_fn");
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

int main(int argc, char** argv) {
  static const mt_case kCases[] = {
      {"external32", external32},
      {"external32_sizes", external32_sizes},
      {"extent", extent},
      {"user", user},
      {"user_null", user_null},
      {"dup", duplicate},
      {"dup_predefined", duplicate_predefined},
      {"unsupported", unsupported},
      {"conversion_error", conversion_error},
  };
  MPI_Init(&argc, &argv);
  mt_run_case(argc, argv, kCases, sizeof kCases / sizeof kCases[0]);
  MPI_Finalize();
  return 0;
}
