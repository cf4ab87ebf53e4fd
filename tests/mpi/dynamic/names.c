// SPDX-License-Identifier: MIT
// The name service (MPI 4.0 §11.4.4): a name world rank 0 publishes is
// found by every rank; once unpublished, "If the service_name is not
// found, MPI_LOOKUP_NAME raises an error of class MPI_ERR_NAME", and
// unpublishing it again raises MPI_ERR_SERVICE ("If the service_name is
// not published, MPI_UNPUBLISH_NAME raises MPI_ERR_SERVICE"). Without
// arguments the published port name is a made-up string (the name service
// only stores it); with "connect" it is a port rank 0 opened, and the
// other ranks connect to the port they looked up.
#include <mpi.h>

#include "../../support/mpitest.h"

static const char kService[] = "shmpi-names-test";

static void expect_class(int rc, int expected, const char* what) {
  MT_CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(rc, &error_class));
  MT_CHECK(error_class == expected, "%s: class %s, expected %s", what,
           mt_class_name(error_class), mt_class_name(expected));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const int rank = mt_rank();
  const int size = mt_size();
  const int connect = argc > 1 && strcmp(argv[1], "connect") == 0;
  char port[MPI_MAX_PORT_NAME];
  char found[MPI_MAX_PORT_NAME];
  memset(port, 0, sizeof port);
  if (rank == 0) {
    if (connect) {
      MT_CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    } else {
      strcpy(port, "a-port-name-the-name-service-only-stores");
    }
    MT_CHECK_MPI(MPI_Publish_name(kService, MPI_INFO_NULL, port));
  }
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  memset(found, 0, sizeof found);
  MT_CHECK_MPI(MPI_Lookup_name(kService, MPI_INFO_NULL, found));
  MT_CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
  MT_CHECK(strcmp(found, port) == 0, "looked up '%s', published '%s'", found,
           port);

  // A connection through the looked-up name: rank 0 accepts, the others
  // connect.
  if (connect && size >= 2) {
    const int server = rank == 0;
    MPI_Comm half;
    MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, server, 0, &half));
    MPI_Comm inter;
    if (server) {
      MT_CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter));
    } else {
      MT_CHECK_MPI(MPI_Comm_connect(found, MPI_INFO_NULL, 0, half, &inter));
    }
    int token = server ? 99 : -1;
    MT_CHECK_MPI(MPI_Bcast(&token, 1, MPI_INT, server ? MPI_ROOT : 0, inter));
    MT_CHECK(token == 99, "bcast gave %d", token);
    MT_CHECK_MPI(MPI_Comm_free(&inter));
    MT_CHECK_MPI(MPI_Comm_free(&half));
  }

  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    MT_CHECK_MPI(MPI_Unpublish_name(kService, MPI_INFO_NULL, port));
  }
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  expect_class(MPI_Lookup_name(kService, MPI_INFO_NULL, found), MPI_ERR_NAME,
               "MPI_Lookup_name after unpublish");
  if (rank == 0) {
    expect_class(MPI_Unpublish_name(kService, MPI_INFO_NULL, port),
                 MPI_ERR_SERVICE, "MPI_Unpublish_name twice");
    if (connect) {
      MT_CHECK_MPI(MPI_Close_port(port));
    }
  }
  MPI_Finalize();
  return 0;
}
