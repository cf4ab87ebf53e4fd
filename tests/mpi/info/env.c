// SPDX-License-Identifier: MIT
// MPI 4.0 chapter 11 (MPI_INFO_ENV, MPI_INFO_CREATE_ENV): MPI_INFO_ENV is
// a predefined info object describing how the program was
// started; the reserved keys include "command", "argv", "maxprocs", "soft",
// "host", "arch", "wdir", "file" and "thread_level", and an
// implementation sets those it knows (MPICH 4.0.2 sets none). Whatever is
// set must be true: command names this program, argv holds the arguments
// (run with "a1 b2"), maxprocs is the size of MPI_COMM_WORLD, host is the
// processor's host. MPI_Info_create_env gives a new object the program
// frees, and it may be called before MPI_Init (§11.4.1, Table 11.1).
#include <unistd.h>

#include "mpitest.h"

static int get(MPI_Info info, const char* key, char* value) {
  int flag = 0;
  MT_CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag));
  return flag;
}

static void check(MPI_Info info, const char* what, const char* program) {
  int nkeys = -1;
  MT_CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  MT_CHECK(nkeys >= 0, "%s: %d keys", what, nkeys);
  for (int i = 0; i < nkeys; ++i) {  // every key can be read back
    char key[MPI_MAX_INFO_KEY + 1];
    char value[MPI_MAX_INFO_VAL + 1];
    MT_CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    MT_CHECK(get(info, key, value), "%s: key %d \"%s\" has no value", what, i,
             key);
  }
  char value[MPI_MAX_INFO_VAL + 1];
  if (get(info, "command", value)) {
    const char* base = strrchr(program, '/');
    MT_CHECK(strstr(value, base != NULL ? base + 1 : program) != NULL,
             "%s: command \"%s\" does not name %s", what, value, program);
  }
  if (get(info, "argv", value)) {
    MT_CHECK(strcmp(value, "a1 b2") == 0, "%s: argv \"%s\", expected \"a1 b2\"",
             what, value);
  }
  if (get(info, "maxprocs", value)) {
    MT_CHECK(atoi(value) == mt_size(), "%s: maxprocs %s, world size %d", what,
             value, mt_size());
  }
  if (get(info, "host", value)) {
    char host[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    MPI_Get_processor_name(host, &length);
    char hostname[256] = {0};
    gethostname(hostname, sizeof hostname - 1);
    MT_CHECK(strcmp(value, host) == 0 || strcmp(value, hostname) == 0,
             "%s: host \"%s\" is neither \"%s\" nor \"%s\"", what, value, host,
             hostname);
  }
  if (get(info, "wdir", value)) {
    char cwd[4096];
    MT_CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd failed");
    MT_CHECK(strcmp(value, cwd) == 0, "%s: wdir \"%s\", cwd \"%s\"", what,
             value, cwd);
  }
}

int main(int argc, char** argv) {
  MPI_Info before = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Info_create_env(argc, argv, &before));
  MPI_Init(&argc, &argv);
  MT_CHECK(argc == 3, "run with the arguments a1 b2");
  check(MPI_INFO_ENV, "MPI_INFO_ENV", argv[0]);
  check(before, "MPI_Info_create_env before MPI_Init", argv[0]);
  MPI_Info after = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Info_create_env(argc, argv, &after));
  MT_CHECK(after != MPI_INFO_NULL && after != MPI_INFO_ENV,
           "MPI_Info_create_env must give a new object");
  check(after, "MPI_Info_create_env", argv[0]);
  MPI_Info copy = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &copy));
  check(copy, "MPI_Info_dup(MPI_INFO_ENV)", argv[0]);
  MT_CHECK_MPI(MPI_Info_free(&copy));
  MT_CHECK_MPI(MPI_Info_free(&after));
  MT_CHECK_MPI(MPI_Info_free(&before));
  MPI_Finalize();
  return 0;
}
