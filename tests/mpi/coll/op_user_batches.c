// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.5: a user-defined operation on elements larger than shmpi's
// collective buffers (96 KiB contiguous, and 100 KiB as every other uint32
// of a vector), over vectors of 48 or more elements: 4.5 MiB and more per
// rank. shmpi stages such reductions in its shared heap, and the manifest
// runs this with a 4 MiB heap, so the staging must go a few elements at a
// time, not the whole vector at once (the job used to end with "the shared
// heap is full"). A non-commutative composition of affine maps, so rank
// order is checked too, in Allreduce (also in place), Reduce to the last
// rank, Reduce_scatter_block (also in place), Reduce_scatter with unequal
// blocks (one empty), Scan and Exscan. Every value is checked exactly.
#include "mt_big_elements.h"

enum { kElements = 48 };  // the vector, in elements

static int g_values;  // uint32 values per element
static int g_stride;  // uint32s from one value to the next in a buffer

// inout = in op inout for `len` elements laid out as in a user buffer.
static void affine_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const uint32_t* x = in;
  uint32_t* y = inout;
  const size_t n = (size_t)*len * (size_t)g_values;
  for (size_t i = 0; i < n; ++i) {
    const size_t at = i * (size_t)g_stride;
    y[at] = mt_affine_compose(x[at], y[at]);
  }
}

// Value i of rank r's contribution (i counts across elements).
static uint32_t value(int r, size_t i) {
  return mt_seed((uint32_t)r, (uint32_t)i, 13u, 17u) | 1u;  // odd a
}

static void fill(uint32_t* buf, size_t values, int rank) {
  for (size_t i = 0; i < values; ++i) {
    buf[i * (size_t)g_stride] = value(rank, i);
  }
}

// buf holds values from..from + values - 1 of x(first) op ... op x(last).
static void check(const uint32_t* buf, size_t values, size_t from, int first,
                  int last, const char* what) {
  for (size_t i = 0; i < values; ++i) {
    uint32_t want = value(first, from + i);
    for (int r = first + 1; r <= last; ++r) {
      want = mt_affine_compose(want, value(r, from + i));
    }
    const uint32_t got = buf[i * (size_t)g_stride];
    MT_CHECK(got == want,
             "%s (%d values per element, stride %d): value %zu (element "
             "%zu) is %u, expected %u",
             what, g_values, g_stride, from + i, (from + i) / (size_t)g_values,
             got, want);
  }
}

static void run(int values, int stride) {
  const int rank = mt_rank();
  const int size = mt_size();
  g_values = values;
  g_stride = stride;
  MPI_Datatype type = mt_big_element_type(values, stride);
  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(affine_fn, 0, &op));

  // Reduce_scatter_block: `block` elements per rank, kElements or more in
  // all. Reduce_scatter: rank r gets 2 * block * r / (size - 1), none at
  // rank 0 (one rank: the whole vector).
  const int block = (kElements + size - 1) / size;
  int* counts = mt_malloc((size_t)size * sizeof(int));
  int total = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = size == 1 ? kElements : 2 * block * r / (size - 1);
    total += counts[r];
  }
  int most = block * size > total ? block * size : total;
  const size_t per_element = (size_t)values * (size_t)stride;
  const size_t n = (size_t)kElements * (size_t)values;
  uint32_t* send = mt_malloc((size_t)most * per_element * sizeof(uint32_t));
  uint32_t* recv = mt_malloc((size_t)most * per_element * sizeof(uint32_t));

  fill(send, n, rank);
  MT_CHECK_MPI(MPI_Allreduce(send, recv, kElements, type, op, MPI_COMM_WORLD));
  check(recv, n, 0, 0, size - 1, "MPI_Allreduce");

  fill(recv, n, rank);
  MT_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, recv, kElements, type, op, MPI_COMM_WORLD));
  check(recv, n, 0, 0, size - 1, "MPI_Allreduce in place");

  const int root = size - 1;
  memset(recv, 0, n * (size_t)stride * sizeof(uint32_t));
  MT_CHECK_MPI(
      MPI_Reduce(send, recv, kElements, type, op, root, MPI_COMM_WORLD));
  if (rank == root) {
    check(recv, n, 0, 0, size - 1, "MPI_Reduce");
  }

  // Block j of rank r's send data: values j * block * values ... of rank
  // r's sequence.
  const size_t mine = (size_t)block * (size_t)values;
  fill(send, mine * (size_t)size, rank);
  MT_CHECK_MPI(
      MPI_Reduce_scatter_block(send, recv, block, type, op, MPI_COMM_WORLD));
  check(recv, mine, mine * (size_t)rank, 0, size - 1,
        "MPI_Reduce_scatter_block");

  fill(recv, mine * (size_t)size, rank);
  MT_CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, recv, block, type, op,
                                        MPI_COMM_WORLD));
  check(recv, mine, mine * (size_t)rank, 0, size - 1,
        "MPI_Reduce_scatter_block in place");

  size_t before = 0;  // elements of the blocks below this rank's
  for (int r = 0; r < rank; ++r) {
    before += (size_t)counts[r];
  }
  fill(send, (size_t)total * (size_t)values, rank);
  MT_CHECK_MPI(
      MPI_Reduce_scatter(send, recv, counts, type, op, MPI_COMM_WORLD));
  check(recv, (size_t)counts[rank] * (size_t)values, before * (size_t)values, 0,
        size - 1, "MPI_Reduce_scatter");

  fill(send, n, rank);
  MT_CHECK_MPI(MPI_Scan(send, recv, kElements, type, op, MPI_COMM_WORLD));
  check(recv, n, 0, 0, rank, "MPI_Scan");

  MT_CHECK_MPI(MPI_Exscan(send, recv, kElements, type, op, MPI_COMM_WORLD));
  if (rank > 0) {
    check(recv, n, 0, 0, rank - 1, "MPI_Exscan");
  }

  free(counts);
  free(send);
  free(recv);
  MT_CHECK_MPI(MPI_Op_free(&op));
  MT_CHECK_MPI(MPI_Type_free(&type));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  run(96 * 256, 1);   // 96 KiB, contiguous
  run(100 * 256, 2);  // 100 KiB, every other uint32
  MPI_Finalize();
  return 0;
}
