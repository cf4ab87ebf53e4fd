// SPDX-License-Identifier: MIT
// MPI 4.0 §11.8.3: "This function waits for all pending communication on
// comm to complete internally, deallocates the communicator object, and
// sets the handle to MPI_COMM_NULL. It is a collective operation." Any
// communicator may be disconnected, intra or inter, not only one from
// MPI_Comm_connect/accept. Cases (argv[1]):
//   freed     sends the program freed with MPI_Request_free and a buffered
//             send are still pending internally when the sender
//             disconnects; the receiver gets every byte
//   unwaited  the sender disconnects before waiting for its MPI_Isend,
//             whose receive the peer completes late; on return the send
//             has completed (shmpi's reading: MPI calls the program
//             erroneous, and MPICH 4.0.2 returns with the send pending);
//             so has an MPI_Iallreduce the program has not waited for
//   inter     an intercommunicator with traffic between the groups
//   dup       a dup with persistent requests, a nonblocking collective and
//             an attribute, whose delete callback disconnect runs
#include <stdlib.h>

#include "mpitest.h"

enum { kBig = 1 << 20, kSmall = 64, kBuffered = 4096 };

static void disconnect(MPI_Comm* comm) {
  MT_CHECK_MPI(MPI_Comm_disconnect(comm));
  MT_CHECK(*comm == MPI_COMM_NULL, "the handle is not MPI_COMM_NULL");
}

static void freed(void) {
  MPI_Comm comm;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  const int rank = mt_rank();
  unsigned char* big = mt_malloc(kBig);
  unsigned char small[kSmall], buffered[kBuffered];
  const int attach = kBuffered + MPI_BSEND_OVERHEAD;
  void* pool = mt_malloc((size_t)attach);
  if (rank == 0) {
    mt_fill(big, kBig, 1);
    mt_fill(small, kSmall, 2);
    mt_fill(buffered, kBuffered, 3);
    MT_CHECK_MPI(MPI_Buffer_attach(pool, attach));
    MPI_Request request;
    MT_CHECK_MPI(MPI_Isend(big, kBig, MPI_BYTE, 1, 1, comm, &request));
    MT_CHECK_MPI(MPI_Request_free(&request));
    MT_CHECK_MPI(MPI_Isend(small, kSmall, MPI_BYTE, 1, 2, comm, &request));
    MT_CHECK_MPI(MPI_Request_free(&request));
    MT_CHECK_MPI(MPI_Bsend(buffered, kBuffered, MPI_BYTE, 1, 3, comm));
  } else if (rank == 1) {
    MPI_Request requests[3];
    MT_CHECK_MPI(
        MPI_Irecv(buffered, kBuffered, MPI_BYTE, 0, 3, comm, &requests[0]));
    MT_CHECK_MPI(MPI_Irecv(small, kSmall, MPI_BYTE, 0, 2, comm, &requests[1]));
    MT_CHECK_MPI(MPI_Irecv(big, kBig, MPI_BYTE, 0, 1, comm, &requests[2]));
    MT_CHECK_MPI(MPI_Waitall(3, requests, MPI_STATUSES_IGNORE));
    MT_CHECK_PATTERN(big, kBig, 1, "the large message");
    MT_CHECK_PATTERN(small, kSmall, 2, "the small message");
    MT_CHECK_PATTERN(buffered, kBuffered, 3, "the buffered message");
  }
  disconnect(&comm);
  if (rank == 0) {
    // Every send on the communicator has completed: the buffer is ours.
    void* detached;
    int bytes;
    MT_CHECK_MPI(MPI_Buffer_detach(&detached, &bytes));
    mt_fill(big, kBig, 99);
  }
  free(pool);
  free(big);
}

static void unwaited(void) {
  MPI_Comm comm;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  const int rank = mt_rank();
  unsigned char* big = mt_malloc(kBig);
  MPI_Request request = MPI_REQUEST_NULL;
  if (rank == 0) {
    mt_fill(big, kBig, 7);
    MT_CHECK_MPI(MPI_Isend(big, kBig, MPI_BYTE, 1, 0, comm, &request));
  } else if (rank == 1) {
    mt_sleep_ms(50);  // the sender is in MPI_Comm_disconnect by now
    MT_CHECK_MPI(MPI_Recv(big, kBig, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE));
    MT_CHECK_PATTERN(big, kBig, 7, "the message");
  }
  // A nonblocking collective left pending too.
  int one = 1, sum = 0;
  MPI_Request reduce;
  MT_CHECK_MPI(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm, &reduce));
  disconnect(&comm);
  int flag = 0;
  if (rank == 0) {
    MT_CHECK_MPI(MPI_Test(&request, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(flag, "the send is still pending after MPI_Comm_disconnect");
    MT_CHECK(request == MPI_REQUEST_NULL, "MPI_Test did not free it");
  }
  flag = 0;
  MT_CHECK_MPI(MPI_Test(&reduce, &flag, MPI_STATUS_IGNORE));
  MT_CHECK(flag, "the MPI_Iallreduce is still pending");
  MT_CHECK(sum == mt_size(), "MPI_Iallreduce gave %d", sum);
  free(big);
}

static void inter(void) {
  const int rank = mt_rank();
  const int color = rank % 2;
  MPI_Comm local, comm;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
  MT_CHECK_MPI(
      MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 5, &comm));
  int local_rank, remote_size;
  MT_CHECK_MPI(MPI_Comm_rank(comm, &local_rank));
  MT_CHECK_MPI(MPI_Comm_remote_size(comm, &remote_size));
  unsigned char* out = mt_malloc(kBig);
  unsigned char* in = mt_malloc(kBig);
  if (local_rank == 0) {
    // The leaders swap a large message each way; the sends are freed.
    mt_fill(out, kBig, (uint32_t)(10 + color));
    MPI_Request request;
    MT_CHECK_MPI(MPI_Isend(out, kBig, MPI_BYTE, 0, 0, comm, &request));
    MT_CHECK_MPI(MPI_Request_free(&request));
    MT_CHECK_MPI(MPI_Recv(in, kBig, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE));
    MT_CHECK_PATTERN(in, kBig, (uint32_t)(10 + 1 - color), "leader message");
  }
  MPI_Request barrier;
  MT_CHECK_MPI(MPI_Ibarrier(comm, &barrier));
  MT_CHECK_MPI(MPI_Wait(&barrier, MPI_STATUS_IGNORE));
  MT_CHECK(remote_size >= 1, "empty remote group");
  disconnect(&comm);
  MT_CHECK_MPI(MPI_Comm_free(&local));
  free(out);
  free(in);
}

static int deletions = 0;
static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm;
  (void)keyval;
  (void)value;
  (void)extra;
  ++deletions;
  return MPI_SUCCESS;
}

static void dup_case(void) {
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Comm comm;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  int keyval;
  MT_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete,
                                      &keyval, NULL));
  MT_CHECK_MPI(MPI_Comm_set_attr(comm, keyval, NULL));
  // A ring of persistent requests, started twice.
  int out = rank, in = -1;
  MPI_Request ring[2];
  MT_CHECK_MPI(
      MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 0, comm, &ring[0]));
  MT_CHECK_MPI(MPI_Recv_init(&in, 1, MPI_INT, (rank + size - 1) % size, 0, comm,
                             &ring[1]));
  for (int round = 0; round < 2; ++round) {
    MT_CHECK_MPI(MPI_Startall(2, ring));
    MT_CHECK_MPI(MPI_Waitall(2, ring, MPI_STATUSES_IGNORE));
    MT_CHECK(in == (rank + size - 1) % size, "ring gave %d", in);
  }
  MT_CHECK_MPI(MPI_Request_free(&ring[0]));
  MT_CHECK_MPI(MPI_Request_free(&ring[1]));
  int sum = 0;
  MPI_Request reduce;
  MT_CHECK_MPI(MPI_Iallreduce(&out, &sum, 1, MPI_INT, MPI_SUM, comm, &reduce));
  MT_CHECK_MPI(MPI_Wait(&reduce, MPI_STATUS_IGNORE));
  MT_CHECK(sum == size * (size - 1) / 2, "MPI_Iallreduce gave %d", sum);
  disconnect(&comm);
  MT_CHECK(deletions == 1, "the delete callback ran %d times", deletions);
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  // The parent is untouched.
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static const mt_case kCases[] = {{"freed", freed},
                                   {"unwaited", unwaited},
                                   {"inter", inter},
                                   {"dup", dup_case}};
  mt_run_case(argc, argv, kCases, sizeof kCases / sizeof kCases[0]);
  MPI_Finalize();
  return 0;
}
