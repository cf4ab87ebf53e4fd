// SPDX-License-Identifier: MIT
// Bad input to MPI_Comm_spawn and MPI_Comm_spawn_multiple (MPI 4.0 §11.3):
// each returns its error class on every member, MPI_COMM_NULL in intercomm
// and MPI_ERR_SPAWN in every errcode where the processes could not be
// started, and a good spawn afterwards still works. Cases: args, noroom,
// badcmd, direct (run without shmpirun), crash (a spawned process is
// killed: the job ends, naming it), and "fatal" (no room under
// MPI_ERRORS_ARE_FATAL).
#define _XOPEN_SOURCE 700  // realpath
#include <signal.h>
#include <stdlib.h>

#include "mt_spawn.h"

static int spawn_n(const char* command, int n, MPI_Info info, int* codes,
                   MPI_Comm* inter) {
  char* args[] = {"child", NULL};
  return MPI_Comm_spawn(command, args, n, info, 0, MPI_COMM_WORLD, inter,
                        codes);
}

// A spawn that must fail with `expected` and leave nothing behind; `codes`
// are checked where processes could not be started (MPI_ERR_SPAWN).
static void expect_failed_spawn(int rc, int expected, const char* what,
                                MPI_Comm inter, const int* codes, int n) {
  mt_expect_class_at(__FILE__, __LINE__, 0, rc, expected,
                     mt_class_name(expected), what);
  MT_CHECK(inter == MPI_COMM_NULL, "%s: intercomm is not MPI_COMM_NULL", what);
  for (int i = 0; codes != NULL && i < n; ++i) {
    MT_CHECK(codes[i] == MPI_ERR_SPAWN, "%s: errcodes[%d] = %d", what, i,
             codes[i]);
  }
}

// After the failures: one process spawned, met and let go.
static void good_spawn(void) {
  MPI_Comm inter = MPI_COMM_NULL;
  int code = -1;
  MT_CHECK_MPI(spawn_n(mt_self_path, 1, MPI_INFO_NULL, &code, &inter));
  MT_CHECK(code == MPI_SUCCESS, "the good spawn's errcode is %d", code);
  int token = 0;
  if (mt_rank() == 0) {
    MT_CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE));
    MT_CHECK(token == 77, "the child sent %d", token);
  }
  MT_CHECK_MPI(MPI_Comm_disconnect(&inter));
}

static void case_args(void) {
  MPI_Comm inter = MPI_COMM_WORLD;
  char* args[] = {NULL};
  int code = 0;
  const int size = mt_size();
  MT_EXPECT_CLASS(0,
                  MPI_Comm_spawn(mt_self_path, args, 1, MPI_INFO_NULL, 0,
                                 MPI_COMM_NULL, &inter, &code),
                  MPI_ERR_COMM, "comm MPI_COMM_NULL");
  MT_EXPECT_CLASS(0,
                  MPI_Comm_spawn(mt_self_path, args, 1, MPI_INFO_NULL, -1,
                                 MPI_COMM_WORLD, &inter, &code),
                  MPI_ERR_ROOT, "root -1");
  MT_EXPECT_CLASS(0,
                  MPI_Comm_spawn(mt_self_path, args, 1, MPI_INFO_NULL, size,
                                 MPI_COMM_WORLD, &inter, &code),
                  MPI_ERR_ROOT, "root == size");
  MT_EXPECT_CLASS(0,
                  MPI_Comm_spawn(mt_self_path, args, 1, MPI_INFO_NULL, 0,
                                 MPI_COMM_WORLD, NULL, &code),
                  MPI_ERR_ARG, "intercomm NULL");
  int rc = MPI_Comm_spawn(mt_self_path, args, 0, MPI_INFO_NULL, 0,
                          MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
  expect_failed_spawn(rc, MPI_ERR_ARG, "maxprocs 0", inter, NULL, 0);
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn(mt_self_path, args, -1, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                      &inter, MPI_ERRCODES_IGNORE);
  expect_failed_spawn(rc, MPI_ERR_ARG, "maxprocs -1", inter, NULL, 0);
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn(NULL, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                      &code);
  expect_failed_spawn(rc, MPI_ERR_ARG, "command NULL", inter, NULL, 0);
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn("", args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                      &code);
  expect_failed_spawn(rc, MPI_ERR_ARG, "command \"\"", inter, NULL, 0);
  // A freed info handle.
  MPI_Info info;
  MT_CHECK_MPI(MPI_Info_create(&info));
  MPI_Info freed = info;
  MT_CHECK_MPI(MPI_Info_free(&info));
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn(mt_self_path, args, 1, freed, 0, MPI_COMM_WORLD, &inter,
                      &code);
  expect_failed_spawn(rc, MPI_ERR_INFO, "freed info", inter, NULL, 0);
  MT_CHECK_MPI(MPI_Info_create(&info));
  MT_CHECK_MPI(MPI_Info_set(info, "soft", "1:x"));
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn(mt_self_path, args, 2, info, 0, MPI_COMM_WORLD, &inter,
                      &code);
  expect_failed_spawn(rc, MPI_ERR_INFO_VALUE, "soft \"1:x\"", inter, NULL, 0);
  MT_CHECK_MPI(MPI_Info_free(&info));
  char* commands[] = {mt_self_path};
  int maxprocs[] = {1};
  MPI_Info infos[] = {MPI_INFO_NULL};
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn_multiple(0, commands, MPI_ARGVS_NULL, maxprocs, infos, 0,
                               MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
  expect_failed_spawn(rc, MPI_ERR_ARG, "spawn_multiple count 0", inter, NULL,
                      0);
  good_spawn();
}

// More processes than the job holds: refused by the root (more than all
// slots) and by shmpirun (more than the free ones).
static void case_noroom(void) {
  int codes[100];
  MPI_Comm inter = MPI_COMM_WORLD;
  int rc = spawn_n(mt_self_path, 100, MPI_INFO_NULL, codes, &inter);
  expect_failed_spawn(rc, MPI_ERR_SPAWN, "100 processes", inter, codes, 100);
  int* universe = NULL;
  int flag = 0;
  MT_CHECK_MPI(
      MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag));
  MT_CHECK(flag, "no MPI_UNIVERSE_SIZE");
  const int free_slots = *universe - mt_size();
  inter = MPI_COMM_WORLD;
  rc = spawn_n(mt_self_path, free_slots + 1, MPI_INFO_NULL, codes, &inter);
  expect_failed_spawn(rc, MPI_ERR_SPAWN, "one more than the free slots", inter,
                      codes, free_slots + 1);
  good_spawn();
}

// A command that does not exist, alone and beside a good one: nothing
// starts, and the good copies that did are stopped without ending the job.
static void case_badcmd(void) {
  int codes[3];
  MPI_Comm inter = MPI_COMM_WORLD;
  int rc = spawn_n("/nonexistent/shmpi-test-program", 2, MPI_INFO_NULL, codes,
                   &inter);
  expect_failed_spawn(rc, MPI_ERR_SPAWN, "a missing command", inter, codes, 2);
  char* commands[] = {mt_self_path, "/nonexistent/shmpi-test-program"};
  char* args[] = {"child", NULL};
  char** argvs[] = {args, args};
  int maxprocs[] = {2, 1};
  MPI_Info infos[] = {MPI_INFO_NULL, MPI_INFO_NULL};
  inter = MPI_COMM_WORLD;
  rc = MPI_Comm_spawn_multiple(2, commands, argvs, maxprocs, infos, 0,
                               MPI_COMM_WORLD, &inter, codes);
  expect_failed_spawn(rc, MPI_ERR_SPAWN, "a good and a missing command", inter,
                      codes, 3);
  good_spawn();
}

// Without shmpirun there is no one to start processes.
static void case_direct(void) {
  int code = 0;
  MPI_Comm inter = MPI_COMM_WORLD;
  int rc = spawn_n(mt_self_path, 1, MPI_INFO_NULL, &code, &inter);
  expect_failed_spawn(rc, MPI_ERR_SPAWN, "spawn without shmpirun", inter, &code,
                      1);
}

// The spawned process crashes after meeting us; we wait for it forever,
// so only the launcher can end the job (with its message).
static void case_crash(void) {
  char* args[] = {"child", "crash", NULL};
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_spawn(mt_self_path, args, 1, MPI_INFO_NULL, 0,
                              MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
  int token = 0;
  MPI_Recv(&token, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
  MT_FAIL("the crashed child sent something");
}

static void case_fatal(void) {
  MPI_Comm inter = MPI_COMM_NULL;
  if (mt_rank() == 0) {
    printf("spawning 100 processes under MPI_ERRORS_ARE_FATAL\n");
    fflush(stdout);
  }
  spawn_n(mt_self_path, 100, MPI_INFO_NULL, MPI_ERRCODES_IGNORE, &inter);
  MT_FAIL("the job survived a fatal error");
}

int main(int argc, char** argv) {
  MPI_Comm parent = mt_spawn_init(&argc, &argv);
  if (parent != MPI_COMM_NULL) {
    if (argc > 2 && strcmp(argv[2], "crash") == 0) {
      // SIGKILL, as kill -9 would: a sanitizer turns SIGSEGV into an exit.
      raise(SIGKILL);
    }
    int rank = 0;
    MT_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (rank == 0) {
      const int token = 77;
      MT_CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 0, parent));
    }
    MT_CHECK_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return 0;
  }
  if (!(argc > 1 && strcmp(argv[1], "fatal") == 0)) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  static const mt_case cases[] = {
      {"args", case_args},     {"noroom", case_noroom}, {"badcmd", case_badcmd},
      {"direct", case_direct}, {"crash", case_crash},   {"fatal", case_fatal},
  };
  mt_run_case(argc, argv, cases, sizeof cases / sizeof cases[0]);
  MPI_Finalize();
  return 0;
}
