// SPDX-License-Identifier: MIT
// MPI 4.0 chapter 10: MPI_INFO_SET "adds the (key,value) pair to info, and
// overrides the value if a value for the same key was previously set";
// MPI_INFO_GET_NKEYS / MPI_INFO_GET_NTHKEY enumerate the keys, and "the
// n-th key" keeps its place while the info is not changed (shmpi and MPICH
// keep the order in which keys were first set); MPI_INFO_DELETE removes a
// pair; MPI_INFO_DUP makes an independent copy "with the same (key,value)
// pairs and the same ordering of keys"; MPI_INFO_FREE "sets info to
// MPI_INFO_NULL". Keys and values are case-sensitive; keys up to
// MPI_MAX_INFO_KEY - 1 and values up to MPI_MAX_INFO_VAL - 1 characters fit
// every implementation.
#include "mpitest.h"

static void expect_value(MPI_Info info, const char* key, const char* want) {
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = -1;
  MT_CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag));
  if (want == NULL) {
    MT_CHECK(flag == 0, "key \"%s\" should be absent", key);
    return;
  }
  MT_CHECK(flag == 1, "key \"%s\" is missing", key);
  MT_CHECK(strcmp(value, want) == 0, "key \"%s\": \"%s\", expected \"%s\"", key,
           value, want);
  int length = -1;
  MT_CHECK_MPI(MPI_Info_get_valuelen(info, key, &length, &flag));
  MT_CHECK(flag && length == (int)strlen(want),
           "MPI_Info_get_valuelen(\"%s\") = %d, expected %zu", key, length,
           strlen(want));
}

static void expect_keys(MPI_Info info, const char* const* keys, int count) {
  int nkeys = -1;
  MT_CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  MT_CHECK(nkeys == count, "%d keys, expected %d", nkeys, count);
  for (int i = 0; i < count; ++i) {
    char key[MPI_MAX_INFO_KEY + 1];
    MT_CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    MT_CHECK(strcmp(key, keys[i]) == 0, "key %d is \"%s\", expected \"%s\"", i,
             key, keys[i]);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Info info = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Info_create(&info));
  MT_CHECK(info != MPI_INFO_NULL, "MPI_Info_create gave MPI_INFO_NULL");
  expect_keys(info, NULL, 0);
  expect_value(info, "anything", NULL);

  MT_CHECK_MPI(MPI_Info_set(info, "zeta", "1"));
  MT_CHECK_MPI(MPI_Info_set(info, "alpha", "two"));
  MT_CHECK_MPI(MPI_Info_set(info, "Alpha", "TWO"));
  MT_CHECK_MPI(MPI_Info_set(info, "empty", ""));
  MT_CHECK_MPI(MPI_Info_set(info, "zeta", "one"));  // overrides in place
  const char* const keys[] = {"zeta", "alpha", "Alpha", "empty"};
  expect_keys(info, keys, 4);
  expect_value(info, "zeta", "one");
  expect_value(info, "alpha", "two");
  expect_value(info, "Alpha", "TWO");
  expect_value(info, "empty", "");
  expect_value(info, "ALPHA", NULL);

  // The longest key and value that fit every implementation.
  char long_key[MPI_MAX_INFO_KEY];
  memset(long_key, 'k', sizeof long_key - 1);
  long_key[sizeof long_key - 1] = '\0';
  char* long_value = mt_malloc(MPI_MAX_INFO_VAL);
  memset(long_value, 'v', MPI_MAX_INFO_VAL - 1);
  long_value[MPI_MAX_INFO_VAL - 1] = '\0';
  MT_CHECK_MPI(MPI_Info_set(info, long_key, long_value));
  expect_value(info, long_key, long_value);
  MT_CHECK_MPI(MPI_Info_delete(info, long_key));
  free(long_value);

  MPI_Info copy = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Info_dup(info, &copy));
  MT_CHECK(copy != MPI_INFO_NULL && copy != info, "MPI_Info_dup handle");
  expect_keys(copy, keys, 4);
  // The copy is independent.
  MT_CHECK_MPI(MPI_Info_delete(info, "alpha"));
  MT_CHECK_MPI(MPI_Info_set(copy, "zeta", "changed"));
  const char* const left[] = {"zeta", "Alpha", "empty"};
  expect_keys(info, left, 3);
  expect_value(info, "zeta", "one");
  expect_value(copy, "alpha", "two");
  expect_value(copy, "zeta", "changed");

  // A deleted key set again goes to the end.
  MT_CHECK_MPI(MPI_Info_set(info, "alpha", "back"));
  const char* const again[] = {"zeta", "Alpha", "empty", "alpha"};
  expect_keys(info, again, 4);

  MT_CHECK_MPI(MPI_Info_free(&info));
  MT_CHECK(info == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
  MT_CHECK_MPI(MPI_Info_free(&copy));
  MT_CHECK(copy == MPI_INFO_NULL, "MPI_Info_free did not set MPI_INFO_NULL");
  MPI_Finalize();
  return 0;
}
