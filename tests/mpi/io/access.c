// SPDX-License-Identifier: MIT
// MPI 4.0 §14.4: data access through the default view (the file as bytes)
// by every positioning and synchronism the standard has:
// - explicit offsets (§14.4.2): MPI_File_write_at / read_at, their _all,
//   nonblocking (iwrite_at, iread_at_all) and split collective forms;
// - the individual file pointer (§14.4.3): write / read, read_all,
//   iread, write_all_begin/end, advancing by what each call moved;
// - the shared file pointer (§14.4.4): write_shared from every rank lands
//   each block whole, somewhere, once; write_ordered / read_ordered place
//   the blocks in rank order.
// A read past the end of the file returns what is there: the status counts
// it (MPI_Get_count).
#include "mt_file.h"

enum { kInts = 1000 };

static int value(int rank, int i, int salt) {
  return salt * 1000000 + rank * 10000 + i;
}

static void fill(int* buf, int rank, int salt) {
  for (int i = 0; i < kInts; ++i) {
    buf[i] = value(rank, i, salt);
  }
}

static void expect_block(const int* buf, int rank, int salt, const char* what) {
  for (int i = 0; i < kInts; ++i) {
    if (buf[i] != value(rank, i, salt)) {
      MT_FAIL("%s: int %d of rank %d's block is %d, expected %d", what, i, rank,
              buf[i], value(rank, i, salt));
    }
  }
}

static void expect_count(const MPI_Status* status, int bytes,
                         const char* what) {
  if (mt_status_bytes(status) != bytes) {
    MT_FAIL("%s: the status counts %d bytes, expected %d", what,
            mt_status_bytes(status), bytes);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  char name[256];
  mt_file_name(name, sizeof name, "access");
  MPI_File fh;
  MT_CHECK_IO(
      MPI_File_open(MPI_COMM_WORLD, name,
                    MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                    MPI_INFO_NULL, &fh),
      "MPI_File_open");
  const MPI_Offset block = (MPI_Offset)kInts * (MPI_Offset)sizeof(int);
  int* out = malloc(sizeof(int) * kInts);
  int* in = malloc(sizeof(int) * kInts);
  MPI_Status status;
  MPI_Request request;

  // Explicit offsets: each rank its block.
  fill(out, rank, 1);
  MT_CHECK_IO(MPI_File_write_at(fh, rank * block, out, kInts, MPI_INT, &status),
              "MPI_File_write_at");
  expect_count(&status, (int)block, "MPI_File_write_at");
  MPI_Barrier(MPI_COMM_WORLD);
  const int peer = (rank + 1) % size;
  memset(in, 0, sizeof(int) * kInts);
  MT_CHECK_IO(MPI_File_read_at(fh, peer * block, in, kInts, MPI_INT, &status),
              "MPI_File_read_at");
  expect_count(&status, (int)block, "MPI_File_read_at");
  expect_block(in, peer, 1, "MPI_File_read_at");
  memset(in, 0, sizeof(int) * kInts);
  MT_CHECK_IO(
      MPI_File_read_at_all(fh, peer * block, in, kInts, MPI_INT, &status),
      "MPI_File_read_at_all");
  expect_block(in, peer, 1, "MPI_File_read_at_all");

  // Nonblocking and split collective forms, at explicit offsets (once every
  // rank has read the first blocks).
  MPI_Barrier(MPI_COMM_WORLD);
  fill(out, rank, 2);
  MT_CHECK_IO(
      MPI_File_iwrite_at(fh, rank * block, out, kInts, MPI_INT, &request),
      "MPI_File_iwrite_at");
  MT_CHECK_IO(MPI_Wait(&request, &status), "MPI_Wait");
  expect_count(&status, (int)block, "MPI_File_iwrite_at");
  MPI_Barrier(MPI_COMM_WORLD);
  memset(in, 0, sizeof(int) * kInts);
  MT_CHECK_IO(
      MPI_File_iread_at_all(fh, peer * block, in, kInts, MPI_INT, &request),
      "MPI_File_iread_at_all");
  MT_CHECK_IO(MPI_Wait(&request, &status), "MPI_Wait");
  expect_count(&status, (int)block, "MPI_File_iread_at_all");
  expect_block(in, peer, 2, "MPI_File_iread_at_all");
  memset(in, 0, sizeof(int) * kInts);
  MT_CHECK_IO(MPI_File_read_at_all_begin(fh, peer * block, in, kInts, MPI_INT),
              "MPI_File_read_at_all_begin");
  MT_CHECK_IO(MPI_File_read_at_all_end(fh, in, &status),
              "MPI_File_read_at_all_end");
  expect_count(&status, (int)block, "MPI_File_read_at_all_end");
  expect_block(in, peer, 2, "MPI_File_read_at_all_begin/end");

  // Past the end: the last rank's block ends the file.
  const MPI_Offset end = size * block;
  MT_CHECK_IO(MPI_File_read_at(fh, end - 8, in, kInts, MPI_INT, &status),
              "MPI_File_read_at (end of file)");
  expect_count(&status, 8, "MPI_File_read_at across the end of the file");
  MT_CHECK_IO(MPI_File_read_at(fh, end + 100, in, kInts, MPI_INT, &status),
              "MPI_File_read_at (past the end)");
  expect_count(&status, 0, "MPI_File_read_at past the end of the file");

  // The individual file pointer: two half blocks, then read them back.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Offset position = -1;
  MT_CHECK_IO(MPI_File_seek(fh, rank * block, MPI_SEEK_SET), "MPI_File_seek");
  fill(out, rank, 3);
  MT_CHECK_IO(MPI_File_write(fh, out, kInts / 2, MPI_INT, &status),
              "MPI_File_write");
  MT_CHECK_IO(
      MPI_File_write_all_begin(fh, out + kInts / 2, kInts - kInts / 2, MPI_INT),
      "MPI_File_write_all_begin");
  MT_CHECK_IO(MPI_File_write_all_end(fh, out + kInts / 2, &status),
              "MPI_File_write_all_end");
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  if (position != (rank + 1) * block) {
    MT_FAIL("the individual file pointer is at %lld, expected %lld",
            (long long)position, (long long)((rank + 1) * block));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_IO(MPI_File_seek(fh, -block, MPI_SEEK_CUR), "MPI_File_seek (cur)");
  memset(in, 0, sizeof(int) * kInts);
  MT_CHECK_IO(MPI_File_iread(fh, in, kInts / 2, MPI_INT, &request),
              "MPI_File_iread");
  MT_CHECK_IO(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
  MT_CHECK_IO(MPI_File_read_all(fh, in + kInts / 2, kInts - kInts / 2, MPI_INT,
                                &status),
              "MPI_File_read_all");
  expect_block(in, rank, 3, "MPI_File_iread + MPI_File_read_all");
  MT_CHECK_IO(MPI_File_seek(fh, 0, MPI_SEEK_END), "MPI_File_seek (end)");
  MT_CHECK_IO(MPI_File_get_position(fh, &position), "MPI_File_get_position");
  if (position != end) {
    MT_FAIL("MPI_SEEK_END put the pointer at %lld, expected %lld",
            (long long)position, (long long)end);
  }

  // The shared file pointer, first come first served: every block lands
  // whole at some block boundary past `end`, each once.
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_IO(MPI_File_seek_shared(fh, end, MPI_SEEK_SET),
              "MPI_File_seek_shared");
  fill(out, rank, 4);
  MT_CHECK_IO(MPI_File_write_shared(fh, out, kInts, MPI_INT, &status),
              "MPI_File_write_shared");
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_IO(MPI_File_get_position_shared(fh, &position),
              "MPI_File_get_position_shared");
  if (position != end + size * block) {
    MT_FAIL("the shared file pointer is at %lld, expected %lld",
            (long long)position, (long long)(end + size * block));
  }
  // The ordered calls below may move the shared pointer as soon as one
  // member enters them (a collective need not synchronise): all have read
  // it first.
  MPI_Barrier(MPI_COMM_WORLD);
  int* seen = calloc((size_t)size, sizeof(int));
  for (int b = 0; b < size; ++b) {
    MT_CHECK_IO(
        MPI_File_read_at(fh, end + b * block, in, kInts, MPI_INT, &status),
        "MPI_File_read_at (shared blocks)");
    const int writer = (in[0] / 10000) % 100;
    if (writer < 0 || writer >= size || seen[writer]) {
      MT_FAIL("block %d of the shared writes starts with %d", b, in[0]);
    }
    seen[writer] = 1;
    expect_block(in, writer, 4, "MPI_File_write_shared");
  }
  free(seen);

  // Ordered: rank order after the shared pointer, which ends past them all.
  const MPI_Offset ordered = end + size * block;
  fill(out, rank, 5);
  MT_CHECK_IO(MPI_File_write_ordered(fh, out, kInts, MPI_INT, &status),
              "MPI_File_write_ordered");
  MT_CHECK_IO(
      MPI_File_read_at(fh, ordered + rank * block, in, kInts, MPI_INT, &status),
      "MPI_File_read_at (ordered block)");
  expect_block(in, rank, 5, "MPI_File_write_ordered");
  MT_CHECK_IO(MPI_File_seek_shared(fh, ordered, MPI_SEEK_SET),
              "MPI_File_seek_shared");
  memset(in, 0, sizeof(int) * kInts);
  MT_CHECK_IO(MPI_File_read_ordered_begin(fh, in, kInts, MPI_INT),
              "MPI_File_read_ordered_begin");
  MT_CHECK_IO(MPI_File_read_ordered_end(fh, in, &status),
              "MPI_File_read_ordered_end");
  expect_count(&status, (int)block, "MPI_File_read_ordered_end");
  expect_block(in, rank, 5, "MPI_File_read_ordered_begin/end");
  MT_CHECK_IO(MPI_File_get_position_shared(fh, &position),
              "MPI_File_get_position_shared");
  if (position != ordered + size * block) {
    MT_FAIL(
        "after the ordered read the shared pointer is at %lld, expected "
        "%lld",
        (long long)position, (long long)(ordered + size * block));
  }

  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
  if (fh != MPI_FILE_NULL) {
    MT_FAIL("MPI_File_close did not set the handle to MPI_FILE_NULL");
  }
  free(out);
  free(in);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0 && access(name, F_OK) == 0) {
    MT_FAIL("MPI_MODE_DELETE_ON_CLOSE left %s behind", name);
  }
  MPI_Finalize();
  return 0;
}
