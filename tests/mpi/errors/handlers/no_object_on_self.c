// SPDX-License-Identifier: MIT
// MPI 4.0 §9.3: in the World Model, an error raised by a call that has no
// communicator, window, file or session to raise it on is raised on
// MPI_COMM_SELF's error handler (not MPI_COMM_WORLD's). Here MPI_COMM_SELF
// and MPI_COMM_WORLD get different user handlers, then calls fail on an
// object that is not a communicator (a null info, datatype, group or
// request) or on a null communicator: each must call MPI_COMM_SELF's handler
// once, with MPI_COMM_SELF, and return the error code the handler saw.
//
// MPICH 4.0.2 raises these errors on MPI_COMM_WORLD.
#include "mpitest.h"

static int self_calls = 0;
static int world_calls = 0;
static int last_code = MPI_SUCCESS;
static MPI_Comm last_comm = MPI_COMM_NULL;

static void on_self(MPI_Comm* comm, int* code, ...) {
  self_calls++;
  last_comm = *comm;
  last_code = *code;
}

static void on_world(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  (void)code;
  world_calls++;
}

// The call returned `rc`; it must have failed through MPI_COMM_SELF's
// handler, once.
static void expect_on_self(int rc, const char* what) {
  MT_CHECK(world_calls == 0, "%s: MPI_COMM_WORLD's handler was called", what);
  MT_CHECK(self_calls == 1, "%s: MPI_COMM_SELF's handler called %d times", what,
           self_calls);
  MT_CHECK(last_comm == MPI_COMM_SELF,
           "%s: the handler got a communicator other than MPI_COMM_SELF", what);
  MT_CHECK(rc != MPI_SUCCESS && rc == last_code,
           "%s returned %s, the handler saw code %d", what, mt_error_string(rc),
           last_code);
  self_calls = 0;
  last_comm = MPI_COMM_NULL;
  last_code = MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Errhandler self_handler;
  MPI_Errhandler world_handler;
  MT_CHECK_MPI(MPI_Comm_create_errhandler(on_self, &self_handler));
  MT_CHECK_MPI(MPI_Comm_create_errhandler(on_world, &world_handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, self_handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_handler));

  int n = 0;
  expect_on_self(MPI_Info_get_nkeys(MPI_INFO_NULL, &n),
                 "MPI_Info_get_nkeys(MPI_INFO_NULL)");
  expect_on_self(MPI_Type_size(MPI_DATATYPE_NULL, &n),
                 "MPI_Type_size(MPI_DATATYPE_NULL)");
  expect_on_self(MPI_Group_size(MPI_GROUP_NULL, &n),
                 "MPI_Group_size(MPI_GROUP_NULL)");
  MPI_Request request = MPI_REQUEST_NULL;
  expect_on_self(MPI_Request_free(&request),
                 "MPI_Request_free(MPI_REQUEST_NULL)");
  // A null communicator is no object to raise the error on either.
  expect_on_self(MPI_Send(&n, 1, MPI_INT, 0, 0, MPI_COMM_NULL),
                 "MPI_Send on MPI_COMM_NULL");

  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  MT_CHECK_MPI(MPI_Errhandler_free(&self_handler));
  MT_CHECK_MPI(MPI_Errhandler_free(&world_handler));
  MPI_Finalize();
  return 0;
}
