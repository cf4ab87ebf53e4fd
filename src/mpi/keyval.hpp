// SPDX-License-Identifier: MIT
// Attribute caching (MPI 4.0 section 7.7): keyvals and the attributes in
// Comm::attributes and Datatype::attributes. The MPI_Comm_*_attr / *_keyval
// entry points (mpi/attr_api.cpp) and the MPI_Type_* ones
// (mpi/type_attr_api.cpp) check arguments and call these; communicator
// creation and destruction call copy_comm_attributes() and
// delete_comm_attributes(), MPI_Type_dup and MPI_Type_free
// copy_attributes() and delete_attributes().
//
// A keyval is an int handle into a table private to keyval.cpp. Each
// attribute holds a reference on its keyval, and so does the user's handle
// until MPI_Comm_free_keyval: a keyval freed while attributes still use it
// keeps its callbacks until the last of them is deleted (MPI 4.0 section
// 7.7.2). Until then its handle is still accepted by MPI_Comm_get_attr and
// MPI_Comm_delete_attr, since the standard has the program free those
// attributes "via calls to MPI_COMM_DELETE_ATTR" or MPI_COMM_FREE; setting
// new attributes under it is refused.
//
// Callbacks run without any lock held, so they may call MPI functions,
// including attribute functions on the same communicator: every loop here
// works on a snapshot or looks the attribute up again after a callback.
//
// Thread safety: the keyval table has its own mutex. The attribute list of
// one communicator is not locked: as for other changes to one object, the
// program must not set or delete attributes of the same communicator from
// two threads at once.
#pragma once

#include <mpi.h>

#include <vector>

#include "mpi/core.hpp"

namespace shmpi::mpi {

// The kind of object a keyval is for: a keyval made by
// MPI_Comm_create_keyval is refused on a datatype or a window, and so on.
enum class AttrKind : unsigned char { kComm, kType, kWin };

// An object's attribute list and the handle its callbacks are given (an
// MPI_Comm or an MPI_Datatype, after the keyval's kind).
struct AttrHost {
  void* handle;
  std::vector<Attribute>& list;
};

// The generic forms of the calls below, for any kind of object.
bool is_keyval(int keyval, AttrKind kind) noexcept;
bool is_live_keyval(int keyval, AttrKind kind) noexcept;
int set_attr(const AttrHost& host, int keyval, void* value) noexcept;
bool get_attr(const std::vector<Attribute>& list, int keyval,
              void** value) noexcept;
int delete_attr(const AttrHost& host, int keyval) noexcept;
int copy_attributes(const AttrHost& old, const AttrHost& fresh) noexcept;
int delete_attributes(const AttrHost& host) noexcept;

// MPI_Type_create_keyval and MPI_Type_free_keyval, as for communicators
// below.
int create_type_keyval(MPI_Type_copy_attr_function* copy,
                       MPI_Type_delete_attr_function* del, void* extra_state,
                       int* keyval) noexcept;
int free_type_keyval(int keyval) noexcept;
// MPI_Win_create_keyval and MPI_Win_free_keyval. Windows are never
// duplicated, so their copy callbacks never run.
int create_win_keyval(MPI_Win_copy_attr_function* copy,
                      MPI_Win_delete_attr_function* del, void* extra_state,
                      int* keyval) noexcept;
int free_win_keyval(int keyval) noexcept;

// Predefined attribute keys (MPI_TAG_UB .. MPI_LASTUSEDCODE). They are read
// through MPI_Comm_get_attr; they cannot be set, deleted or freed.
bool is_predefined_comm_keyval(int keyval) noexcept;

// A keyval the program may use on communicators: created by
// create_comm_keyval() and not yet freed by the program.
bool is_comm_keyval(int keyval) noexcept;

// A keyval that still exists: is_comm_keyval(), or freed by the program
// while attributes still use it. Such attributes may be read and deleted.
bool is_live_comm_keyval(int keyval) noexcept;

// Creates a keyval with the given callbacks (nullptr copy: never copied,
// like MPI_COMM_NULL_COPY_FN; nullptr delete: nothing to call). Returns
// MPI_SUCCESS, or MPI_ERR_NO_MEM when the table is full.
int create_comm_keyval(MPI_Comm_copy_attr_function* copy,
                       MPI_Comm_delete_attr_function* del, void* extra_state,
                       int* keyval) noexcept;

// Drops the program's reference (MPI_Comm_free_keyval). Returns
// MPI_ERR_KEYVAL when is_comm_keyval(keyval) is false.
int free_comm_keyval(int keyval) noexcept;

// Attaches `value` under `keyval` (a keyval for which is_comm_keyval() is
// true). An existing value is passed to the delete callback first and is
// kept if the callback fails; otherwise the attribute counts as set anew
// (last in the set order). Returns MPI_SUCCESS, the callback's error code,
// or MPI_ERR_NO_MEM.
int set_comm_attr(Comm& comm, int keyval, void* value) noexcept;

// The value cached under `keyval`, if any.
bool get_comm_attr(const Comm& comm, int keyval, void** value) noexcept;

// Runs the delete callback and removes the attribute; an absent attribute
// is not an error (as in MPICH). Returns MPI_SUCCESS or the callback's
// error code, in which case the attribute stays.
int delete_comm_attr(Comm& comm, int keyval) noexcept;

// For MPI_Comm_dup, MPI_Comm_idup and MPI_Comm_dup_with_info, after the new
// communicator exists (newcomm.handle set) and before the program sees it;
// newcomm has no attributes yet. Runs each copy callback of oldcomm's
// attributes in the order they were set (MPI_COMM_NULL_COPY_FN,
// MPI_COMM_DUP_FN and user functions alike) and attaches the copies whose
// flag is true. Returns MPI_SUCCESS, MPI_ERR_NO_MEM, or the first failing
// callback's error code; on failure the copies already attached are
// deleted again (delete callbacks run) and newcomm has no attribute.
int copy_comm_attributes(Comm& oldcomm, Comm& newcomm) noexcept;

// For MPI_Comm_idup and MPI_Comm_idup_with_info, in the call: runs the
// copy callbacks as copy_comm_attributes() does but keeps the copies in
// `copies` (each with a reference on its keyval), to be moved into the
// new communicator's list when the agreement on its context ID completes.
// That happens inside the progress engine, where no user callback may
// run: a callback that calls MPI there would re-enter the engine and the
// idup's own task. Returns MPI_SUCCESS, MPI_ERR_NO_MEM or the first
// failing callback's code; on failure `copies` is emptied as by
// drop_staged_attributes().
int stage_comm_attributes(Comm& oldcomm,
                          std::vector<Attribute>& copies) noexcept;

// Releases staged copies that will never reach a communicator (the idup
// failed): their keyval references only. Their delete callbacks do not run,
// as there is no communicator to run them on.
void drop_staged_attributes(std::vector<Attribute>& copies) noexcept;

// For MPI_Comm_free and MPI_Finalize (MPI_COMM_SELF first: MPI 4.0,
// "Allowing User Functions at Process Termination"): runs the delete callback
// of every attribute, most recently set first, and removes them all, even when
// a callback fails (the communicator is going away; MPICH 4.0.2 also carries
// on). Returns MPI_SUCCESS or the first failing callback's error code.
int delete_comm_attributes(Comm& comm) noexcept;

}  // namespace shmpi::mpi
