// SPDX-License-Identifier: MIT
// The MPI_Info_* entry points, MPI_Comm_set_info / MPI_Comm_get_info and
// MPI_Win_set_info / MPI_Win_get_info.
// The info calls may run before MPI_Init and after MPI_Finalize (MPI 4.0),
// so they never call check_initialized(); their errors are not tied to a
// communicator and go to fail(nullptr, ...).
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string_view>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/window.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// Runs an entry point's body; memory exhaustion becomes MPI_ERR_NO_MEM.
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(nullptr, MPI_ERR_NO_MEM, function, "out of memory");
  }
}

// MPI_ERR_INFO, "invalid info argument" (MPI 4.0 section 9.4), for
// MPI_INFO_NULL and garbage alike; MPICH 4.0.2 says MPI_ERR_ARG instead.
int check_info(Comm* comm, MPI_Info handle, Info** out, const char* function) {
  Info* info = find_info(handle);
  if (info == nullptr) {
    if (handle == MPI_INFO_NULL) {
      return fail(comm, MPI_ERR_INFO, function, "info is MPI_INFO_NULL");
    }
    return fail(comm, MPI_ERR_INFO, function, "invalid info handle %p",
                static_cast<void*>(handle));
  }
  *out = info;
  return MPI_SUCCESS;
}

// A key is 1 .. kMaxInfoKeyLength characters (MPICH also refuses the
// empty key and NULL with MPI_ERR_INFO_KEY).
int check_key(const char* key, const char* function) {
  if (key == nullptr) {
    return fail(nullptr, MPI_ERR_INFO_KEY, function, "key is NULL");
  }
  const std::size_t length = strnlen(key, kMaxInfoKeyLength + 1);
  if (length == 0) {
    return fail(nullptr, MPI_ERR_INFO_KEY, function, "key is empty");
  }
  if (length > kMaxInfoKeyLength) {
    return fail(nullptr, MPI_ERR_INFO_KEY, function,
                "key longer than MPI_MAX_INFO_KEY - 1 (%zu) characters",
                kMaxInfoKeyLength);
  }
  return MPI_SUCCESS;
}

int check_value(const char* value, const char* function) {
  if (value == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "value is NULL");
  }
  if (strnlen(value, kMaxInfoValueLength + 1) > kMaxInfoValueLength) {
    return fail(nullptr, MPI_ERR_INFO_VALUE, function,
                "value longer than MPI_MAX_INFO_VAL - 1 (%zu) characters",
                kMaxInfoValueLength);
  }
  return MPI_SUCCESS;
}

int check_info_and_key(MPI_Info handle, const char* key, Info** out,
                       const char* function) {
  if (int rc = check_info(nullptr, handle, out, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_key(key, function);
}

int null_argument(const char* name, const char* function) {
  return fail(nullptr, MPI_ERR_ARG, function, "%s is NULL", name);
}

// Copies at most `capacity - 1` characters and a NUL (capacity > 0).
void copy_out(const std::string& text, char* out, std::size_t capacity) {
  const std::size_t length = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), length);
  out[length] = '\0';
}

// A new info object holding `entries`, stored through `out`.
int new_info(InfoEntries entries, MPI_Info* out, const char* function) {
  Info* info = create_info();
  if (info == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, function, "out of info handles");
  }
  info->entries = std::move(entries);
  *out = to_handle(info);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Info_create(MPI_Info* info) noexcept {
  constexpr const char* kFunction = "MPI_Info_create";
  if (info == nullptr) {
    return null_argument("info", kFunction);
  }
  return guarded(kFunction,
                 [&]() -> int { return new_info({}, info, kFunction); });
}
SHMPI_PMPI_ALIAS(MPI_Info_create);

extern "C" int PMPI_Info_create_env(int argc, char* argv[],
                                    MPI_Info* info) noexcept {
  constexpr const char* kFunction = "MPI_Info_create_env";
  if (info == nullptr) {
    return null_argument("info", kFunction);
  }
  return guarded(kFunction, [&]() -> int {
    return new_info(environment_entries(argc, argv), info, kFunction);
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_create_env);

extern "C" int PMPI_Info_set(MPI_Info info, const char* key,
                             const char* value) noexcept {
  constexpr const char* kFunction = "MPI_Info_set";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info_and_key(info, key, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (int rc = check_value(value, kFunction); rc != MPI_SUCCESS) {
      return rc;
    }
    found->set(key, value);
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_set);

extern "C" int PMPI_Info_delete(MPI_Info info, const char* key) noexcept {
  constexpr const char* kFunction = "MPI_Info_delete";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info_and_key(info, key, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (!found->erase(key)) {
      return fail(nullptr, MPI_ERR_INFO_NOKEY, kFunction,
                  "key \"%.64s\" is not in the info object", key);
    }
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_delete);

// Deprecated in MPI 4.0 in favour of MPI_Info_get_string. valuelen leaves
// room for the NUL; a longer value is truncated, which is not an error
// (MPICH 4.0.2 reports MPI_ERR_INFO_VALUE).
extern "C" int PMPI_Info_get(MPI_Info info, const char* key, int valuelen,
                             char* value, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_Info_get";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info_and_key(info, key, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (valuelen < 0) {
      return fail(nullptr, MPI_ERR_ARG, kFunction, "negative valuelen %d",
                  valuelen);
    }
    if (value == nullptr || flag == nullptr) {
      return null_argument(value == nullptr ? "value" : "flag", kFunction);
    }
    const std::string* text = found->find(key);
    *flag = text != nullptr ? 1 : 0;
    if (text != nullptr) {
      copy_out(*text, value, static_cast<std::size_t>(valuelen) + 1);
    }
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_get);

// MPI 4.0: *buflen is the buffer size including the NUL; on return it is
// the size the whole value needs. With *buflen == 0 the value is not
// touched (and may be NULL, as MPI 4.0 allows and MPICH 4.0.2 refuses). An
// absent key leaves *buflen and the value alone (as in MPICH).
extern "C" int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen,
                                    char* value, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_Info_get_string";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info_and_key(info, key, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (buflen == nullptr) {
      return null_argument("buflen", kFunction);
    }
    if (*buflen < 0) {
      return fail(nullptr, MPI_ERR_ARG, kFunction, "negative buflen %d",
                  *buflen);
    }
    if ((value == nullptr && *buflen > 0) || flag == nullptr) {
      return null_argument(flag == nullptr ? "flag" : "value", kFunction);
    }
    const std::string* text = found->find(key);
    *flag = text != nullptr ? 1 : 0;
    if (text != nullptr) {
      if (*buflen > 0) {
        copy_out(*text, value, static_cast<std::size_t>(*buflen));
      }
      *buflen = static_cast<int>(text->size()) + 1;
    }
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_get_string);

extern "C" int PMPI_Info_get_valuelen(MPI_Info info, const char* key,
                                      int* valuelen, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_Info_get_valuelen";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info_and_key(info, key, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (valuelen == nullptr || flag == nullptr) {
      return null_argument(valuelen == nullptr ? "valuelen" : "flag",
                           kFunction);
    }
    const std::string* text = found->find(key);
    *flag = text != nullptr ? 1 : 0;
    if (text != nullptr) {
      *valuelen = static_cast<int>(text->size());  // without the NUL
    }
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_get_valuelen);

extern "C" int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) noexcept {
  constexpr const char* kFunction = "MPI_Info_get_nkeys";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info(nullptr, info, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (nkeys == nullptr) {
      return null_argument("nkeys", kFunction);
    }
    *nkeys = static_cast<int>(found->entries.size());
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_get_nkeys);

// `key` must hold MPI_MAX_INFO_KEY characters, which fits any key.
extern "C" int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) noexcept {
  constexpr const char* kFunction = "MPI_Info_get_nthkey";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info(nullptr, info, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    const int nkeys = static_cast<int>(found->entries.size());
    if (n < 0 || n >= nkeys) {
      return fail(nullptr, MPI_ERR_ARG, kFunction,
                  "n = %d is not in 0..nkeys-1 (nkeys = %d)", n, nkeys);
    }
    if (key == nullptr) {
      return null_argument("key", kFunction);
    }
    copy_out(found->entries[static_cast<std::size_t>(n)].first, key,
             MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_get_nthkey);

extern "C" int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) noexcept {
  constexpr const char* kFunction = "MPI_Info_dup";
  return guarded(kFunction, [&]() -> int {
    Info* found = nullptr;
    if (int rc = check_info(nullptr, info, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (newinfo == nullptr) {
      return null_argument("newinfo", kFunction);
    }
    return new_info(found->entries, newinfo, kFunction);
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_dup);

// MPI_INFO_ENV is predefined and stays (MPICH 4.0.2 lets it be freed).
extern "C" int PMPI_Info_free(MPI_Info* info) noexcept {
  constexpr const char* kFunction = "MPI_Info_free";
  return guarded(kFunction, [&]() -> int {
    if (info == nullptr) {
      return null_argument("info", kFunction);
    }
    Info* found = nullptr;
    if (int rc = check_info(nullptr, *info, &found, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (is_env_info(found)) {
      return fail(nullptr, MPI_ERR_INFO, kFunction,
                  "MPI_INFO_ENV is predefined and cannot be freed");
    }
    destroy_info(found);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Info_free);

// ---- communicator hints (the kept ones are listed in mpi/info.hpp)

extern "C" int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) noexcept {
  constexpr const char* kFunction = "MPI_Comm_set_info";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  Info* found = nullptr;
  if (int rc = check_info(c, info, &found, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  try {
    merge_comm_hints(*found, &c->hints);
  } catch (const std::bad_alloc&) {
    return fail(c, MPI_ERR_NO_MEM, kFunction, "out of memory");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_set_info);

extern "C" int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) noexcept {
  constexpr const char* kFunction = "MPI_Comm_get_info";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (info_used == nullptr) {
    return fail(c, MPI_ERR_ARG, kFunction, "info_used is NULL");
  }
  return guarded(kFunction, [&]() -> int {
    return new_info(comm_info_entries(c->hints), info_used, kFunction);
  });
}
SHMPI_PMPI_ALIAS(MPI_Comm_get_info);

// ------------------------------------------------------------ windows

namespace {

// The window hints shmpi knows, with the values in effect when the program
// gave none (MPI 4.0 §12.2.1; every one is correct for any use, since every
// RMA operation completes in its call).
struct WinHint {
  const char* key;
  const char* fallback;
};
constexpr WinHint kWinHints[] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"mpi_accumulate_granularity", "0"},
};

InfoEntries win_info_entries(const Window& w) {
  InfoEntries entries;
  auto given = [&w](std::string_view key) -> const std::string* {
    for (const auto& [k, v] : w.hints) {
      if (k == key) {
        return &v;
      }
    }
    return nullptr;
  };
  for (const WinHint& hint : kWinHints) {
    const std::string* value = given(hint.key);
    entries.emplace_back(hint.key, value != nullptr ? *value : hint.fallback);
  }
  if (w.flavor == MPI_WIN_FLAVOR_SHARED) {
    const std::string* value = given("alloc_shared_noncontig");
    entries.emplace_back("alloc_shared_noncontig",
                         value != nullptr ? *value : "false");
  }
  return entries;
}

}  // namespace

extern "C" int PMPI_Win_set_info(MPI_Win win, MPI_Info info) noexcept {
  constexpr const char* kFunction = "MPI_Win_set_info";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  const Info* found = find_info(info);
  if (found == nullptr) {
    return fail_win(w, MPI_ERR_INFO, kFunction, "invalid info object");
  }
  try {
    for (const auto& [key, value] : found->entries) {
      auto it = std::find_if(w->hints.begin(), w->hints.end(),
                             [&key](const auto& h) { return h.first == key; });
      if (it != w->hints.end()) {
        it->second = value;
      } else {
        w->hints.emplace_back(key, value);
      }
    }
  } catch (const std::bad_alloc&) {
    return fail_win(w, MPI_ERR_NO_MEM, kFunction, "out of memory");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_set_info);

extern "C" int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used) noexcept {
  constexpr const char* kFunction = "MPI_Win_get_info";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (info_used == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "info_used is NULL");
  }
  return guarded(kFunction, [&]() -> int {
    return new_info(win_info_entries(*w), info_used, kFunction);
  });
}
SHMPI_PMPI_ALIAS(MPI_Win_get_info);
