// SPDX-License-Identifier: MIT
// The profiling interface: every MPI function is defined once as PMPI_X, and
// MPI_X is a weak alias of it, so a tool can define its own MPI_X that calls
// PMPI_X (MPI 4.0 section 15.2).
#pragma once

#include <mpi.h>

#include <type_traits>

// SHMPI_PMPI_ALIAS(MPI_X) makes MPI_X a weak alias of PMPI_X. Put it at
// namespace scope after the definition of PMPI_X, in the same translation
// unit (the alias needs a definition to point at):
//
//   extern "C" int PMPI_Send(const void* buf, int count, ...) noexcept {
//     ...
//   }
//   SHMPI_PMPI_ALIAS(MPI_Send);
//
// The alias is made by the assembler (.weak + .set), not by
// __attribute__((alias)): GCC's link-time optimisation turns a weak alias
// into a strong definition, and a tool could then no longer interpose
// MPI_X. The static_assert keeps the type check that mpi.h's declaration
// gives: a PMPI_X whose signature differs from MPI_X's does not compile.
// Code inside libshmpi calls PMPI_X (or internal functions), never MPI_X, so
// that a tool's MPI_X sees only the program's calls.
#define SHMPI_PMPI_ALIAS(name)                                       \
  static_assert(std::is_same_v<decltype(&name), decltype(&P##name)>, \
                #name " and P" #name " must have the same type");    \
  __asm__(".weak " #name "\n\t.set " #name ", P" #name)
