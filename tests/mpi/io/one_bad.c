// SPDX-License-Identifier: MIT
// A collective data-access call in which one member passes a bad argument
// (a negative count) while the others' arguments are fine. The bad member
// gets MPI_ERR_COUNT; the others' writes and reads complete and nobody
// waits forever, though the collective write would otherwise go through the
// aggregators (a view of 8-byte blocks) and the ordered calls exchange
// counts. (MPI leaves the outcome of an erroneous collective call open;
// MPICH's ROMIO hangs here, so this is shmpi's behaviour only.)
#include "mt_file.h"

enum { kBlock = 8, kBlocks = 1024 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int bad = size - 1;
  MPI_File fh = mt_open_scratch_file("one-bad");
  MPI_Datatype block;
  MPI_Datatype filetype;
  MPI_Type_contiguous(kBlock, MPI_BYTE, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)kBlock * size, &filetype);
  MPI_Type_commit(&filetype);
  MT_CHECK_IO(MPI_File_set_view(fh, (MPI_Offset)rank * kBlock, MPI_BYTE,
                                filetype, "native", MPI_INFO_NULL),
              "MPI_File_set_view");
  const int bytes = kBlock * kBlocks;
  char* out = malloc((size_t)bytes);
  char* in = malloc((size_t)bytes);
  memset(out, 'a' + rank, (size_t)bytes);
  const int count = rank == bad ? -1 : bytes;
  struct {
    const char* what;
    int rc;
  } calls[3];
  calls[0].what = "MPI_File_write_at_all";
  calls[0].rc =
      MPI_File_write_at_all(fh, 0, out, count, MPI_BYTE, MPI_STATUS_IGNORE);
  calls[1].what = "MPI_File_write_all";
  calls[1].rc = MPI_File_write_all(fh, out, count, MPI_BYTE, MPI_STATUS_IGNORE);
  calls[2].what = "MPI_File_write_ordered";
  calls[2].rc =
      MPI_File_write_ordered(fh, out, count, MPI_BYTE, MPI_STATUS_IGNORE);
  for (int i = 0; i < 3; ++i) {
    if (rank == bad) {
      MT_EXPECT_CLASS(0, calls[i].rc, MPI_ERR_COUNT, calls[i].what);
    } else {
      MT_CHECK_IO(calls[i].rc, calls[i].what);
    }
  }
  MPI_Status status;
  const int rc = MPI_File_read_ordered(fh, in, count, MPI_BYTE, &status);
  if (rank == bad) {
    MT_EXPECT_CLASS(0, rc, MPI_ERR_COUNT, "MPI_File_read_ordered");
  } else {
    MT_CHECK_IO(rc, "MPI_File_read_ordered");
  }
  // The good members' explicit-offset writes are in the file.
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != bad) {
    MT_CHECK_IO(MPI_File_read_at(fh, 0, in, bytes, MPI_BYTE, &status),
                "MPI_File_read_at");
    for (int i = 0; i < bytes; ++i) {
      if (in[i] != 'a' + rank) {
        MT_FAIL("byte %d of my blocks is %d, expected %d", i, in[i],
                'a' + rank);
      }
    }
  }
  MPI_Type_free(&filetype);
  MPI_Type_free(&block);
  free(out);
  free(in);
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
  MPI_Finalize();
  return 0;
}
