// SPDX-License-Identifier: MIT
// Independent writes through a view of small blocks (which shmpi writes by
// reading the span around them, copying them in and writing the span back,
// "data sieving") while the other processes write the holes between the
// blocks at the same time, one small MPI_File_write_at each. Nothing may
// be lost: afterwards every block holds rank 0's last round and every hole
// the value its writer gave it. Without the handshake between sieving and
// plain writers (mpi/file_write_guard.hpp) rank 0 writes stale hole bytes
// back over the others' writes.
#include "mt_file.h"

enum { kBlock = 8, kBlocks = 16384, kRounds = 8 };

static char hole_value(int hole) { return (char)('a' + hole % 26); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_File fh = mt_open_scratch_file("sieve-write");
  const int span = 2 * kBlock * kBlocks;  // blocks and holes alternate
  if (rank == 0) {
    char* zeros = calloc((size_t)span, 1);
    MT_CHECK_IO(
        MPI_File_write_at(fh, 0, zeros, span, MPI_BYTE, MPI_STATUS_IGNORE),
        "MPI_File_write_at (prefill)");
    free(zeros);
  }
  // Rank 0 sees the blocks (8 bytes every 16); the others the whole file.
  MPI_Datatype block;
  MPI_Datatype filetype;
  MPI_Type_contiguous(kBlock, MPI_BYTE, &block);
  MPI_Type_create_resized(block, 0, 2 * kBlock, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_BYTE, rank == 0 ? filetype : MPI_BYTE,
                        "native", MPI_INFO_NULL),
      "MPI_File_set_view");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char* out = malloc((size_t)kBlock * kBlocks);
    for (int round = 1; round <= kRounds; ++round) {
      memset(out, 'A' + round, (size_t)kBlock * kBlocks);
      MT_CHECK_IO(MPI_File_write_at(fh, 0, out, kBlock * kBlocks, MPI_BYTE,
                                    MPI_STATUS_IGNORE),
                  "MPI_File_write_at (blocks)");
    }
    free(out);
  } else {
    // Ranks 1.. share the holes round robin, one write per hole.
    char value[kBlock];
    for (int hole = rank - 1; hole < kBlocks; hole += size - 1) {
      memset(value, hole_value(hole), kBlock);
      MT_CHECK_IO(MPI_File_write_at(fh, (MPI_Offset)(2 * hole + 1) * kBlock,
                                    value, kBlock, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_write_at (a hole)");
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_IO(
      MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
      "MPI_File_set_view (bytes)");
  if (rank == 0) {
    char* in = malloc((size_t)span);
    MT_CHECK_IO(MPI_File_read_at(fh, 0, in, span, MPI_BYTE, MPI_STATUS_IGNORE),
                "MPI_File_read_at");
    for (int i = 0; i < span; ++i) {
      const int unit = i / kBlock;
      const char expected = size == 1
                                ? (unit % 2 == 0 ? (char)('A' + kRounds) : 0)
                            : unit % 2 == 0 ? (char)('A' + kRounds)
                                            : hole_value(unit / 2);
      if (in[i] != expected) {
        MT_FAIL("file byte %d is %d, expected %d (a %s)", i, in[i], expected,
                unit % 2 == 0 ? "block" : "hole: a plain write was lost");
      }
    }
    free(in);
  }
  MPI_Type_free(&filetype);
  MPI_Type_free(&block);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
  MPI_Finalize();
  return 0;
}
