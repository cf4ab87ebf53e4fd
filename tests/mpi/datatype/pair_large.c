// SPDX-License-Identifier: MIT
// Large messages of MPI_DOUBLE_INT and MPI_SHORT_INT (malloc'd buffers, so
// in shmpi's shared heap) hold the data only, 12 and 6 bytes per element
// (MPI 4.0 §6.9.4): received as the pair type itself, as the user struct of
// the same fields, and as MPI_BYTE, for sizes below and above the eager
// limit, with the receive posted first and with the message unexpected.
// (The padding bytes of a C struct are unspecified in C, so they are not
// checked: shmpi copies a pair type received as itself struct by struct.)
#include <stddef.h>

#include "mt_pairs.h"

enum { kFill = 0xee };

static void fill_double(DoubleInt* d, int n, int seed) {
  memset(d, 0x11, (size_t)n * sizeof *d);
  for (int i = 0; i < n; i++) {
    d[i].value = 0.25 * i + seed;
    d[i].index = i * 3 + seed;
  }
}

static void check_double(const DoubleInt* d, int n, int seed,
                         const char* what) {
  for (int i = 0; i < n; i++) {
    if (d[i].value != 0.25 * i + seed || d[i].index != i * 3 + seed) {
      MT_CHECK(0, "%s: element %d of %d is (%g, %d)", what, i, n, d[i].value,
               d[i].index);
    }
  }
}

static void fill_short(ShortInt* s, int n, int seed) {
  memset(s, 0x11, (size_t)n * sizeof *s);
  for (int i = 0; i < n; i++) {
    s[i].value = (short)(i + seed);
    s[i].index = i * 5 + seed;
  }
}

static void check_short(const ShortInt* s, int n, int seed, const char* what) {
  for (int i = 0; i < n; i++) {
    if (s[i].value != (short)(i + seed) || s[i].index != i * 5 + seed) {
      MT_CHECK(0, "%s: element %d of %d is (%d, %d)", what, i, n, s[i].value,
               s[i].index);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    MPI_Finalize();
    return 0;
  }
  MPI_Datatype user_double_int =
      mt_user_pair(MPI_DOUBLE, offsetof(DoubleInt, index), sizeof(DoubleInt));

  const int counts[] = {1, 100, 2000, 4096, 6000, 40000};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    const int n = counts[c];
    DoubleInt* d = malloc((size_t)n * sizeof *d);
    ShortInt* s = malloc((size_t)n * sizeof *s);
    unsigned char* bytes = malloc((size_t)n * 12);
    for (int unexpected = 0; unexpected < 2; unexpected++) {
      char what[96];
      if (rank == 0) {
        if (!unexpected) {
          MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
        // Nonblocking: a message beyond the eager limit waits for its
        // receive, which rank 1 posts after the barrier when unexpected.
        MPI_Request requests[4];
        fill_double(d, n, 1);
        MT_CHECK_MPI(MPI_Isend(d, n, MPI_DOUBLE_INT, 1, 0, MPI_COMM_WORLD,
                               &requests[0]));
        MT_CHECK_MPI(MPI_Isend(d, n, MPI_DOUBLE_INT, 1, 1, MPI_COMM_WORLD,
                               &requests[1]));
        MT_CHECK_MPI(MPI_Isend(d, n, MPI_DOUBLE_INT, 1, 2, MPI_COMM_WORLD,
                               &requests[2]));
        fill_short(s, n, 2);
        MT_CHECK_MPI(
            MPI_Isend(s, n, MPI_SHORT_INT, 1, 3, MPI_COMM_WORLD, &requests[3]));
        if (unexpected) {
          MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
        MPI_Status statuses[4];
        MT_CHECK_MPI(MPI_Waitall(4, requests, statuses));
      } else if (rank == 1) {
        MPI_Request requests[4];
        MPI_Status statuses[4];
        DoubleInt* d2 = malloc((size_t)n * sizeof *d2);
        memset(d, kFill, (size_t)n * sizeof *d);
        memset(d2, kFill, (size_t)n * sizeof *d2);
        memset(s, 0, (size_t)n * sizeof *s);
        if (unexpected) {
          MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
        MT_CHECK_MPI(MPI_Irecv(d, n, MPI_DOUBLE_INT, 0, 0, MPI_COMM_WORLD,
                               &requests[0]));
        MT_CHECK_MPI(MPI_Irecv(d2, n, user_double_int, 0, 1, MPI_COMM_WORLD,
                               &requests[1]));
        MT_CHECK_MPI(MPI_Irecv(bytes, n * 12, MPI_BYTE, 0, 2, MPI_COMM_WORLD,
                               &requests[2]));
        MT_CHECK_MPI(
            MPI_Irecv(s, n, MPI_SHORT_INT, 0, 3, MPI_COMM_WORLD, &requests[3]));
        if (!unexpected) {
          MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
        MT_CHECK_MPI(MPI_Waitall(4, requests, statuses));
        snprintf(what, sizeof what, "%d MPI_DOUBLE_INT%s", n,
                 unexpected ? " (unexpected)" : "");
        check_double(d, n, 1, what);
        snprintf(what, sizeof what, "%d MPI_DOUBLE_INT as the struct%s", n,
                 unexpected ? " (unexpected)" : "");
        check_double(d2, n, 1, what);
        int count = -1;
        MT_CHECK_MPI(MPI_Get_count(&statuses[2], MPI_BYTE, &count));
        MT_CHECK(count == n * 12, "%d MPI_DOUBLE_INT: %d bytes, expected %d", n,
                 count, n * 12);
        for (int i = 0; i < n; i++) {
          double v;
          int k;
          memcpy(&v, bytes + i * 12, sizeof v);
          memcpy(&k, bytes + i * 12 + 8, sizeof k);
          if (v != 0.25 * i + 1 || k != i * 3 + 1) {
            MT_CHECK(0, "%d MPI_DOUBLE_INT as bytes: element %d is (%g, %d)", n,
                     i, v, k);
          }
        }
        MT_CHECK_MPI(MPI_Get_count(&statuses[3], MPI_SHORT_INT, &count));
        MT_CHECK(count == n, "%d MPI_SHORT_INT: MPI_Get_count %d", n, count);
        snprintf(what, sizeof what, "%d MPI_SHORT_INT%s", n,
                 unexpected ? " (unexpected)" : "");
        check_short(s, n, 2, what);
        free(d2);
      } else {
        MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      }
    }
    free(d);
    free(s);
    free(bytes);
  }

  MT_CHECK_MPI(MPI_Type_free(&user_double_int));
  MPI_Finalize();
  return 0;
}
