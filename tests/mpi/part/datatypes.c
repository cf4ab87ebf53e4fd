// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: partitioned operations take any datatype; the send and
// receive type signatures must match as for ordinary point-to-point.
//
// Rank 0 sends 4 partitions of 2 elements of a vector type (2 blocks of 3
// ints, stride 5); rank 1 receives the same 48 ints as 3 partitions of 16
// contiguous ints, then as 2 partitions of 24 ints resized to an 8-byte
// extent (every other int of its buffer).
#include "mpitest.h"

enum { kVecCount = 8, kInts = kVecCount * 6 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MPI_Datatype vec, spaced;
  MPI_Type_vector(2, 3, 5, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &spaced);
  MPI_Type_commit(&spaced);
  MPI_Aint lb, vec_extent;
  MPI_Type_get_extent(vec, &lb, &vec_extent);
  const int span = (int)(vec_extent / (MPI_Aint)sizeof(int)) * kVecCount;
  int* sbuf = mt_malloc((size_t)span * sizeof(int));
  int* rbuf = mt_malloc(2 * kInts * sizeof(int));
  for (long iter = 0; iter < mt_scale(30) && rank < 2; ++iter) {
    const int spaced_round = iter % 2 == 1;
    MPI_Request req;
    if (rank == 0) {
      // Element e of vector v is int v * extent + (e < 3 ? e : e + 2).
      int n = 0;
      for (int v = 0; v < kVecCount; ++v) {
        for (int e = 0; e < 6; ++e) {
          const int at = v * (int)(vec_extent / (MPI_Aint)sizeof(int)) +
                         (e < 3 ? e : e + 2);
          sbuf[at] = (int)mt_seed(4, (uint32_t)iter, (uint32_t)n++, 0);
        }
      }
      MPI_Psend_init(sbuf, 4, kVecCount / 4, vec, 1, 0, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &req);
      MPI_Start(&req);
      MPI_Pready_list(4, (int[]){3, 1, 0, 2}, req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      memset(rbuf, 0, 2 * kInts * sizeof(int));
      if (spaced_round) {
        MPI_Precv_init(rbuf, 2, kInts / 2, spaced, 0, 0, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
      } else {
        MPI_Precv_init(rbuf, 3, kInts / 3, MPI_INT, 0, 0, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
      }
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      for (int n = 0; n < kInts; ++n) {
        const int at = spaced_round ? 2 * n : n;
        MT_CHECK(rbuf[at] == (int)mt_seed(4, (uint32_t)iter, (uint32_t)n, 0),
                 "iteration %ld: int %d is %d", iter, n, rbuf[at]);
        if (spaced_round) {
          MT_CHECK(rbuf[at + 1] == 0, "a gap of the resized type was written");
        }
      }
    }
    MPI_Request_free(&req);
  }
  MPI_Type_free(&vec);
  MPI_Type_free(&spaced);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
