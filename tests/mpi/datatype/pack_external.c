// SPDX-License-Identifier: MIT
// MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size in
// "external32" (MPI 4.0 sections 5.2.3 and 13.5.2): big-endian bytes of the
// sizes the standard's table gives (MPI_LONG in 4 bytes, MPI_LONG_DOUBLE as
// IEEE binary128), checked byte for byte, and the round trip back.
//
// With "full" (shmpi-only: MPICH 4.0.2 fails an assertion or crashes on
// these), also pair types, MPI_WCHAR, a derived struct and vector, the
// long double round trip, the _c forms, and the error classes.
#include <string.h>
#include <wchar.h>

#include "mpitest.h"

static int full = 0;

// Packs `count` elements, compares with `expected` (hex), unpacks again
// and compares with the input when `round_trip`.
static void check(const char* what, const void* in, int count,
                  MPI_Datatype type, const char* expected, int round_trip) {
  unsigned char out[256];
  MPI_Aint size = -1, position = 0;
  MT_CHECK_MPI(MPI_Pack_external_size("external32", count, type, &size));
  MT_CHECK_MPI(MPI_Pack_external("external32", in, count, type, out, sizeof out,
                                 &position));
  char hex[520] = "";
  for (MPI_Aint i = 0; i < position; ++i) {
    snprintf(hex + 2 * i, 3, "%02x", out[i]);
  }
  MT_CHECK(strcmp(hex, expected) == 0 && size == position,
           "%s: packed %s (%ld bytes, size %ld), expected %s", what, hex,
           (long)position, (long)size, expected);
  if (!round_trip) {
    return;
  }
  MPI_Aint lb = 0, extent = 0;
  MT_CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  unsigned char back[256];
  memcpy(back, in, (size_t)(extent * count));  // padding compares equal
  MPI_Aint read = 0;
  MT_CHECK_MPI(MPI_Unpack_external("external32", out, position, &read, back,
                                   count, type));
  MT_CHECK(read == position && memcmp(back, in, (size_t)(extent * count)) == 0,
           "%s: the round trip differs (read %ld of %ld)", what, (long)read,
           (long)position);
}

static void basic_types(void) {
  const char c[3] = {'a', 'b', 'z'};
  check("MPI_CHAR", c, 3, MPI_CHAR, "61627a", 1);
  const short s[2] = {-2, 0x1234};
  check("MPI_SHORT", s, 2, MPI_SHORT, "fffe1234", 1);
  const int i[2] = {-5, 0x01020304};
  check("MPI_INT", i, 2, MPI_INT, "fffffffb01020304", 1);
  const long l[2] = {-7, 0x11223344};
  check("MPI_LONG", l, 2, MPI_LONG, "fffffff911223344", 1);
  const unsigned long ul[2] = {0xfffffffful, 9};
  check("MPI_UNSIGNED_LONG", ul, 2, MPI_UNSIGNED_LONG, "ffffffff00000009", 1);
  const long long ll = -3;
  check("MPI_LONG_LONG", &ll, 1, MPI_LONG_LONG, "fffffffffffffffd", 1);
  const float f[2] = {1.5f, -0.25f};
  check("MPI_FLOAT", f, 2, MPI_FLOAT, "3fc00000be800000", 1);
  const double d[2] = {3.0, 0.5};
  check("MPI_DOUBLE", d, 2, MPI_DOUBLE, "40080000000000003fe0000000000000", 1);
  const long double ld[2] = {1.0L, -3.5L};
  check("MPI_LONG_DOUBLE", ld, 2, MPI_LONG_DOUBLE,
        "3fff0000000000000000000000000000"
        "c000c000000000000000000000000000",
        full);
  const _Bool b[2] = {1, 0};
  check("MPI_C_BOOL", b, 2, MPI_C_BOOL, "0100", 1);
  const int64_t i64 = -2;
  check("MPI_INT64_T", &i64, 1, MPI_INT64_T, "fffffffffffffffe", 1);
  const MPI_Aint aint = 0x1020304050;
  check("MPI_AINT", &aint, 1, MPI_AINT, "0000001020304050", 1);
  const float fc[2] = {1.0f, 2.0f};
  check("MPI_C_FLOAT_COMPLEX", fc, 1, MPI_C_FLOAT_COMPLEX, "3f80000040000000",
        1);
  const unsigned char by[3] = {1, 2, 255};
  check("MPI_BYTE", by, 3, MPI_BYTE, "0102ff", 1);
  const int integer = 42;
  check("MPI_INTEGER", &integer, 1, MPI_INTEGER, "0000002a", 1);
}

struct mixed {
  char c;
  double d;
  long l;
  short s[2];
};

static void shmpi_only(void) {
  const struct {
    double v;
    int i;
  } di[2] = {{2.0, 7}, {-1.0, 3}};
  check("MPI_DOUBLE_INT", di, 2, MPI_DOUBLE_INT,
        "400000000000000000000007bff000000000000000000003", 0);
  const struct {
    short v;
    int i;
  } si = {-9, 7};
  check("MPI_SHORT_INT", &si, 1, MPI_SHORT_INT, "fff700000007", 0);
  const int ii[2] = {1, 2};
  check("MPI_2INT", ii, 1, MPI_2INT, "0000000100000002", 1);
  const wchar_t w[2] = {L'A', 0x263a};
  check("MPI_WCHAR", w, 2, MPI_WCHAR, "0041263a", 1);

  // A struct of char, double, long, short[2], resized to the C struct.
  struct mixed m[2] = {{'x', 1.25, -1, {3, -4}}, {'y', -2.5, 65536, {5, 6}}};
  const int lengths[4] = {1, 1, 1, 2};
  const MPI_Aint disps[4] = {
      offsetof(struct mixed, c), offsetof(struct mixed, d),
      offsetof(struct mixed, l), offsetof(struct mixed, s)};
  const MPI_Datatype types[4] = {MPI_CHAR, MPI_DOUBLE, MPI_LONG, MPI_SHORT};
  MPI_Datatype raw, st;
  MT_CHECK_MPI(MPI_Type_create_struct(4, lengths, disps, types, &raw));
  MT_CHECK_MPI(MPI_Type_create_resized(raw, 0, sizeof(struct mixed), &st));
  MT_CHECK_MPI(MPI_Type_commit(&st));
  unsigned char out[64];
  MPI_Aint position = 0;
  MT_CHECK_MPI(
      MPI_Pack_external("external32", m, 2, st, out, sizeof out, &position));
  MT_CHECK(position == 34, "struct packed into %ld bytes, expected 34",
           (long)position);
  struct mixed back[2];
  memset(back, 0, sizeof back);
  MPI_Aint read = 0;
  MT_CHECK_MPI(
      MPI_Unpack_external("external32", out, position, &read, back, 2, st));
  for (int k = 0; k < 2; ++k) {
    MT_CHECK(back[k].c == m[k].c && back[k].d == m[k].d &&
                 back[k].l == m[k].l && back[k].s[0] == m[k].s[0] &&
                 back[k].s[1] == m[k].s[1],
             "struct element %d differs after the round trip", k);
  }
  // A vector: only its blocks, big-endian.
  int v[12];
  for (int k = 0; k < 12; ++k) {
    v[k] = k * 0x01010101;
  }
  MPI_Datatype vec;
  MT_CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
  MT_CHECK_MPI(MPI_Type_commit(&vec));
  check("vector", v, 1, vec, "000000000101010104040404050505050808080809090909",
        0);
  // The _c forms.
  MPI_Count size_c = -1, position_c = 0;
  MT_CHECK_MPI(MPI_Pack_external_size_c("external32", 2, st, &size_c));
  MT_CHECK_MPI(MPI_Pack_external_c("external32", m, 2, st, out, sizeof out,
                                   &position_c));
  MT_CHECK(size_c == 34 && position_c == 34, "_c: size %lld position %lld",
           (long long)size_c, (long long)position_c);
  MPI_Count read_c = 0;
  MT_CHECK_MPI(MPI_Unpack_external_c("external32", out, position_c, &read_c,
                                     back, 2, st));
  MT_CHECK(read_c == 34, "_c: read %lld", (long long)read_c);

  // Errors.
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  position = 0;
  MT_EXPECT_CLASS(0,
                  MPI_Pack_external("external32", m, 2, st, out, 20, &position),
                  MPI_ERR_TRUNCATE, "34 bytes into 20");
  MT_EXPECT_CLASS(0, MPI_Pack_external("native", m, 2, st, out, 64, &position),
                  MPI_ERR_UNSUPPORTED_DATAREP, "datarep \"native\"");
  MT_EXPECT_CLASS(
      0, MPI_Unpack_external("external32", out, 10, &read, back, 2, st),
      MPI_ERR_TRUNCATE, "34 bytes out of 10");
  MT_CHECK_MPI(MPI_Type_free(&vec));
  MT_CHECK_MPI(MPI_Type_free(&st));
  MT_CHECK_MPI(MPI_Type_free(&raw));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  full = argc > 1 && strcmp(argv[1], "full") == 0;
  basic_types();
  if (full) {
    shmpi_only();
  }
  MPI_Finalize();
  return 0;
}
