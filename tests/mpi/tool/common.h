// SPDX-License-Identifier: MIT
// Helpers of the MPI_T variable tests: return-code checks (MPI_T calls
// return codes and never call an error handler) and name lookups.
#ifndef SHMPI_TESTS_MPI_TOOL_COMMON_H_
#define SHMPI_TESTS_MPI_TOOL_COMMON_H_

#include "../../support/mpitest.h"

// The call must return `expected` (an MPI_T code or MPI_SUCCESS).
#define T_EXPECT(call, expected)                                             \
  do {                                                                       \
    const int t_rc_ = (call);                                                \
    MT_CHECK(t_rc_ == (expected), "%s returned %d, expected %s (%d)", #call, \
             t_rc_, #expected, (int)(expected));                             \
  } while (0)

#define T_OK(call) T_EXPECT(call, MPI_SUCCESS)

// Index of a control variable, or -1 if the library has none by that name.
static inline int t_cvar(const char* name) {
  int index = -1;
  return MPI_T_cvar_get_index(name, &index) == MPI_SUCCESS ? index : -1;
}

static inline int t_pvar(const char* name, int var_class) {
  int index = -1;
  return MPI_T_pvar_get_index(name, var_class, &index) == MPI_SUCCESS ? index
                                                                      : -1;
}

#endif  // SHMPI_TESTS_MPI_TOOL_COMMON_H_
