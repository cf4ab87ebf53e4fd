// SPDX-License-Identifier: MIT
// MPI 4.0 §10, MPI_INFO_GET_STRING: "buflen on input is the size of the
// provided buffer, for the output of buflen it is the size of the buffer
// needed to store the value string. If the buflen passed into the function
// is less than the actual size needed to store the value string (including
// null terminator in C), the value is truncated. ... If buflen is set to 0,
// value is not changed. In C, buflen includes the required space for the
// null terminator. In C, this function returns a null terminated string in
// all cases where the buflen input value is greater than 0." If the key is
// absent, flag is false and value is left unchanged.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MT_CHECK_MPI(MPI_Info_set(info, "key", "0123456789"));
  char value[32];
  int flag = -1;

  // Large enough: the whole value, buflen = length + 1.
  memset(value, 'X', sizeof value);
  int buflen = (int)sizeof value;
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, value, &flag));
  MT_CHECK(flag == 1 && buflen == 11 && strcmp(value, "0123456789") == 0,
           "full buffer: flag %d buflen %d value \"%s\"", flag, buflen, value);

  // Exactly length + 1.
  memset(value, 'X', sizeof value);
  buflen = 11;
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, value, &flag));
  MT_CHECK(flag == 1 && buflen == 11 && strcmp(value, "0123456789") == 0,
           "exact buffer: flag %d buflen %d value \"%s\"", flag, buflen, value);

  // Too small: truncated to buflen - 1 characters plus the terminator, no
  // byte written past buflen, and buflen says what is needed.
  memset(value, 'X', sizeof value);
  buflen = 5;
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, value, &flag));
  MT_CHECK(flag == 1 && buflen == 11, "short buffer: flag %d buflen %d", flag,
           buflen);
  MT_CHECK(strcmp(value, "0123") == 0 && value[5] == 'X',
           "short buffer: value \"%.5s\", byte 5 '%c'", value, value[5]);

  // buflen 1: just the terminator.
  memset(value, 'X', sizeof value);
  buflen = 1;
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, value, &flag));
  MT_CHECK(flag == 1 && buflen == 11 && value[0] == '\0' && value[1] == 'X',
           "buflen 1: flag %d buflen %d", flag, buflen);

  // buflen 0: the value is not touched, buflen gives the size.
  memset(value, 'X', sizeof value);
  buflen = 0;
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, value, &flag));
  MT_CHECK(flag == 1 && buflen == 11 && value[0] == 'X',
           "buflen 0: flag %d buflen %d byte 0 '%c'", flag, buflen, value[0]);

  // Absent key: flag false, value unchanged.
  memset(value, 'X', sizeof value);
  buflen = (int)sizeof value;
  MT_CHECK_MPI(MPI_Info_get_string(info, "nokey", &buflen, value, &flag));
  MT_CHECK(flag == 0 && value[0] == 'X', "absent key: flag %d byte 0 '%c'",
           flag, value[0]);

  // An empty value needs a buffer of 1.
  MT_CHECK_MPI(MPI_Info_set(info, "empty", ""));
  memset(value, 'X', sizeof value);
  buflen = (int)sizeof value;
  MT_CHECK_MPI(MPI_Info_get_string(info, "empty", &buflen, value, &flag));
  MT_CHECK(flag == 1 && buflen == 1 && value[0] == '\0',
           "empty value: flag %d buflen %d", flag, buflen);

  MPI_Info_free(&info);
  MPI_Finalize();
  return 0;
}
