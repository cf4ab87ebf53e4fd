// SPDX-License-Identifier: MIT
// Error handlers of files (MPI 4.0 §9.3.3, §9.5, §14.7):
// MPI_File_create_errhandler, MPI_File_set_errhandler, MPI_File_get_errhandler
// and MPI_File_call_errhandler.
//
// MPI_FILE_NULL has a handler too, the default file error handler: the one
// errors tied to no file use (MPI_File_open, MPI_File_delete, a bad file
// handle) and the one a file gets when it is opened. The set, get and call
// functions take MPI_FILE_NULL for it (§14.7). A handler is counted once
// for each file holding it, once for MPI_FILE_NULL while it is the default
// and once for each handle the program got, so that MPI_Errhandler_free
// frees it only when the last of them lets go.
#include <mpi.h>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"

using namespace shmpi::mpi;

namespace {

// The handler of `handle`: a live file's or, for MPI_FILE_NULL, the
// default. *file is nullptr for MPI_FILE_NULL.
int find_handler_owner(MPI_File handle, File** file, MPI_Errhandler** slot,
                       const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (handle == MPI_FILE_NULL) {
    *file = nullptr;
    *slot = &default_file_errhandler();
    return MPI_SUCCESS;
  }
  if (int rc = check_file(handle, file, function); rc != MPI_SUCCESS) {
    return rc;
  }
  *slot = &(*file)->errhandler;
  return MPI_SUCCESS;
}

// What kind of object a user handler that is no file handler was made
// for, for the message.
const char* maker_of(const Errhandler& user) {
  if (user.function != nullptr) {
    return "MPI_Comm_create_errhandler";
  }
  if (user.win_function != nullptr) {
    return "MPI_Win_create_errhandler";
  }
  return "MPI_Session_create_errhandler";
}

}  // namespace

extern "C" int PMPI_File_create_errhandler(
    MPI_File_errhandler_function* file_errhandler_fn,
    MPI_Errhandler* errhandler) noexcept {
  constexpr const char* kFunction = "MPI_File_create_errhandler";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // Tied to no file: raised on MPI_COMM_SELF, as for the other kinds.
  if (file_errhandler_fn == nullptr || errhandler == nullptr) {
    return fail(
        nullptr, MPI_ERR_ARG, kFunction, "%s is NULL",
        file_errhandler_fn == nullptr ? "file_errhandler_fn" : "errhandler");
  }
  Errhandler* created = state().errhandlers.create();
  if (created == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction, "out of handles");
  }
  created->file_function = file_errhandler_fn;
  *errhandler = reinterpret_cast<MPI_Errhandler>(
      created);  // NOLINT: handle is the object
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_create_errhandler);

extern "C" int PMPI_File_set_errhandler(MPI_File file,
                                        MPI_Errhandler errhandler) noexcept {
  constexpr const char* kFunction = "MPI_File_set_errhandler";
  File* f = nullptr;
  MPI_Errhandler* slot = nullptr;
  if (int rc = find_handler_owner(file, &f, &slot, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  // A predefined handler, or one made by MPI_File_create_errhandler
  // (MPI 4.0 §9.3.3); MPICH 4.0.2 raises MPI_ERR_ARG for the others too.
  if (!is_errhandler(errhandler)) {
    return errhandler == MPI_ERRHANDLER_NULL
               ? fail_file(f, MPI_ERR_ARG, kFunction,
                           "errhandler is MPI_ERRHANDLER_NULL")
               : fail_file(f, MPI_ERR_ARG, kFunction,
                           "invalid error handler %p",
                           static_cast<void*>(errhandler));
  }
  if (const Errhandler* user = state().errhandlers.find(errhandler);
      user != nullptr && user->file_function == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction,
                     "the error handler was made by %s, not by "
                     "MPI_File_create_errhandler",
                     maker_of(*user));
  }
  retain_errhandler(errhandler);
  release_errhandler(*slot);
  *slot = errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_set_errhandler);

extern "C" int PMPI_File_get_errhandler(MPI_File file,
                                        MPI_Errhandler* errhandler) noexcept {
  constexpr const char* kFunction = "MPI_File_get_errhandler";
  File* f = nullptr;
  MPI_Errhandler* slot = nullptr;
  if (int rc = find_handler_owner(file, &f, &slot, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (errhandler == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "errhandler is NULL");
  }
  retain_errhandler(*slot);  // the program frees what it gets
  *errhandler = *slot;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_errhandler);

// On MPI_FILE_NULL the default handler runs, and a user handler gets
// MPI_FILE_NULL, as for the errors of MPI_File_open (MPICH does the same).
extern "C" int PMPI_File_call_errhandler(MPI_File fh, int errorcode) noexcept {
  constexpr const char* kFunction = "MPI_File_call_errhandler";
  File* f = nullptr;
  MPI_Errhandler* slot = nullptr;
  if (int rc = find_handler_owner(fh, &f, &slot, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  // MPI_SUCCESS once the handler has returned (MPI 4.0 §9.5), whatever
  // the code.
  raise_file_code(f, errorcode, kFunction);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_call_errhandler);
