/* SPDX-License-Identifier: MIT */
/* mpi.h compiled as C11: layouts and values checked at compile time, plus a
 * few calls from C, reported to header_test.cpp through one function. */
#include <mpi.h>
#include <stddef.h>

_Static_assert(sizeof(MPI_Status) == 8 * sizeof(int), "ABI status layout");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == 0, "ABI status layout");
_Static_assert(offsetof(MPI_Status, MPI_TAG) == sizeof(int),
               "ABI status layout");
_Static_assert(offsetof(MPI_Status, MPI_ERROR) == 2 * sizeof(int),
               "ABI status layout");
_Static_assert(sizeof(MPI_Aint) == sizeof(void*), "MPI_Aint is intptr_t");
_Static_assert(sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8,
               "64-bit counts and offsets");
_Static_assert(sizeof(MPI_Comm) == sizeof(void*), "handles are pointers");
_Static_assert(MPI_VERSION == 4 && MPI_SUBVERSION == 0, "MPI 4.0");
_Static_assert(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
                   MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
                   MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
               "thread levels are ordered");
_Static_assert(MPI_ANY_SOURCE < 0 && MPI_ANY_TAG < 0 && MPI_PROC_NULL < 0 &&
                   MPI_ROOT < 0 && MPI_UNDEFINED < 0,
               "sentinels are negative");

/* Returns 0 when the C view of the header agrees with the checks, else the
 * number of the first failing check. */
int shmpi_header_c_check(void) {
  char name[MPI_MAX_PROCESSOR_NAME];
  char error[MPI_MAX_ERROR_STRING];
  int length = 0;
  int version = 0;
  int subversion = 0;
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Datatype type = MPI_DOUBLE;
  MPI_Status* status = MPI_STATUS_IGNORE;
  MPI_Comm_copy_attr_function* copy = MPI_COMM_DUP_FN;
  void* value = 0;
  int flag = 0;

  if ((intptr_t)comm != 0x101 || (intptr_t)type != 0x214)
    return 1;
  if (status != 0 || MPI_BOTTOM != 0 || MPI_IN_PLACE == MPI_BOTTOM)
    return 2;
  if (MPI_Get_version(&version, &subversion) != MPI_SUCCESS)
    return 3;
  if (version != MPI_VERSION || subversion != MPI_SUBVERSION)
    return 4;
  if (PMPI_Get_processor_name(name, &length) != MPI_SUCCESS || length <= 0) {
    return 5;
  }
  if (MPI_Error_string(MPI_ERR_TRUNCATE, error, &length) != MPI_SUCCESS) {
    return 6;
  }
  if (MPI_Wtime() <= 0.0 || MPI_Wtick() <= 0.0)
    return 7;
  if (copy(comm, 1, 0, &flag, &value, &flag) != MPI_SUCCESS)
    return 8;
  if (value != &flag || flag != 1)
    return 9;
  return 0;
}
