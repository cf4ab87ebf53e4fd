// SPDX-License-Identifier: MIT
// Entry points whose int form and large-count form (MPI 4.0 "_c": MPI_Count
// counts, MPI_Aint displacements) differ only in those types, written
// once. Used where the forms would otherwise be pages of the same function
// twice (the collectives, MPI_Isendrecv).
#pragma once

#include <mpi.h>

#include "mpi/detail/pmpi.hpp"

// The types a parameter list names `Count` and `Displ` in each form.
namespace shmpi::mpi::int_forms {
using Count = int;
using Displ = int;
}  // namespace shmpi::mpi::int_forms
namespace shmpi::mpi::c_forms {
using Count = MPI_Count;
using Displ = MPI_Aint;
}  // namespace shmpi::mpi::c_forms

#define SHMPI_UNPAREN(...) __VA_ARGS__

// SHMPI_FORM_DEF(Name, Params, Body) defines PMPI_Name, which returns
// Body: Params is the parenthesised parameter list, and Body may use `fn`,
// the MPI_ name. Put it in one of the namespaces above: a function with C
// language linkage is the same function in whichever namespace it is
// declared ([dcl.link]), so this defines mpi.h's PMPI_Name, and a
// signature that differs from mpi.h's does not compile. GCC does not carry
// mpi.h's visibility over to a declaration in another namespace, hence
// SHMPI_API again.
#define SHMPI_FORM_DEF(Name, Params, Body)                              \
  extern "C" SHMPI_API int PMPI_##Name(SHMPI_UNPAREN Params) noexcept { \
    [[maybe_unused]] constexpr const char* fn = "MPI_" #Name;           \
    return Body;                                                        \
  }

// PMPI_Name with int counts only, and its MPI_Name alias.
#define SHMPI_INT_FORM(Name, Params, Body) \
  namespace shmpi::mpi::int_forms {        \
  SHMPI_FORM_DEF(Name, Params, Body)       \
  }                                        \
  SHMPI_PMPI_ALIAS(MPI_##Name)

// PMPI_Name and PMPI_Name_c from one definition, and their aliases.
#define SHMPI_COUNT_FORMS(Name, Params, Body) \
  SHMPI_INT_FORM(Name, Params, Body);         \
  namespace shmpi::mpi::c_forms {             \
  SHMPI_FORM_DEF(Name##_c, Params, Body)      \
  }                                           \
  SHMPI_PMPI_ALIAS(MPI_##Name##_c)
