// SPDX-License-Identifier: MIT
// The profiling interface: every MPI function is defined once as PMPI_X, and
// MPI_X is a weak alias of it, so a tool can define its own MPI_X that calls
// PMPI_X (MPI 4.0 section 15.2).
#pragma once

#include <mpi.h>

// SHMPI_PMPI_ALIAS(MPI_X) makes MPI_X a weak alias of PMPI_X. Put it at
// namespace scope after the definition of PMPI_X, in the same translation
// unit (the alias needs a definition to point at):
//
//   extern "C" int PMPI_Send(const void* buf, int count, ...) noexcept {
//     ...
//   }
//   SHMPI_PMPI_ALIAS(MPI_Send);
//
// The alias takes the type of PMPI_X (decltype), and mpi.h has already
// declared MPI_X, so a signature that differs from mpi.h does not compile.
// Code inside libshmpi calls PMPI_X (or internal functions), never MPI_X, so
// that a tool's MPI_X sees only the program's calls.
#define SHMPI_PMPI_ALIAS(name)      \
  extern "C" decltype(P##name) name \
      __attribute__((weak, alias(SHMPI_PMPI_STRINGIFY_(P##name))))
#define SHMPI_PMPI_STRINGIFY_(x) #x
