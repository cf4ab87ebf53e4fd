// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.5: a user-defined operation may be used with any datatype,
// "length" elements at a time, and §6.9.1: a non-commutative operation is
// applied in rank order. No limit is set on an element's size: here an
// element is larger than shmpi's collective buffers (64 KiB + 4 bytes,
// contiguous, and 300 KiB, every other uint32 of a vector), with a
// commutative sum and a non-commutative composition of affine maps, in
// Allreduce (also in place and nonblocking), Reduce to the last rank,
// Reduce_scatter_block, Scan and Exscan. Every result is checked exactly.
#include "mt_big_elements.h"

static int g_values;  // uint32 values per element
static int g_stride;  // uint32s from one value to the next in a buffer

// inout = in op inout for `len` elements laid out as in a user buffer.
static void apply(const uint32_t* in, uint32_t* inout, int len, int affine) {
  const size_t n = (size_t)len * (size_t)g_values;
  for (size_t i = 0; i < n; ++i) {
    const size_t at = i * (size_t)g_stride;
    inout[at] =
        affine ? mt_affine_compose(in[at], inout[at]) : inout[at] + in[at];
  }
}
static void sum_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  apply(in, inout, *len, 0);
}
static void affine_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  apply(in, inout, *len, 1);
}

// Value i of rank r's contribution.
static uint32_t value(int r, size_t i) {
  const uint32_t h = mt_seed((uint32_t)r, (uint32_t)i, 7u, 11u);
  return h | 1u;  // odd a
}

// x(first) op ... op x(last) at value i.
static uint32_t expected(int first, int last, size_t i, int affine) {
  uint32_t acc = value(first, i);
  for (int r = first + 1; r <= last; ++r) {
    acc = affine ? mt_affine_compose(acc, value(r, i)) : acc + value(r, i);
  }
  return acc;
}

static void fill(uint32_t* buf, size_t values, int rank) {
  for (size_t i = 0; i < values; ++i) {
    buf[i * (size_t)g_stride] = value(rank, i);
  }
}

static void check(const uint32_t* buf, size_t values, size_t from, int first,
                  int last, int affine, const char* what) {
  for (size_t i = 0; i < values; ++i) {
    const uint32_t want = expected(first, last, from + i, affine);
    const uint32_t got = buf[i * (size_t)g_stride];
    MT_CHECK(got == want,
             "%s (%s, %d values per element, stride %d): value %zu is %u, "
             "expected %u",
             what, affine ? "non-commutative" : "commutative", g_values,
             g_stride, i, got, want);
  }
}

static void run(int values, int stride, int affine) {
  const int rank = mt_rank();
  const int size = mt_size();
  g_values = values;
  g_stride = stride;
  MPI_Datatype type = mt_big_element_type(values, stride);
  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(affine ? affine_fn : sum_fn, !affine, &op));
  // Room for `size` elements (reduce_scatter_block's send buffer).
  const size_t element = (size_t)values * (size_t)stride;
  const size_t all = element * (size_t)size;
  uint32_t* send = mt_malloc(all * sizeof(uint32_t));
  uint32_t* recv = mt_malloc(all * sizeof(uint32_t));
  const size_t n = (size_t)values;

  fill(send, n, rank);
  MT_CHECK_MPI(MPI_Allreduce(send, recv, 1, type, op, MPI_COMM_WORLD));
  check(recv, n, 0, 0, size - 1, affine, "MPI_Allreduce");

  fill(recv, n, rank);
  MT_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, recv, 1, type, op, MPI_COMM_WORLD));
  check(recv, n, 0, 0, size - 1, affine, "MPI_Allreduce in place");

  MPI_Request req;
  MT_CHECK_MPI(MPI_Iallreduce(send, recv, 1, type, op, MPI_COMM_WORLD, &req));
  MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check(recv, n, 0, 0, size - 1, affine, "MPI_Iallreduce");

  const int root = size - 1;
  memset(recv, 0, element * sizeof(uint32_t));
  MT_CHECK_MPI(MPI_Reduce(send, recv, 1, type, op, root, MPI_COMM_WORLD));
  if (rank == root) {
    check(recv, n, 0, 0, size - 1, affine, "MPI_Reduce");
  }

  // Block j of rank r's send data: values j * n ... of rank r's sequence.
  fill(send, n * (size_t)size, rank);
  MT_CHECK_MPI(
      MPI_Reduce_scatter_block(send, recv, 1, type, op, MPI_COMM_WORLD));
  check(recv, n, n * (size_t)rank, 0, size - 1, affine,
        "MPI_Reduce_scatter_block");

  fill(send, n, rank);
  MT_CHECK_MPI(MPI_Scan(send, recv, 1, type, op, MPI_COMM_WORLD));
  check(recv, n, 0, 0, rank, affine, "MPI_Scan");

  MT_CHECK_MPI(MPI_Exscan(send, recv, 1, type, op, MPI_COMM_WORLD));
  if (rank > 0) {
    check(recv, n, 0, 0, rank - 1, affine, "MPI_Exscan");
  }

  free(send);
  free(recv);
  MT_CHECK_MPI(MPI_Op_free(&op));
  MT_CHECK_MPI(MPI_Type_free(&type));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int affine = 0; affine <= 1; ++affine) {
    run(16385, 1, affine);      // 64 KiB + 4 bytes, contiguous
    run(300 * 256, 2, affine);  // 300 KiB, every other uint32
  }
  MPI_Finalize();
  return 0;
}
