// SPDX-License-Identifier: MIT
// MPI 4.0 section 9.5: classes, codes and strings the program adds.
// MPI_Error_class and MPI_Error_string see them, MPI_LASTUSEDCODE covers
// them, MPI_Comm_call_errhandler passes them to a user handler unchanged,
// and bad arguments are refused with MPI_ERR_ARG.
//
// With the argument "bad", also bad arguments (shmpi-only). With "fatal",
// MPI_Comm_call_errhandler raises an added code
// under MPI_ERRORS_ARE_FATAL: the job must end non-zero, with its string.
#include <string.h>

#include "mpitest.h"

static int handled_code = 0;

static void record(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  handled_code = *code;
}

static int last_used(void) {
  int* value = NULL;
  int flag = 0;
  MT_CHECK_MPI(
      MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag));
  MT_CHECK(flag, "MPI_LASTUSEDCODE is not set");
  return *value;
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int before = last_used();
  MT_CHECK(before >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d < %d", before,
           MPI_ERR_LASTCODE);

  int mine = -1;
  MT_CHECK_MPI(MPI_Add_error_class(&mine));
  MT_CHECK(mine > MPI_ERR_LASTCODE || mine > MPI_ERR_SESSION,
           "new class %d collides with a predefined one", mine);
  int code_a = -1, code_b = -1, tag_code = -1;
  MT_CHECK_MPI(MPI_Add_error_code(mine, &code_a));
  MT_CHECK_MPI(MPI_Add_error_code(mine, &code_b));
  MT_CHECK_MPI(MPI_Add_error_code(MPI_ERR_TAG, &tag_code));
  MT_CHECK(code_a != code_b && code_a != mine && tag_code != code_b,
           "codes %d %d %d of class %d are not distinct", code_a, code_b,
           tag_code, mine);
  // (shmpi's MPI_LASTUSEDCODE also covers the codes, a unit test checks
  // it; MPICH's codes carry flag bits above it.)
  const int after = last_used();
  MT_CHECK(after >= mine && after >= before,
           "MPI_LASTUSEDCODE %d below the added class %d", after, mine);

  int mpi_class = -1;
  MT_CHECK_MPI(MPI_Error_class(code_a, &mpi_class));
  MT_CHECK(mpi_class == mine, "class of code_a %d, expected %d", mpi_class,
           mine);
  MT_CHECK_MPI(MPI_Error_class(mine, &mpi_class));
  MT_CHECK(mpi_class == mine, "class of the class %d", mpi_class);
  MT_CHECK_MPI(MPI_Error_class(tag_code, &mpi_class));
  MT_CHECK(mpi_class == MPI_ERR_TAG, "class of tag_code %d", mpi_class);

  // No string yet: "".
  char text[MPI_MAX_ERROR_STRING];
  int length = -1;
  MT_CHECK_MPI(MPI_Error_string(code_b, text, &length));
  MT_CHECK(length == 0 && text[0] == '\0', "string of a new code: '%s'", text);
  MT_CHECK_MPI(MPI_Add_error_string(mine, "solver class"));
  MT_CHECK_MPI(MPI_Add_error_string(code_a, "solver: matrix is singular"));
  MT_CHECK_MPI(MPI_Add_error_string(code_a, "solver: pivot too small"));
  MT_CHECK_MPI(MPI_Error_string(code_a, text, &length));
  MT_CHECK(strcmp(text, "solver: pivot too small") == 0 &&
               length == (int)strlen(text),
           "string of code_a: '%s' (%d)", text, length);
  MT_CHECK_MPI(MPI_Error_string(mine, text, &length));
  MT_CHECK(strcmp(text, "solver class") == 0, "string of the class: '%s'",
           text);

  if (fatal) {
    if (mt_rank() == 0) {
      MPI_Comm_call_errhandler(MPI_COMM_WORLD, code_a);
      MT_FAIL("MPI_Comm_call_errhandler returned under MPI_ERRORS_ARE_FATAL");
    }
    return mt_errors_finish(fatal);
  }

  // A user handler gets the added code as it was raised.
  MPI_Errhandler handler;
  MT_CHECK_MPI(MPI_Comm_create_errhandler(record, &handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
  MT_CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code_b));
  MT_CHECK(handled_code == code_b, "the handler got %d, raised %d",
           handled_code, code_b);
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MT_CHECK_MPI(MPI_Errhandler_free(&handler));

  // Bad arguments: erroneous programs, which shmpi refuses with
  // MPI_ERR_ARG (MPICH 4.0.2 takes a code for its class).
  if (argc < 2 || strcmp(argv[1], "bad") != 0) {
    return mt_errors_finish(fatal);
  }
  int unused = -1;
  MT_EXPECT_CLASS(0, MPI_Add_error_code(code_a, &unused), MPI_ERR_ARG,
                  "MPI_Add_error_code of a code, not a class");
  MT_EXPECT_CLASS(0, MPI_Add_error_code(after + 1000, &unused), MPI_ERR_ARG,
                  "MPI_Add_error_code of a class that does not exist");
  MT_EXPECT_CLASS(0, MPI_Add_error_string(MPI_ERR_TAG, "mine"), MPI_ERR_ARG,
                  "MPI_Add_error_string of a predefined class");
  char too_long[MPI_MAX_ERROR_STRING + 2];
  memset(too_long, 'x', sizeof too_long - 1);
  too_long[sizeof too_long - 1] = '\0';
  MT_EXPECT_CLASS(0, MPI_Add_error_string(code_b, too_long), MPI_ERR_ARG,
                  "MPI_Add_error_string longer than MPI_MAX_ERROR_STRING");
  return mt_errors_finish(fatal);
}
