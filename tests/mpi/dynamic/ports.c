// SPDX-License-Identifier: MIT
// MPI_Comm_accept / MPI_Comm_connect (MPI 4.0 §11.4.2): "MPI_COMM_ACCEPT
// ... Establishes communication with a client. It is collective over the
// calling communicator. It returns an intercommunicator that allows
// communication with the client." The lower half of MPI_COMM_WORLD opens a
// port and accepts, the upper half connects; messages cross the new
// intercommunicator both ways, a broadcast and an allreduce run on it, and
// it is freed. With the argument "twice" the same halves connect a second
// time on the same port.
#include <mpi.h>

#include "../../support/mpitest.h"

static void one_connection(MPI_Comm half, int server, const char* port,
                           int round) {
  int world_rank = mt_rank();
  int local_rank = 0;
  int local_size = 0;
  MT_CHECK_MPI(MPI_Comm_rank(half, &local_rank));
  MT_CHECK_MPI(MPI_Comm_size(half, &local_size));
  MPI_Comm inter = MPI_COMM_NULL;
  if (server) {
    MT_CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter));
  } else {
    MT_CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter));
  }
  int flag = 0;
  MT_CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
  MT_CHECK(flag, "not an intercommunicator");
  int remote_size = 0;
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
  const int servers = mt_size() / 2;
  const int clients = mt_size() - servers;
  MT_CHECK(remote_size == (server ? clients : servers),
           "remote size %d (servers %d, clients %d)", remote_size, servers,
           clients);
  int rank_in_inter = -1;
  MT_CHECK_MPI(MPI_Comm_rank(inter, &rank_in_inter));
  MT_CHECK(rank_in_inter == local_rank, "rank %d, expected %d", rank_in_inter,
           local_rank);

  // Point to point: client i sends to server i % servers; every server
  // receives from its clients, then answers each.
  if (!server) {
    const int value = 1000 * round + world_rank;
    MT_CHECK_MPI(MPI_Send(&value, 1, MPI_INT, local_rank % servers, 7, inter));
    int answer = -1;
    MT_CHECK_MPI(MPI_Recv(&answer, 1, MPI_INT, local_rank % servers, 8, inter,
                          MPI_STATUS_IGNORE));
    MT_CHECK(answer == value + 1, "answer %d, expected %d", answer, value + 1);
  } else {
    for (int c = local_rank; c < clients; c += servers) {
      int value = -1;
      MPI_Status status;
      MT_CHECK_MPI(MPI_Recv(&value, 1, MPI_INT, c, 7, inter, &status));
      MT_CHECK(status.MPI_SOURCE == c, "source %d, expected %d",
               status.MPI_SOURCE, c);
      MT_CHECK(value == 1000 * round + servers + c, "value %d from client %d",
               value, c);
      ++value;
      MT_CHECK_MPI(MPI_Send(&value, 1, MPI_INT, c, 8, inter));
    }
  }

  // Broadcast from the servers' rank 0 to every client.
  int data = server ? 4242 + round : -1;
  const int root = server ? (local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MT_CHECK_MPI(MPI_Bcast(&data, 1, MPI_INT, root, inter));
  if (!server) {
    MT_CHECK(data == 4242 + round, "bcast gave %d", data);
  }

  // Allreduce: each side gets the sum of the other side's world ranks.
  int sum = -1;
  MT_CHECK_MPI(MPI_Allreduce(&world_rank, &sum, 1, MPI_INT, MPI_SUM, inter));
  int expected = 0;
  for (int r = server ? servers : 0; r < (server ? mt_size() : servers); ++r) {
    expected += r;
  }
  MT_CHECK(sum == expected, "allreduce gave %d, expected %d", sum, expected);
  MT_CHECK_MPI(MPI_Comm_free(&inter));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int twice = argc > 1 && strcmp(argv[1], "twice") == 0;
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs two processes");
  const int server = mt_rank() < size / 2;
  MPI_Comm half;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, server, 0, &half));
  char port[MPI_MAX_PORT_NAME];
  memset(port, 0, sizeof port);
  if (mt_rank() == 0) {
    MT_CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    MT_CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME,
             "bad port name length %zu", strlen(port));
  }
  // The port name reaches the clients the usual way: through a
  // communicator they share (here MPI_COMM_WORLD).
  MT_CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
  one_connection(half, server, port, 1);
  if (twice) {
    one_connection(half, server, port, 2);
  }
  if (mt_rank() == 0) {
    MT_CHECK_MPI(MPI_Close_port(port));
  }
  MT_CHECK_MPI(MPI_Comm_free(&half));
  MPI_Finalize();
  return 0;
}
