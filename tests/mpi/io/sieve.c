// SPDX-License-Identifier: MIT
// Reads through a view of small blocks with holes between them (which
// shmpi serves with one read of their span, "data sieving"): each rank
// sees every size-th 8-byte block of a file that rank 0 wrote whole. The
// data comes back in stream order with none of the hole bytes, into
// contiguous and into strided memory; a read that runs past the end of
// the file stops exactly there, even inside a block, and the status
// counts what was read (MPI 4.0 §14.4.3: "a read ... at end of file").
#include "mt_file.h"

enum { kBlock = 8, kBlocks = 4096 };

static unsigned char file_byte(long at) { return (unsigned char)(at * 7 + 3); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_File fh = mt_open_scratch_file("sieve");
  const long file_bytes = (long)kBlock * kBlocks * size;
  if (rank == 0) {
    unsigned char* all = malloc((size_t)file_bytes);
    for (long i = 0; i < file_bytes; ++i) {
      all[i] = file_byte(i);
    }
    MT_CHECK_IO(MPI_File_write_at(fh, 0, all, (int)file_bytes, MPI_BYTE,
                                  MPI_STATUS_IGNORE),
                "MPI_File_write_at");
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Datatype block;
  MPI_Datatype filetype;
  MPI_Type_contiguous(kBlock, MPI_BYTE, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)kBlock * size, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(MPI_File_set_view(fh, (MPI_Offset)rank * kBlock, MPI_BYTE,
                                filetype, "native", MPI_INFO_NULL),
              "MPI_File_set_view");
  const int bytes = kBlock * kBlocks;
  unsigned char* in = malloc((size_t)bytes * 2);
  MPI_Status status;

  // Whole: contiguous memory.
  memset(in, 0, (size_t)bytes);
  MT_CHECK_IO(MPI_File_read_at(fh, 0, in, bytes, MPI_BYTE, &status),
              "MPI_File_read_at");
  if (mt_status_bytes(&status) != bytes) {
    MT_FAIL("read %d bytes, expected %d", mt_status_bytes(&status), bytes);
  }
  for (int i = 0; i < bytes; ++i) {
    const long at =
        (long)(i / kBlock) * kBlock * size + (long)rank * kBlock + i % kBlock;
    if (in[i] != file_byte(at)) {
      MT_FAIL("stream byte %d is %u, expected file byte %ld (%u)", i, in[i], at,
              file_byte(at));
    }
  }
  // Whole: into every other byte of memory (a strided memory type).
  MPI_Datatype strided;
  MPI_Type_vector(bytes, 1, 2, MPI_BYTE, &strided);
  MPI_Type_commit(&strided);
  memset(in, 0xee, (size_t)bytes * 2);
  MT_CHECK_IO(MPI_File_read_at(fh, 0, in, 1, strided, &status),
              "MPI_File_read_at (strided memory)");
  for (int i = 0; i < bytes; ++i) {
    const long at =
        (long)(i / kBlock) * kBlock * size + (long)rank * kBlock + i % kBlock;
    if (in[2 * i] != file_byte(at) || in[2 * i + 1] != 0xee) {
      MT_FAIL("strided memory byte %d is %u (gap %u), expected %u", i,
              in[2 * i], in[2 * i + 1], file_byte(at));
    }
  }
  MPI_Type_free(&strided);

  // The file ends 3 bytes into the last rank's 100th block: every rank's
  // read stops at its own last whole or partial block before that point.
  MPI_Barrier(MPI_COMM_WORLD);
  const MPI_Offset end =
      (MPI_Offset)99 * kBlock * size + (MPI_Offset)(size - 1) * kBlock + 3;
  MT_CHECK_IO(MPI_File_set_size(fh, end), "MPI_File_set_size");
  memset(in, 0, (size_t)bytes);
  MT_CHECK_IO(MPI_File_read_at(fh, 0, in, bytes, MPI_BYTE, &status),
              "MPI_File_read_at (past the end)");
  // Rank r's block k spans [k*B*size + r*B, +B): bytes before `end`.
  long expected = 0;
  for (long k = 0; k < kBlocks; ++k) {
    const long first = k * kBlock * size + (long)rank * kBlock;
    if (first >= end) {
      break;
    }
    expected += end - first < kBlock ? end - first : kBlock;
  }
  if (mt_status_bytes(&status) != (int)expected) {
    MT_FAIL("the read past the end counted %d bytes, expected %ld",
            mt_status_bytes(&status), expected);
  }
  for (long i = 0; i < expected; ++i) {
    const long at =
        (i / kBlock) * kBlock * size + (long)rank * kBlock + i % kBlock;
    if (in[i] != file_byte(at)) {
      MT_FAIL("after the end moved, stream byte %ld is %u, expected %u", i,
              in[i], file_byte(at));
    }
  }
  MPI_Type_free(&filetype);
  MPI_Type_free(&block);
  free(in);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
  MPI_Finalize();
  return 0;
}
