// SPDX-License-Identifier: MIT
// MPI 4.0 §10 and §9.4: a key longer than MPI_MAX_INFO_KEY raises
// MPI_ERR_INFO_KEY, a value longer than MPI_MAX_INFO_VAL raises
// MPI_ERR_INFO_VALUE, MPI_INFO_DELETE of an absent key raises
// MPI_ERR_INFO_NOKEY ("if key is not defined in info, the call raises an
// error of class MPI_ERR_INFO_NOKEY"), and MPI_INFO_GET_NTHKEY with n out
// of 0..nkeys-1 raises MPI_ERR_ARG. The empty key is refused with
// MPI_ERR_INFO_KEY too (MPICH and shmpi).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "present", "yes");
  char* long_key = mt_malloc(MPI_MAX_INFO_KEY + 2);
  memset(long_key, 'k', MPI_MAX_INFO_KEY + 1);
  long_key[MPI_MAX_INFO_KEY + 1] = '\0';
  char* long_value = mt_malloc(MPI_MAX_INFO_VAL + 2);
  memset(long_value, 'v', MPI_MAX_INFO_VAL + 1);
  long_value[MPI_MAX_INFO_VAL + 1] = '\0';
  char value[16];
  char key[MPI_MAX_INFO_KEY + 1];
  int flag = 0;
  int length = 0;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Info_set(info, long_key, "v"), MPI_ERR_INFO_KEY,
                    "MPI_Info_set(key too long)");
    MT_EXPECT_CLASS(fatal, MPI_Info_set(info, "k", long_value),
                    MPI_ERR_INFO_VALUE, "MPI_Info_set(value too long)");
    MT_EXPECT_CLASS(fatal, MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY,
                    "MPI_Info_set(empty key)");
    MT_EXPECT_CLASS(fatal, MPI_Info_delete(info, "absent"), MPI_ERR_INFO_NOKEY,
                    "MPI_Info_delete(absent key)");
    MT_EXPECT_CLASS(fatal, MPI_Info_delete(info, long_key), MPI_ERR_INFO_KEY,
                    "MPI_Info_delete(key too long)");
    MT_EXPECT_CLASS(fatal, MPI_Info_get(info, long_key, 10, value, &flag),
                    MPI_ERR_INFO_KEY, "MPI_Info_get(key too long)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Info_get_valuelen(info, long_key, &length, &flag),
                    MPI_ERR_INFO_KEY, "MPI_Info_get_valuelen(key too long)");
    length = (int)sizeof value;
    MT_EXPECT_CLASS(fatal,
                    MPI_Info_get_string(info, long_key, &length, value, &flag),
                    MPI_ERR_INFO_KEY, "MPI_Info_get_string(key too long)");
    MT_EXPECT_CLASS(fatal, MPI_Info_get_nthkey(info, 1, key), MPI_ERR_ARG,
                    "MPI_Info_get_nthkey(n = nkeys)");
    MT_EXPECT_CLASS(fatal, MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG,
                    "MPI_Info_get_nthkey(n = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Info_get(info, "present", -1, value, &flag),
                    MPI_ERR_ARG, "MPI_Info_get(valuelen = -1)");
    length = -1;
    MT_EXPECT_CLASS(fatal,
                    MPI_Info_get_string(info, "present", &length, value, &flag),
                    MPI_ERR_ARG, "MPI_Info_get_string(buflen = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Info_create(NULL), MPI_ERR_ARG,
                    "MPI_Info_create(NULL)");
  }
  free(long_key);
  free(long_value);
  MPI_Info_free(&info);
  return mt_errors_finish(fatal);
}
