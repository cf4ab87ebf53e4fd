// SPDX-License-Identifier: MIT
// MPI 4.0 section 3.6: "when no buffer is currently associated, MPI behaves
// as if a zero-sized buffer is associated with the process", and the
// address and size MPI_Buffer_detach returns let nested libraries replace
// and restore the buffer. So detaching with nothing attached succeeds with
// size 0, and a library's swap works whether or not the program had
// attached a buffer.
#include "mpitest.h"

enum { kLen = 1024 };

// A library's buffered exchange with itself under its own buffer, put back
// the way it found the process.
static void library_call(void) {
  void* saved = (void*)0x1;
  int saved_size = -1;
  MT_CHECK_MPI(MPI_Buffer_detach(&saved, &saved_size));
  const int mine_size = kLen + MPI_BSEND_OVERHEAD;
  char* mine = mt_malloc((size_t)mine_size);
  MT_CHECK_MPI(MPI_Buffer_attach(mine, mine_size));
  char out[kLen], in[kLen];
  mt_fill(out, kLen, 7);
  MT_CHECK_MPI(MPI_Bsend(out, kLen, MPI_CHAR, 0, 3, MPI_COMM_SELF));
  MT_CHECK_MPI(
      MPI_Recv(in, kLen, MPI_CHAR, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
  MT_CHECK_PATTERN(in, kLen, 7, "library's buffered message");
  void* back = NULL;
  int back_size = -1;
  MT_CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  MT_CHECK(back == mine && back_size == mine_size,
           "library detached %p/%d, attached %p/%d", back, back_size,
           (void*)mine, mine_size);
  free(mine);
  // (MPICH 4.0.2 refuses to attach NULL even with size 0, so restore
  // "nothing" by attaching nothing.)
  if (saved_size > 0) {
    MT_CHECK_MPI(MPI_Buffer_attach(saved, saved_size));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);

  // Nothing attached: size 0 and a NULL address.
  void* address = (void*)0x1;
  int size = -1;
  MT_CHECK_MPI(MPI_Buffer_detach(&address, &size));
  MT_CHECK(address == NULL && size == 0,
           "detach with no buffer gave %p/%d, expected NULL/0", address, size);
  MPI_Count size_c = -1;
  address = (void*)0x1;
  MT_CHECK_MPI(MPI_Buffer_detach_c(&address, &size_c));
  MT_CHECK(address == NULL && size_c == 0,
           "detach_c with no buffer gave %p/%lld, expected NULL/0", address,
           (long long)size_c);

  // The library's swap with nothing attached leaves nothing attached.
  library_call();
  address = (void*)0x1;
  size = -1;
  MT_CHECK_MPI(MPI_Buffer_detach(&address, &size));
  MT_CHECK(address == NULL && size == 0,
           "after the library, detach gave %p/%d, expected NULL/0", address,
           size);

  // The program's own buffer survives the library's swap and still works.
  const int ours_size = 2 * (kLen + MPI_BSEND_OVERHEAD);
  char* ours = mt_malloc((size_t)ours_size);
  MT_CHECK_MPI(MPI_Buffer_attach(ours, ours_size));
  library_call();
  const int rank = mt_rank();
  const int size_world = mt_size();
  const int right = (rank + 1) % size_world;
  const int left = (rank + size_world - 1) % size_world;
  char out[kLen], in[kLen];
  mt_fill(out, kLen, (uint32_t)rank);
  MT_CHECK_MPI(MPI_Bsend(out, kLen, MPI_CHAR, right, 5, MPI_COMM_WORLD));
  MT_CHECK_MPI(
      MPI_Recv(in, kLen, MPI_CHAR, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  MT_CHECK_PATTERN(in, kLen, (uint32_t)left, "message from the left");
  address = NULL;
  size = -1;
  MT_CHECK_MPI(MPI_Buffer_detach(&address, &size));
  MT_CHECK(address == ours && size == ours_size,
           "detach gave %p/%d, attached %p/%d", address, size, (void*)ours,
           ours_size);
  free(ours);

  MPI_Finalize();
  return 0;
}
