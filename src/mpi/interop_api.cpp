// SPDX-License-Identifier: MIT
// Language interoperability, MPI 4.0 §19.3.4-5: handles to and from their
// Fortran form (mpi/fortran_handle.hpp: predefined handles are their own
// value, user objects their arena slot above them) and statuses between
// MPI_Status, the INTEGER array and TYPE(MPI_Status), which hold the same
// eight words.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"
#include "mpi/fortran_handle.hpp"
#include "mpi/group.hpp"
#include "mpi/info.hpp"
#include "mpi/message.hpp"
#include "mpi/op.hpp"
#include "mpi/session.hpp"
#include "mpi/window.hpp"

using namespace shmpi::mpi;

namespace {

static_assert(fortran::kFirstUserFint == kPredefinedLimit,
              "predefined handles are their own Fortran handle, so user "
              "objects are numbered above the largest of them");

// Handles are object pointers (the MPI 5.0 ABI); these two are generic
// over the handle kinds.
template <typename Handle>
std::uintptr_t value_of(Handle handle) {
  return reinterpret_cast<std::uintptr_t>(handle);  // NOLINT: ABI handles
}
template <typename Handle>
Handle handle_of(std::uintptr_t value) {
  return reinterpret_cast<Handle>(value);  // NOLINT: ABI handles
}

// c2f: a handle that names no live object (freed, garbage) gives the null
// handle's Fortran form; MPI leaves that case undefined.
template <typename Handle, typename T>
MPI_Fint to_fint(Handle handle, Handle null, const HandleArena<T>& arena) {
  const std::uintptr_t value = value_of(handle);
  if (fortran::is_predefined(value)) {
    return fortran::from_predefined(value);
  }
  if (const T* object = arena.find(handle)) {
    const std::size_t index = arena.index_of(object);
    if (index < fortran::kMaxSlots) {
      return fortran::from_slot(index);
    }
  }
  return fortran::from_predefined(value_of(null));
}

// f2c: a value that names no live object gives the null handle, and a
// small value that is no predefined handle of the kind gives that value,
// which the kind's checks reject as they would in C.
template <typename Handle, typename T>
Handle from_fint(MPI_Fint fint, Handle null, const HandleArena<T>& arena) {
  const fortran::Decoded decoded = fortran::decode(fint);
  switch (decoded.kind) {
    case fortran::Decoded::Kind::kPredefined:
      return handle_of<Handle>(decoded.value);
    case fortran::Decoded::Kind::kSlot:
      if (T* object = arena.at(decoded.value)) {
        return handle_of<Handle>(reinterpret_cast<std::uintptr_t>(object));
      }
      return null;
    case fortran::Decoded::Kind::kNothing:
      break;
  }
  return null;
}

}  // namespace

extern "C" MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) noexcept {
  return to_fint(comm, MPI_COMM_NULL, state().comms);
}
SHMPI_PMPI_ALIAS(MPI_Comm_c2f);

extern "C" MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) noexcept {
  return from_fint(comm, MPI_COMM_NULL, state().comms);
}
SHMPI_PMPI_ALIAS(MPI_Comm_f2c);

extern "C" MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler) noexcept {
  return to_fint(errhandler, MPI_ERRHANDLER_NULL, state().errhandlers);
}
SHMPI_PMPI_ALIAS(MPI_Errhandler_c2f);

extern "C" MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler) noexcept {
  return from_fint(errhandler, MPI_ERRHANDLER_NULL, state().errhandlers);
}
SHMPI_PMPI_ALIAS(MPI_Errhandler_f2c);

extern "C" MPI_Fint PMPI_Group_c2f(MPI_Group group) noexcept {
  return to_fint(group, MPI_GROUP_NULL, group_arena());
}
SHMPI_PMPI_ALIAS(MPI_Group_c2f);

extern "C" MPI_Group PMPI_Group_f2c(MPI_Fint group) noexcept {
  return from_fint(group, MPI_GROUP_NULL, group_arena());
}
SHMPI_PMPI_ALIAS(MPI_Group_f2c);

extern "C" MPI_Fint PMPI_Info_c2f(MPI_Info info) noexcept {
  return to_fint(info, MPI_INFO_NULL, info_arena());
}
SHMPI_PMPI_ALIAS(MPI_Info_c2f);

extern "C" MPI_Info PMPI_Info_f2c(MPI_Fint info) noexcept {
  return from_fint(info, MPI_INFO_NULL, info_arena());
}
SHMPI_PMPI_ALIAS(MPI_Info_f2c);

extern "C" MPI_Fint PMPI_Message_c2f(MPI_Message message) noexcept {
  return to_fint(message, MPI_MESSAGE_NULL, messages());
}
SHMPI_PMPI_ALIAS(MPI_Message_c2f);

extern "C" MPI_Message PMPI_Message_f2c(MPI_Fint message) noexcept {
  return from_fint(message, MPI_MESSAGE_NULL, messages());
}
SHMPI_PMPI_ALIAS(MPI_Message_f2c);

extern "C" MPI_Fint PMPI_Op_c2f(MPI_Op op) noexcept {
  return to_fint(op, MPI_OP_NULL, user_ops());
}
SHMPI_PMPI_ALIAS(MPI_Op_c2f);

extern "C" MPI_Op PMPI_Op_f2c(MPI_Fint op) noexcept {
  return from_fint(op, MPI_OP_NULL, user_ops());
}
SHMPI_PMPI_ALIAS(MPI_Op_f2c);

extern "C" MPI_Fint PMPI_Request_c2f(MPI_Request request) noexcept {
  return to_fint(request, MPI_REQUEST_NULL, state().requests);
}
SHMPI_PMPI_ALIAS(MPI_Request_c2f);

extern "C" MPI_Request PMPI_Request_f2c(MPI_Fint request) noexcept {
  return from_fint(request, MPI_REQUEST_NULL, state().requests);
}
SHMPI_PMPI_ALIAS(MPI_Request_f2c);

extern "C" MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype) noexcept {
  return to_fint(datatype, MPI_DATATYPE_NULL, datatypes());
}
SHMPI_PMPI_ALIAS(MPI_Type_c2f);

extern "C" MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype) noexcept {
  return from_fint(datatype, MPI_DATATYPE_NULL, datatypes());
}
SHMPI_PMPI_ALIAS(MPI_Type_f2c);

extern "C" MPI_Fint PMPI_Win_c2f(MPI_Win win) noexcept {
  return to_fint(win, MPI_WIN_NULL, windows());
}
SHMPI_PMPI_ALIAS(MPI_Win_c2f);

extern "C" MPI_Win PMPI_Win_f2c(MPI_Fint win) noexcept {
  return from_fint(win, MPI_WIN_NULL, windows());
}
SHMPI_PMPI_ALIAS(MPI_Win_f2c);

extern "C" MPI_Fint PMPI_File_c2f(MPI_File file) noexcept {
  return to_fint(file, MPI_FILE_NULL, files());
}
SHMPI_PMPI_ALIAS(MPI_File_c2f);

extern "C" MPI_File PMPI_File_f2c(MPI_Fint file) noexcept {
  return from_fint(file, MPI_FILE_NULL, files());
}
SHMPI_PMPI_ALIAS(MPI_File_f2c);

extern "C" MPI_Fint PMPI_Session_c2f(MPI_Session session) noexcept {
  return to_fint(session, MPI_SESSION_NULL, session_arena());
}
SHMPI_PMPI_ALIAS(MPI_Session_c2f);

extern "C" MPI_Session PMPI_Session_f2c(MPI_Fint session) noexcept {
  return from_fint(session, MPI_SESSION_NULL, session_arena());
}
SHMPI_PMPI_ALIAS(MPI_Session_f2c);

// ---- statuses

namespace {

// The three forms are the same eight words in the same order, so each
// conversion is a copy: MPI_SOURCE, MPI_TAG and MPI_ERROR at the INTEGER
// array's MPI_F_SOURCE / MPI_F_TAG / MPI_F_ERROR, then the count and the
// cancelled flag (mpi/core.cpp, set_status_count) in the hidden words.
static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
              "MPI_Status and INTEGER(MPI_F_STATUS_SIZE) are one size");
static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status),
              "TYPE(MPI_Status) and MPI_Status are one size");
static_assert(
    offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
        offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
        offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
    "the public fields sit at the INTEGER array's indices");
static_assert(offsetof(MPI_F08_status, MPI_SOURCE) ==
                      offsetof(MPI_Status, MPI_SOURCE) &&
                  offsetof(MPI_F08_status, MPI_TAG) ==
                      offsetof(MPI_Status, MPI_TAG) &&
                  offsetof(MPI_F08_status, MPI_ERROR) ==
                      offsetof(MPI_Status, MPI_ERROR) &&
                  offsetof(MPI_F08_status, MPI_internal) ==
                      offsetof(MPI_Status, MPI_internal),
              "TYPE(MPI_Status) mirrors MPI_Status");

// MPI 4.0 §19.3.5: passing MPI_STATUS_IGNORE, MPI_F_STATUS_IGNORE or
// MPI_F08_STATUS_IGNORE (all NULL here) is erroneous; MPI_ERR_ARG on
// MPI_COMM_SELF, as for every error tied to no object.
int convert(const void* from, const char* from_name, void* to,
            const char* to_name, const char* function) noexcept {
  if (from == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "%s is NULL (a status-ignore constant)", from_name);
  }
  if (to == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "%s is NULL (a status-ignore constant)", to_name);
  }
  std::memmove(to, from, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Status_c2f(const MPI_Status* c_status,
                               MPI_Fint* f_status) noexcept {
  return convert(c_status, "c_status", f_status, "f_status", "MPI_Status_c2f");
}
SHMPI_PMPI_ALIAS(MPI_Status_c2f);

extern "C" int PMPI_Status_f2c(const MPI_Fint* f_status,
                               MPI_Status* c_status) noexcept {
  return convert(f_status, "f_status", c_status, "c_status", "MPI_Status_f2c");
}
SHMPI_PMPI_ALIAS(MPI_Status_f2c);

extern "C" int PMPI_Status_c2f08(const MPI_Status* c_status,
                                 MPI_F08_status* f08_status) noexcept {
  return convert(c_status, "c_status", f08_status, "f08_status",
                 "MPI_Status_c2f08");
}
SHMPI_PMPI_ALIAS(MPI_Status_c2f08);

extern "C" int PMPI_Status_f082c(const MPI_F08_status* f08_status,
                                 MPI_Status* c_status) noexcept {
  return convert(f08_status, "f08_status", c_status, "c_status",
                 "MPI_Status_f082c");
}
SHMPI_PMPI_ALIAS(MPI_Status_f082c);

extern "C" int PMPI_Status_f082f(const MPI_F08_status* f08_status,
                                 MPI_Fint* f_status) noexcept {
  return convert(f08_status, "f08_status", f_status, "f_status",
                 "MPI_Status_f082f");
}
SHMPI_PMPI_ALIAS(MPI_Status_f082f);

extern "C" int PMPI_Status_f2f08(const MPI_Fint* f_status,
                                 MPI_F08_status* f08_status) noexcept {
  return convert(f_status, "f_status", f08_status, "f08_status",
                 "MPI_Status_f2f08");
}
SHMPI_PMPI_ALIAS(MPI_Status_f2f08);
