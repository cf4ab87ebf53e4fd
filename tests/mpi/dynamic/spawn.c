// SPDX-License-Identifier: MIT
// MPI 4.0 §11.3.2: "MPI_COMM_SPAWN tries to start maxprocs identical copies
// of the MPI program specified by command, establishing communication with
// them and returning an intercommunicator." The program spawns copies of
// itself (argv: "child" and the case) and both groups check what they see:
// sizes, MPI_APPNUM, arguments, messages and collectives over the
// intercommunicator, MPI_Comm_get_parent before and after disconnecting.
// Cases: basic, root_last, multiple, nested, soft, wdir, twice, recycled.
#define _XOPEN_SOURCE 700  // realpath
#include <stdlib.h>
#include <unistd.h>

#include "mt_spawn.h"

static int appnum(void) {
  int* value = NULL;
  int flag = 0;
  MT_CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag));
  return flag ? *value : -1;
}

// Both sides: point-to-point both ways, then a barrier, a rooted bcast and
// an allreduce over the intercommunicator. `parent_side` says which group
// this is; the parents' root is `root`.
static void talk(MPI_Comm inter, int parent_side, int root) {
  int rank = 0, size = 0, remote = 0;
  MT_CHECK_MPI(MPI_Comm_rank(inter, &rank));
  MT_CHECK_MPI(MPI_Comm_size(inter, &size));
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
  if (parent_side) {
    if (rank == root) {
      for (int child = 0; child < remote; ++child) {
        int value = 100 + child;
        MT_CHECK_MPI(MPI_Send(&value, 1, MPI_INT, child, 7, inter));
      }
    }
    // Each child answers parent child % size.
    for (int child = rank; child < remote; child += size) {
      int got = -1;
      MT_CHECK_MPI(
          MPI_Recv(&got, 1, MPI_INT, child, 8, inter, MPI_STATUS_IGNORE));
      MT_CHECK(got == 1000 + child, "parent %d: child %d answered %d", rank,
               child, got);
    }
  } else {
    int got = -1;
    MT_CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, root, 7, inter, MPI_STATUS_IGNORE));
    MT_CHECK(got == 100 + rank, "child %d got %d from the parents' root", rank,
             got);
    int answer = 1000 + rank;
    MT_CHECK_MPI(MPI_Send(&answer, 1, MPI_INT, rank % remote, 8, inter));
  }
  MT_CHECK_MPI(MPI_Barrier(inter));
  int token = parent_side ? 4242 : -1;
  if (parent_side) {
    MT_CHECK_MPI(MPI_Bcast(&token, 1, MPI_INT,
                           rank == root ? MPI_ROOT : MPI_PROC_NULL, inter));
  } else {
    MT_CHECK_MPI(MPI_Bcast(&token, 1, MPI_INT, root, inter));
    MT_CHECK(token == 4242, "child %d: bcast from the parents gave %d", rank,
             token);
  }
  // Each side receives the other side's sum of (rank + 1).
  int mine = rank + 1, theirs = 0;
  MT_CHECK_MPI(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, inter));
  MT_CHECK(theirs == remote * (remote + 1) / 2,
           "allreduce over the intercommunicator gave %d (remote size %d)",
           theirs, remote);
}

static void check_errcodes(const int* codes, int n, int ok) {
  for (int i = 0; i < n; ++i) {
    MT_CHECK(codes[i] == (i < ok ? MPI_SUCCESS : MPI_ERR_SPAWN),
             "errcodes[%d] = %d (%d of %d should have started)", i, codes[i],
             ok, n);
  }
}

// Spawns `n` children of this program running case `which` from `root`,
// checks the result on every parent and returns the intercommunicator.
static MPI_Comm spawn_children(const char* which, int n, int root,
                               MPI_Info info, int expect_started) {
  char* args[] = {"child", (char*)which, NULL};
  int codes[16];
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_spawn(mt_self_path, args, n, info, root, MPI_COMM_WORLD,
                              &inter, codes));
  MT_CHECK(inter != MPI_COMM_NULL, "MPI_Comm_spawn gave MPI_COMM_NULL");
  check_errcodes(codes, n, expect_started);
  int is_inter = 0, remote = 0, local = 0;
  MT_CHECK_MPI(MPI_Comm_test_inter(inter, &is_inter));
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
  MT_CHECK_MPI(MPI_Comm_size(inter, &local));
  MT_CHECK(is_inter, "the spawn's communicator is not an intercommunicator");
  MT_CHECK(remote == expect_started, "remote size %d, expected %d", remote,
           expect_started);
  MT_CHECK(local == mt_size(), "local size %d, expected %d", local, mt_size());
  return inter;
}

static void end_with(MPI_Comm inter) {
  MT_CHECK_MPI(MPI_Comm_disconnect(&inter));
  MT_CHECK(inter == MPI_COMM_NULL, "disconnect left the handle set");
}

// ---- the children ----

static void child_common(MPI_Comm parent, int expected_size, int root) {
  int size = 0;
  MT_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  MT_CHECK(size == expected_size, "the children's world has %d ranks, not %d",
           size, expected_size);
  int is_inter = 0;
  MT_CHECK_MPI(MPI_Comm_test_inter(parent, &is_inter));
  MT_CHECK(is_inter, "the parent communicator is not an intercommunicator");
  int* universe = NULL;
  int flag = 0;
  MT_CHECK_MPI(
      MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag));
  // Open MPI reports its slots (cores), which may be fewer than the
  // processes running; only that it is set is portable.
  MT_CHECK(flag && *universe >= 1, "MPI_UNIVERSE_SIZE is missing");
  talk(parent, 0, root);
  // A collective on the children's own world works too.
  int one = 1, sum = 0;
  MT_CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  MT_CHECK(sum == size, "the children's allreduce gave %d", sum);
}

static void child_finish(MPI_Comm parent) {
  MT_CHECK_MPI(MPI_Comm_disconnect(&parent));
  MPI_Comm again = MPI_COMM_WORLD;
  MT_CHECK_MPI(MPI_Comm_get_parent(&again));
  MT_CHECK(again == MPI_COMM_NULL,
           "MPI_Comm_get_parent after disconnecting it is not MPI_COMM_NULL");
}

static int run_child(MPI_Comm parent, int argc, char** argv) {
  const char* which = argc > 2 ? argv[2] : "";
  int remote = 0;
  MT_CHECK_MPI(MPI_Comm_remote_size(parent, &remote));
  if (strcmp(which, "basic") == 0 || strcmp(which, "twice") == 0) {
    MT_CHECK(appnum() == 0, "MPI_APPNUM is %d, not 0", appnum());
    child_common(parent, 3, 0);
  } else if (strcmp(which, "root_last") == 0) {
    child_common(parent, 2, remote - 1);
  } else if (strcmp(which, "multiple") == 0) {
    // Command 0 runs 2 copies with "a", command 1 one copy with "b".
    const int app = appnum();
    int rank = 0;
    MT_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MT_CHECK(app == (rank < 2 ? 0 : 1), "rank %d has MPI_APPNUM %d", rank, app);
    MT_CHECK(argc == 4 && strcmp(argv[3], app == 0 ? "a" : "b") == 0,
             "rank %d (command %d) got the wrong arguments", rank, app);
    child_common(parent, 3, 0);
  } else if (strcmp(which, "nested") == 0) {
    child_common(parent, 2, 0);
    // The children spawn a grandchild of their own.
    char* args[] = {"child", "grandchild", NULL};
    MPI_Comm inter = MPI_COMM_NULL;
    int code = -1;
    MT_CHECK_MPI(MPI_Comm_spawn(mt_self_path, args, 1, MPI_INFO_NULL, 1,
                                MPI_COMM_WORLD, &inter, &code));
    MT_CHECK(code == MPI_SUCCESS, "the grandchild's errcode is %d", code);
    talk(inter, 1, 1);
    end_with(inter);
  } else if (strcmp(which, "grandchild") == 0) {
    MT_CHECK(remote == 2, "the grandchild's parents are %d, not 2", remote);
    child_common(parent, 1, 1);
  } else if (strcmp(which, "soft") == 0) {
    child_common(parent, 4, 0);
  } else if (strcmp(which, "wdir") == 0) {
    char cwd[PATH_MAX];
    MT_CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd failed");
    char expected[PATH_MAX];
    MT_CHECK(realpath("/tmp", expected) != NULL, "realpath(/tmp) failed");
    MT_CHECK(strcmp(cwd, expected) == 0, "the child runs in %s, not %s", cwd,
             expected);
    child_common(parent, 1, 0);
  } else if (strcmp(which, "recycled") == 0) {
    child_common(parent, 2, 0);
    // Many rounds on the children's world, each result checked: a world
    // whose block kept an earlier communicator's rounds would read stale
    // slots as this round's.
    int rank = 0;
    MT_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    for (int i = 0; i < 50; ++i) {
      int mine = rank * 100 + i, sum = 0;
      MT_CHECK_MPI(
          MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
      MT_CHECK(sum == 100 + 2 * i,
               "allreduce %d on the children's world "
               "gave %d, not %d",
               i, sum, 100 + 2 * i);
    }
  } else {
    MT_FAIL("unknown child case '%s'", which);
  }
  child_finish(parent);
  MPI_Finalize();
  return 0;
}

// ---- the parents ----

static void case_basic(void) {
  MPI_Comm inter = spawn_children("basic", 3, 0, MPI_INFO_NULL, 3);
  talk(inter, 1, 0);
  end_with(inter);
}

static void case_root_last(void) {
  const int root = mt_size() - 1;
  MPI_Comm inter = spawn_children("root_last", 2, root, MPI_INFO_NULL, 2);
  talk(inter, 1, root);
  end_with(inter);
}

static void case_multiple(void) {
  char* commands[] = {mt_self_path, mt_self_path};
  char* args_a[] = {"child", "multiple", "a", NULL};
  char* args_b[] = {"child", "multiple", "b", NULL};
  char** argvs[] = {args_a, args_b};
  int maxprocs[] = {2, 1};
  MPI_Info infos[] = {MPI_INFO_NULL, MPI_INFO_NULL};
  int codes[3] = {-1, -1, -1};
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_spawn_multiple(2, commands, argvs, maxprocs, infos, 0,
                                       MPI_COMM_WORLD, &inter, codes));
  check_errcodes(codes, 3, 3);
  int remote = 0;
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
  MT_CHECK(remote == 3, "spawn_multiple started %d processes, not 3", remote);
  talk(inter, 1, 0);
  end_with(inter);
}

static void case_nested(void) {
  MPI_Comm inter = spawn_children("nested", 2, 0, MPI_INFO_NULL, 2);
  talk(inter, 1, 0);
  end_with(inter);
}

// The job has mt_size() + 8 slots: a soft request for 12 with 1, 4 or 12
// allowed gets 4 (§11.3.4 "soft").
static void case_soft(void) {
  MPI_Info info;
  MT_CHECK_MPI(MPI_Info_create(&info));
  MT_CHECK_MPI(MPI_Info_set(info, "soft", "1,4,12"));
  char* args[] = {"child", "soft", NULL};
  int codes[12];
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_spawn(mt_self_path, args, 12, info, 0, MPI_COMM_WORLD,
                              &inter, codes));
  check_errcodes(codes, 12, 4);
  MT_CHECK_MPI(MPI_Info_free(&info));
  talk(inter, 1, 0);
  end_with(inter);
}

static void case_wdir(void) {
  MPI_Info info;
  MT_CHECK_MPI(MPI_Info_create(&info));
  MT_CHECK_MPI(MPI_Info_set(info, "wdir", "/tmp"));
  MPI_Comm inter = spawn_children("wdir", 1, 0, info, 1);
  MT_CHECK_MPI(MPI_Info_free(&info));
  talk(inter, 1, 0);
  end_with(inter);
}

// Two spawns one after the other: new slots, a new process group.
static void case_twice(void) {
  for (int i = 0; i < 2; ++i) {
    MPI_Comm inter = spawn_children("twice", 3, 0, MPI_INFO_NULL, 3);
    talk(inter, 1, 0);
    end_with(inter);
  }
}

// The children's world gets a block that an earlier communicator of the
// parents used (one of two members, as the children's world): the
// parents run rounds on a duplicate of their world and free it, and the
// block goes back to the pool before the spawn takes one.
static void case_recycled(void) {
  MPI_Comm dup = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  for (int i = 0; i < 40; ++i) {
    int one = 1, sum = 0;
    MT_CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
    MT_CHECK(sum == mt_size(), "allreduce on the duplicate gave %d", sum);
  }
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  // every member has let go
  MPI_Comm inter = spawn_children("recycled", 2, 0, MPI_INFO_NULL, 2);
  talk(inter, 1, 0);
  end_with(inter);
}

int main(int argc, char** argv) {
  MPI_Comm parent = mt_spawn_init(&argc, &argv);
  if (parent != MPI_COMM_NULL) {
    return run_child(parent, argc, argv);
  }
  static const mt_case cases[] = {
      {"basic", case_basic},       {"root_last", case_root_last},
      {"multiple", case_multiple}, {"nested", case_nested},
      {"soft", case_soft},         {"wdir", case_wdir},
      {"twice", case_twice},       {"recycled", case_recycled},
  };
  mt_run_case(argc, argv, cases, sizeof cases / sizeof cases[0]);
  MPI_Finalize();
  return 0;
}
