// SPDX-License-Identifier: MIT
// MPI_Comm_join (MPI 4.0 §11.4.5): "MPI_COMM_JOIN is intended for MPI
// implementations that exist in an environment supporting the Berkeley
// Socket interface." World ranks 0 and 1 connect a TCP socket over the
// loopback (rank 0 listens on a port the kernel picks and tells rank 1
// through MPI_COMM_WORLD), then both join: the intercommunicator has one
// process on each side and carries messages and a collective.
#include <mpi.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../support/mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  int fd = -1;
  if (rank == 0) {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    MT_CHECK(listener >= 0, "socket failed");
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    MT_CHECK(bind(listener, (struct sockaddr*)&addr, sizeof addr) == 0,
             "bind failed");
    MT_CHECK(listen(listener, 1) == 0, "listen failed");
    socklen_t len = sizeof addr;
    MT_CHECK(getsockname(listener, (struct sockaddr*)&addr, &len) == 0,
             "getsockname failed");
    int port = ntohs(addr.sin_port);
    MT_CHECK_MPI(MPI_Send(&port, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
    fd = accept(listener, NULL, NULL);
    MT_CHECK(fd >= 0, "accept failed");
    close(listener);
  } else if (rank == 1) {
    int port = 0;
    MT_CHECK_MPI(
        MPI_Recv(&port, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    fd = socket(AF_INET, SOCK_STREAM, 0);
    MT_CHECK(fd >= 0, "socket failed");
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)port);
    MT_CHECK(connect(fd, (struct sockaddr*)&addr, sizeof addr) == 0,
             "connect failed");
  }
  if (rank <= 1) {
    MPI_Comm inter = MPI_COMM_NULL;
    MT_CHECK_MPI(MPI_Comm_join(fd, &inter));
    MT_CHECK(inter != MPI_COMM_NULL, "joined no communicator");
    int flag = 0;
    MT_CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    MT_CHECK(flag, "not an intercommunicator");
    int size = 0;
    int remote_size = 0;
    MT_CHECK_MPI(MPI_Comm_size(inter, &size));
    MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
    MT_CHECK(size == 1 && remote_size == 1, "sizes %d and %d", size,
             remote_size);
    int mine = 10 + rank;
    int theirs = -1;
    MT_CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &theirs, 1, MPI_INT, 0,
                              3, inter, MPI_STATUS_IGNORE));
    MT_CHECK(theirs == 11 - rank, "received %d", theirs);
    int sum = -1;
    MT_CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    MT_CHECK(sum == 11 - rank, "allreduce gave %d", sum);
    MT_CHECK_MPI(MPI_Comm_free(&inter));
    // The socket is the program's again.
    char byte = (char)('a' + rank);
    MT_CHECK(write(fd, &byte, 1) == 1, "write after join failed");
    char other = 0;
    MT_CHECK(read(fd, &other, 1) == 1, "read after join failed");
    MT_CHECK(other == (char)('b' - rank), "read '%c' after join", other);
    close(fd);
  }
  MPI_Finalize();
  return 0;
}
