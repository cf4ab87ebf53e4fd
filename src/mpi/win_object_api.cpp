// SPDX-License-Identifier: MIT
// What a window is, apart from its memory and its epochs (MPI 4.0 §12.2.6,
// §12.2.7, §7.7.3, §9.3.2): its group, its name, its cached attributes
// (the predefined MPI_WIN_BASE, _SIZE, _DISP_UNIT, _CREATE_FLAVOR and
// _MODEL, and the program's own under MPI_Win_create_keyval's keyvals),
// and its error handler. MPI_Win_set_info / _get_info are with the other
// info calls (mpi/info_api.cpp).
#include <mpi.h>

#include <cstring>
#include <vector>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/errors.hpp"
#include "mpi/group.hpp"
#include "mpi/keyval.hpp"
#include "mpi/window.hpp"

using namespace shmpi::mpi;

// ------------------------------------------------------------ group, name

extern "C" int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) noexcept {
  constexpr const char* kFunction = "MPI_Win_get_group";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (group == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "group is NULL");
  }
  if (int rc = make_group(w->comm->lpids, group); rc != MPI_SUCCESS) {
    return fail_win(w, rc, kFunction, "out of group handles");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_get_group);

extern "C" int PMPI_Win_set_name(MPI_Win win, const char* win_name) noexcept {
  constexpr const char* kFunction = "MPI_Win_set_name";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (win_name == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "win_name is NULL");
  }
  // Longer names are cut to what MPI_Win_get_name can return.
  w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_set_name);

extern "C" int PMPI_Win_get_name(MPI_Win win, char* win_name,
                                 int* resultlen) noexcept {
  constexpr const char* kFunction = "MPI_Win_get_name";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (win_name == nullptr || resultlen == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "%s is NULL",
                    win_name == nullptr ? "win_name" : "resultlen");
  }
  *resultlen = copy_string(w->name, win_name,
                           static_cast<std::size_t>(MPI_MAX_OBJECT_NAME));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_get_name);

// ------------------------------------------------------------ attributes

namespace {

bool is_predefined_win_keyval(int keyval) {
  return keyval == MPI_WIN_BASE || keyval == MPI_WIN_SIZE ||
         keyval == MPI_WIN_DISP_UNIT || keyval == MPI_WIN_CREATE_FLAVOR ||
         keyval == MPI_WIN_MODEL;
}

// The predefined attributes' values: MPI_WIN_BASE is the address itself,
// the others point to the value (MPI 4.0 §12.2.6), which the window keeps.
void* predefined_value(Window& w, int keyval) {
  static constexpr int kModel = MPI_WIN_UNIFIED;
  switch (keyval) {
    case MPI_WIN_BASE:
      return w.base;
    case MPI_WIN_SIZE:
      return &w.local_size;
    case MPI_WIN_DISP_UNIT:
      return &w.disp_unit;
    case MPI_WIN_CREATE_FLAVOR:
      return &w.flavor;
    default:
      return const_cast<int*>(&kModel);  // NOLINT: the program only reads it
  }
}

// A valid window, and a keyval for windows that the program may still use
// (`live`: also one it freed while attributes still use it, which MPI 4.0
// §7.7.2 lets it read and delete).
int check_win_and_keyval(MPI_Win win, int keyval, bool live, Window** out,
                         const char* function) {
  if (int rc = check_win(win, out, function); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool valid = live ? is_live_keyval(keyval, AttrKind::kWin)
                          : is_keyval(keyval, AttrKind::kWin);
  if (!valid) {
    return fail_win(*out, MPI_ERR_KEYVAL, function,
                    "keyval %d is not a window keyval", keyval);
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Win_create_keyval(
    MPI_Win_copy_attr_function* win_copy_attr_fn,
    MPI_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval,
    void* extra_state) noexcept {
  constexpr const char* kFunction = "MPI_Win_create_keyval";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (win_keyval == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "win_keyval is NULL");
  }
  if (create_win_keyval(win_copy_attr_fn, win_delete_attr_fn, extra_state,
                        win_keyval) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction, "out of keyvals");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_create_keyval);

extern "C" int PMPI_Win_free_keyval(int* win_keyval) noexcept {
  constexpr const char* kFunction = "MPI_Win_free_keyval";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (win_keyval == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "win_keyval is NULL");
  }
  if (!is_keyval(*win_keyval, AttrKind::kWin)) {
    return fail(nullptr, MPI_ERR_KEYVAL, kFunction,
                is_predefined_win_keyval(*win_keyval)
                    ? "keyval %d is predefined and cannot be freed"
                    : "keyval %d is not a window keyval",
                *win_keyval);
  }
  if (free_win_keyval(*win_keyval) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction, "out of memory");
  }
  *win_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_free_keyval);

extern "C" int PMPI_Win_set_attr(MPI_Win win, int win_keyval,
                                 void* attribute_val) noexcept {
  constexpr const char* kFunction = "MPI_Win_set_attr";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (is_predefined_win_keyval(win_keyval)) {
    return fail_win(w, MPI_ERR_KEYVAL, kFunction,
                    "keyval %d is predefined and cannot be set", win_keyval);
  }
  if (int rc = check_win_and_keyval(win, win_keyval, false, &w, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc =
          set_attr(AttrHost{win, w->attributes}, win_keyval, attribute_val);
      rc != MPI_SUCCESS) {
    return raise_win_code(w, rc, kFunction);  // the delete callback's code
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_set_attr);

extern "C" int PMPI_Win_get_attr(MPI_Win win, int win_keyval,
                                 void* attribute_val, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_Win_get_attr";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (attribute_val == nullptr || flag == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "%s is NULL",
                    attribute_val == nullptr ? "attribute_val" : "flag");
  }
  void* found = nullptr;
  bool present = true;
  if (is_predefined_win_keyval(win_keyval)) {
    found = predefined_value(*w, win_keyval);
  } else {
    if (int rc = check_win_and_keyval(win, win_keyval, true, &w, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    present = get_attr(w->attributes, win_keyval, &found);
  }
  if (present) {
    // attribute_val is really a void**.
    std::memcpy(attribute_val, &found, sizeof found);
  }
  *flag = present ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_get_attr);

extern "C" int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) noexcept {
  constexpr const char* kFunction = "MPI_Win_delete_attr";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (is_predefined_win_keyval(win_keyval)) {
    return fail_win(w, MPI_ERR_KEYVAL, kFunction,
                    "keyval %d is predefined and cannot be deleted",
                    win_keyval);
  }
  if (int rc = check_win_and_keyval(win, win_keyval, true, &w, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = delete_attr(AttrHost{win, w->attributes}, win_keyval);
      rc != MPI_SUCCESS) {
    return raise_win_code(w, rc, kFunction);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_delete_attr);

// ------------------------------------------------------------ error handlers

extern "C" int PMPI_Win_create_errhandler(
    MPI_Win_errhandler_function* win_errhandler_fn,
    MPI_Errhandler* errhandler) noexcept {
  constexpr const char* kFunction = "MPI_Win_create_errhandler";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (win_errhandler_fn == nullptr || errhandler == nullptr) {
    return fail(
        nullptr, MPI_ERR_ARG, kFunction, "%s is NULL",
        win_errhandler_fn == nullptr ? "win_errhandler_fn" : "errhandler");
  }
  Errhandler* created = state().errhandlers.create();
  if (created == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction, "out of handles");
  }
  created->win_function = win_errhandler_fn;
  *errhandler = reinterpret_cast<MPI_Errhandler>(
      created);  // NOLINT: handle is the object
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_create_errhandler);

extern "C" int PMPI_Win_set_errhandler(MPI_Win win,
                                       MPI_Errhandler errhandler) noexcept {
  constexpr const char* kFunction = "MPI_Win_set_errhandler";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  const Errhandler* user = state().errhandlers.find(errhandler);
  if (!is_errhandler(errhandler) ||
      (user != nullptr && user->win_function == nullptr)) {
    return fail_win(w, MPI_ERR_ARG, kFunction,
                    "invalid error handler (not one made by "
                    "MPI_Win_create_errhandler)");
  }
  retain_errhandler(errhandler);
  release_errhandler(w->errhandler);
  w->errhandler = errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_set_errhandler);

extern "C" int PMPI_Win_get_errhandler(MPI_Win win,
                                       MPI_Errhandler* errhandler) noexcept {
  constexpr const char* kFunction = "MPI_Win_get_errhandler";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (errhandler == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "errhandler is NULL");
  }
  retain_errhandler(w->errhandler);  // the program frees what it gets
  *errhandler = w->errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_get_errhandler);

extern "C" int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) noexcept {
  constexpr const char* kFunction = "MPI_Win_call_errhandler";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  raise_win_code(w, errorcode, kFunction);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_call_errhandler);
