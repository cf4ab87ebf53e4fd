// SPDX-License-Identifier: MIT
// MPI 4.0 §11.4.2: "If the named port does not exist (or has been closed),
// MPI_COMM_CONNECT raises an error of class MPI_ERR_PORT." Both cases,
// under MPI_ERRORS_RETURN, on MPI_COMM_SELF and on MPI_COMM_WORLD. With
// "more", the other bad inputs: an invalid root (MPI_ERR_ROOT), an
// accept on a closed port and a close of a port never opened
// (MPI_ERR_PORT, shmpi's choice: the standard names no class for them).
#include <mpi.h>

#include "../../support/mpitest.h"

static void expect(int rc, int expected, const char* what) {
  MT_CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(rc, &error_class));
  MT_CHECK(error_class == expected, "%s: class %s, expected %s", what,
           mt_class_name(error_class), mt_class_name(expected));
}

static void expect_port_error(const char* port, MPI_Comm comm,
                              const char* what) {
  MPI_Comm inter = MPI_COMM_NULL;
  const int rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, comm, &inter);
  MT_CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(rc, &error_class));
  MT_CHECK(error_class == MPI_ERR_PORT, "%s: class %s, expected MPI_ERR_PORT",
           what, mt_class_name(error_class));
  MT_CHECK(inter == MPI_COMM_NULL, "%s: intercomm set", what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  expect_port_error("no-such-port", MPI_COMM_SELF,
                    "connect to an unknown port");
  char port[MPI_MAX_PORT_NAME];
  MT_CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
  MT_CHECK_MPI(MPI_Close_port(port));
  expect_port_error(port, MPI_COMM_SELF, "connect to a closed port");
  // Collective: every member of MPI_COMM_WORLD gets the root's error.
  expect_port_error("no-such-port", MPI_COMM_WORLD,
                    "connect over MPI_COMM_WORLD to an unknown port");
  if (argc > 1 && strcmp(argv[1], "more") == 0) {
    MPI_Comm inter = MPI_COMM_NULL;
    expect(MPI_Comm_accept(port, MPI_INFO_NULL, -1, MPI_COMM_SELF, &inter),
           MPI_ERR_ROOT, "MPI_Comm_accept with root -1");
    expect(MPI_Comm_connect(port, MPI_INFO_NULL, 1, MPI_COMM_SELF, &inter),
           MPI_ERR_ROOT, "MPI_Comm_connect with root 1 on MPI_COMM_SELF");
    expect(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter),
           MPI_ERR_PORT, "MPI_Comm_accept on a closed port");
    expect(MPI_Close_port("never-opened"), MPI_ERR_PORT,
           "MPI_Close_port of a port never opened");
  }
  MPI_Finalize();
  return 0;
}
