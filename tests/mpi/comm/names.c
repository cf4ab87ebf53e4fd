// SPDX-License-Identifier: MIT
// MPI 4.0 §7.8: MPI_COMM_SET_NAME gives a communicator a name, locally (each
// process may use its own); MPI_COMM_GET_NAME returns the last name set, or
// an empty string if none was; MPI_COMM_WORLD and MPI_COMM_SELF are named
// "MPI_COMM_WORLD" and "MPI_COMM_SELF"; new communicators do not inherit
// names. At most MPI_MAX_OBJECT_NAME-1 characters are kept in C, a longer
// name being truncated.
//
// Checked: the predefined names; a dup of MPI_COMM_WORLD, a split and an
// intercommunicator start without a name; set, get, rename, a different
// name on each rank; a name of MPI_MAX_OBJECT_NAME-1 characters; a longer
// one truncated to that; renaming MPI_COMM_WORLD (its dups still start
// unnamed); a dup made after one with a name was freed starts unnamed.
#include "mt_comm.h"

static void check_name_at(int line, MPI_Comm comm, const char* expected,
                          const char* what) {
  char name[MPI_MAX_OBJECT_NAME];
  memset(name, 'x', sizeof name);
  int len = -1;
  MPI_Comm_get_name(comm, name, &len);
  const int nul = memchr(name, '\0', sizeof name) != NULL;
  if (!nul || strcmp(name, expected) != 0 || len != (int)strlen(expected)) {
    mt_fail_at(__FILE__, line,
               "%s: MPI_Comm_get_name gave \"%.*s\"%s (length %d), expected "
               "\"%s\" (length %zu)",
               what, MPI_MAX_OBJECT_NAME, name,
               nul ? "" : " with no terminating NUL", len, expected,
               strlen(expected));
  }
}
#define CHECK_NAME(comm, expected, what) \
  check_name_at(__LINE__, (comm), (expected), (what))

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  CHECK_NAME(MPI_COMM_WORLD, "MPI_COMM_WORLD", "MPI_COMM_WORLD");
  CHECK_NAME(MPI_COMM_SELF, "MPI_COMM_SELF", "MPI_COMM_SELF");

  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  CHECK_NAME(dup, "", "a dup of MPI_COMM_WORLD");
  MPI_Comm_set_name(dup, "my dup");
  CHECK_NAME(dup, "my dup", "a dup after MPI_Comm_set_name");
  // Local: each rank its own name.
  char mine[64];
  snprintf(mine, sizeof mine, "dup seen by rank %d", rank);
  MPI_Comm_set_name(dup, mine);
  CHECK_NAME(dup, mine, "a dup renamed");
  // The caller's string is copied.
  char scratch[64];
  snprintf(scratch, sizeof scratch, "scratch");
  MPI_Comm_set_name(dup, scratch);
  snprintf(scratch, sizeof scratch, "overwritten");
  CHECK_NAME(dup, "scratch", "a name whose buffer was reused");
  // The dup still works, and names are not inherited.
  MPI_Comm dup2 = MPI_COMM_NULL;
  MPI_Comm_dup(dup, &dup2);
  CHECK_NAME(dup2, "", "a dup of a named communicator");
  CHECK_NAME(dup, "scratch", "the parent after MPI_Comm_dup");
  MPI_Comm_free(&dup2);

  // Longest name, and a longer one.
  char longest[MPI_MAX_OBJECT_NAME];
  for (int i = 0; i < MPI_MAX_OBJECT_NAME - 1; ++i) {
    longest[i] = (char)('a' + i % 26);
  }
  longest[MPI_MAX_OBJECT_NAME - 1] = '\0';
  MPI_Comm_set_name(dup, longest);
  CHECK_NAME(dup, longest, "a name of MPI_MAX_OBJECT_NAME-1 characters");
  char too_long[MPI_MAX_OBJECT_NAME + 20];
  memcpy(too_long, longest, MPI_MAX_OBJECT_NAME - 1);
  memcpy(too_long + MPI_MAX_OBJECT_NAME - 1, "0123456789ABCDEFGHI", 20);
  MPI_Comm_set_name(dup, too_long);
  CHECK_NAME(dup, longest, "a name longer than MPI_MAX_OBJECT_NAME-1");
  MPI_Comm_set_name(dup, "");
  CHECK_NAME(dup, "", "a name set to the empty string");

  // A split and an intercommunicator start unnamed.
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);
  CHECK_NAME(split, "", "a split of MPI_COMM_WORLD");
  if (size >= 2) {
    MPI_Comm inter = MPI_COMM_NULL;
    MPI_Intercomm_create(split, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 3,
                         &inter);
    CHECK_NAME(inter, "", "an intercommunicator");
    MPI_Comm_set_name(inter, "inter");
    CHECK_NAME(inter, "inter", "an intercommunicator after set_name");
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&split);

  // Predefined communicators can be renamed; their dups start unnamed.
  MPI_Comm_set_name(MPI_COMM_WORLD, "the world");
  CHECK_NAME(MPI_COMM_WORLD, "the world", "MPI_COMM_WORLD renamed");
  MPI_Comm_set_name(MPI_COMM_SELF, "me");
  CHECK_NAME(MPI_COMM_SELF, "me", "MPI_COMM_SELF renamed");
  MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
  CHECK_NAME(dup2, "", "a dup of the renamed MPI_COMM_WORLD");
  MPI_Comm_free(&dup2);
  MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  MPI_Comm_set_name(MPI_COMM_SELF, "MPI_COMM_SELF");

  // A communicator made after a named one was freed starts unnamed, even
  // if it reuses its slot.
  MPI_Comm_set_name(dup, "about to be freed");
  MPI_Comm_free(&dup);
  for (int i = 0; i < 3; ++i) {
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_NAME(dup, "", "a dup made after a named one was freed");
    MPI_Comm_set_name(dup, "about to be freed");
    MPI_Comm_free(&dup);
  }

  MPI_Finalize();
  return 0;
}
