// SPDX-License-Identifier: MIT
// The Sessions Model, MPI 4.0 §11.3: MPI_Session_init and _finalize, the
// process sets "mpi://WORLD" and "mpi://SELF", groups from them and
// communicators from groups, and the sessions' error handlers.
#include <mpi.h>

#include <array>
#include <cstring>
#include <string>
#include <string_view>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/group.hpp"
#include "mpi/info.hpp"
#include "mpi/session.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace shmpi::mpi {

HandleArena<Session>& session_arena() {
  static HandleArena<Session> arena(1u << 12);  // thread-safe by default
  return arena;
}

Session* find_session(MPI_Session handle) {
  return session_arena().find(handle);
}

MPI_Session session_handle(Session* session) {
  return reinterpret_cast<MPI_Session>(session);  // NOLINT: handles are
                                                  // object pointers
}

}  // namespace shmpi::mpi

namespace {

constexpr std::array<std::string_view, 2> kPsets = {"mpi://WORLD",
                                                    "mpi://SELF"};

constexpr std::array<std::pair<int, const char*>, 4> kThreadLevels = {{
    {MPI_THREAD_SINGLE, "MPI_THREAD_SINGLE"},
    {MPI_THREAD_FUNNELED, "MPI_THREAD_FUNNELED"},
    {MPI_THREAD_SERIALIZED, "MPI_THREAD_SERIALIZED"},
    {MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE"},
}};

// The level named by an info value ("MPI_THREAD_MULTIPLE"; MPICH also takes
// the number), or -1.
int thread_level_of(const std::string& value) {
  for (const auto& [level, name] : kThreadLevels) {
    if (value == name || value == std::to_string(level)) {
      return level;
    }
  }
  return -1;
}

const char* thread_level_name(int level) {
  for (const auto& [value, name] : kThreadLevels) {
    if (value == level) {
      return name;
    }
  }
  return "MPI_THREAD_SINGLE";
}

// The checked session argument: MPI_ERR_SESSION for a null or dead handle,
// raised on the initial handler (there is no session to raise it on).
int check_session(MPI_Session handle, Session** out, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Session* session = find_session(handle);
  if (session == nullptr) {
    if (handle == MPI_SESSION_NULL) {
      return fail_session(nullptr, MPI_ERR_SESSION, function,
                          "session is MPI_SESSION_NULL");
    }
    return fail_session(nullptr, MPI_ERR_SESSION, function,
                        "invalid session handle %p",
                        static_cast<void*>(handle));
  }
  *out = session;
  return MPI_SUCCESS;
}

// An info argument that may be MPI_INFO_NULL.
int check_optional_info(Session* session, MPI_Info info, const char* function) {
  if (info != MPI_INFO_NULL && find_info(info) == nullptr) {
    return fail_session(session, MPI_ERR_INFO, function,
                        "invalid info handle %p", static_cast<void*>(info));
  }
  return MPI_SUCCESS;
}

// The process set's members as lpids (lpid = rank in the first world), or
// false for a name that is none of ours. Names compare exactly.
bool pset_lpids(const char* name, std::vector<std::int32_t>* out) {
  const runtime::WorldInfo& world = state().runtime->world();
  if (kPsets[0] == name) {
    out->resize(world.size);
    for (std::uint32_t r = 0; r < world.size; ++r) {
      (*out)[r] = static_cast<std::int32_t>(r);
    }
    return true;
  }
  if (kPsets[1] == name) {
    *out = {static_cast<std::int32_t>(world.rank)};
    return true;
  }
  return false;
}

int new_info(const InfoEntries& entries, MPI_Info* out) {
  Info* info = create_info();
  if (info == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  for (const auto& [key, value] : entries) {
    info->set(key, value);
  }
  *out = to_handle(info);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                                 MPI_Session* session) noexcept {
  constexpr const char* kFn = "MPI_Session_init";
  // Nothing runs yet to raise on: argument errors go to the initial error
  // handler (MPI_COMM_SELF's while the World Model runs).
  const Info* given = nullptr;
  if (info != MPI_INFO_NULL) {
    given = find_info(info);
    if (given == nullptr) {
      return fail_session(nullptr, MPI_ERR_INFO, kFn, "invalid info handle %p",
                          static_cast<void*>(info));
    }
  }
  if (session == nullptr) {
    return fail_session(nullptr, MPI_ERR_ARG, kFn, "session is NULL");
  }
  if (!is_errhandler(errhandler) ||
      (state().errhandlers.find(errhandler) != nullptr &&
       state().errhandlers.find(errhandler)->session_function == nullptr)) {
    return fail_session(nullptr, MPI_ERR_ARG, kFn,
                        "invalid error handler (not one for sessions)");
  }
  // From here on errors go to `errhandler` (MPI 4.0 §11.3.1), when it is a
  // predefined one: a user handler needs a session to be called with.
  Session for_errors;
  for_errors.errhandler = errhandler;
  Session* raise_on =
      state().errhandlers.find(errhandler) == nullptr ? &for_errors : nullptr;
  int required = MPI_THREAD_SINGLE;
  InfoEntries entries;
  if (given != nullptr) {
    entries = given->entries;
    if (const std::string* level = given->find("thread_level")) {
      required = thread_level_of(*level);
      if (required < 0) {
        return fail_session(raise_on, MPI_ERR_ARG, kFn,
                            "invalid thread_level \"%s\"", level->c_str());
      }
    }
  }
  std::string why;
  int provided = MPI_THREAD_SINGLE;
  if (start_runtime(required, &provided, &why) != MPI_SUCCESS) {
    return fail_session(raise_on, MPI_ERR_OTHER, kFn,
                        "cannot start the runtime: %s", why.c_str());
  }
  Session* created = session_arena().create();
  if (created == nullptr) {
    stop_runtime();
    return fail_session(raise_on, MPI_ERR_NO_MEM, kFn,
                        "out of session handles");
  }
  created->thread_level = provided;
  created->info = std::move(entries);
  retain_errhandler(errhandler);
  created->errhandler = errhandler;
  *session = session_handle(created);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_init);

extern "C" int PMPI_Session_finalize(MPI_Session* session) noexcept {
  constexpr const char* kFn = "MPI_Session_finalize";
  if (session == nullptr) {
    return fail_session(nullptr, MPI_ERR_ARG, kFn, "session is NULL");
  }
  Session* s = nullptr;
  if (int rc = check_session(*session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  // Objects derived from the session are the program's to free first
  // (MPI 4.0 §11.3.1); nothing here waits for other processes.
  release_errhandler(s->errhandler);
  session_arena().destroy(s);
  *session = MPI_SESSION_NULL;
  stop_runtime();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_finalize);

extern "C" int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
                                          int* npset_names) noexcept {
  constexpr const char* kFn = "MPI_Session_get_num_psets";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_optional_info(s, info, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (npset_names == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "npset_names is NULL");
  }
  *npset_names = static_cast<int>(kPsets.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_get_num_psets);

extern "C" int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info,
                                         int n, int* pset_len,
                                         char* pset_name) noexcept {
  constexpr const char* kFn = "MPI_Session_get_nth_pset";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_optional_info(s, info, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (n < 0 || n >= static_cast<int>(kPsets.size())) {
    return fail_session(s, MPI_ERR_ARG, kFn,
                        "n = %d: there are %zu process sets", n, kPsets.size());
  }
  if (pset_len == nullptr || *pset_len < 0) {
    return fail_session(s, MPI_ERR_ARG, kFn, "pset_len is NULL or negative");
  }
  const std::string_view name = kPsets[static_cast<std::size_t>(n)];
  // MPI 4.0 §11.3.2: with *pset_len 0 only the length (terminator
  // included) is returned; otherwise at most *pset_len - 1 characters and
  // the terminator are stored.
  if (*pset_len == 0) {
    *pset_len = static_cast<int>(name.size()) + 1;
    return MPI_SUCCESS;
  }
  if (pset_name == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "pset_name is NULL");
  }
  const std::size_t copied =
      std::min(name.size(), static_cast<std::size_t>(*pset_len) - 1);
  std::memcpy(pset_name, name.data(), copied);
  pset_name[copied] = '\0';
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_get_nth_pset);

extern "C" int PMPI_Session_get_pset_info(MPI_Session session,
                                          const char* pset_name,
                                          MPI_Info* info) noexcept {
  constexpr const char* kFn = "MPI_Session_get_pset_info";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (pset_name == nullptr || info == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "NULL argument");
  }
  std::vector<std::int32_t> lpids;
  if (!pset_lpids(pset_name, &lpids)) {
    return fail_session(s, MPI_ERR_ARG, kFn, "no process set named \"%s\"",
                        pset_name);
  }
  if (new_info({{"mpi_size", std::to_string(lpids.size())}}, info) !=
      MPI_SUCCESS) {
    return fail_session(s, MPI_ERR_NO_MEM, kFn, "out of info handles");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_get_pset_info);

extern "C" int PMPI_Session_get_info(MPI_Session session,
                                     MPI_Info* info_used) noexcept {
  constexpr const char* kFn = "MPI_Session_get_info";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (info_used == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "info_used is NULL");
  }
  // The keys given at init, with "thread_level" the level granted (MPI 4.0
  // §11.3.1).
  InfoEntries entries = s->info;
  bool has_level = false;
  for (auto& [key, value] : entries) {
    if (key == "thread_level") {
      value = thread_level_name(s->thread_level);
      has_level = true;
    }
  }
  if (!has_level) {
    entries.emplace_back("thread_level", thread_level_name(s->thread_level));
  }
  if (new_info(entries, info_used) != MPI_SUCCESS) {
    return fail_session(s, MPI_ERR_NO_MEM, kFn, "out of info handles");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_get_info);

extern "C" int PMPI_Group_from_session_pset(MPI_Session session,
                                            const char* pset_name,
                                            MPI_Group* newgroup) noexcept {
  constexpr const char* kFn = "MPI_Group_from_session_pset";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (pset_name == nullptr || newgroup == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "NULL argument");
  }
  std::vector<std::int32_t> lpids;
  if (!pset_lpids(pset_name, &lpids)) {
    return fail_session(s, MPI_ERR_ARG, kFn, "no process set named \"%s\"",
                        pset_name);
  }
  if (make_group(std::move(lpids), newgroup) != MPI_SUCCESS) {
    return fail_session(s, MPI_ERR_NO_MEM, kFn, "out of group handles");
  }
  if (Group* g = find_group(*newgroup); g != nullptr && !is_predefined(g)) {
    g->session = session;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Group_from_session_pset);

extern "C" int PMPI_Comm_create_from_group(MPI_Group group,
                                           const char* stringtag, MPI_Info info,
                                           MPI_Errhandler errhandler,
                                           MPI_Comm* newcomm) noexcept {
  constexpr const char* kFn = "MPI_Comm_create_from_group";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Group* g = find_group(group);
  if (g == nullptr) {
    return fail_session(nullptr, MPI_ERR_GROUP, kFn,
                        group == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
                                                : "invalid group handle");
  }
  // Errors go to the session the group came from, if it is still open
  // (MPI 4.0 §9.3), else to the initial handler.
  Session* s = find_session(g->session);
  if (stringtag == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "stringtag is NULL");
  }
  const std::size_t tag_length = std::strlen(stringtag);
  if (tag_length >= MPI_MAX_STRINGTAG_LEN) {
    return fail_session(s, MPI_ERR_ARG, kFn,
                        "stringtag has %zu characters (at most %d)", tag_length,
                        MPI_MAX_STRINGTAG_LEN - 1);
  }
  Hints hints;
  if (int rc = hints_from_info(info, &hints); rc != MPI_SUCCESS) {
    return fail_session(s, rc, kFn, "invalid info handle %p",
                        static_cast<void*>(info));
  }
  if (!is_errhandler(errhandler) ||
      (state().errhandlers.find(errhandler) != nullptr &&
       state().errhandlers.find(errhandler)->function == nullptr)) {
    return fail_session(s, MPI_ERR_ARG, kFn,
                        "invalid error handler (not one for communicators)");
  }
  if (newcomm == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "newcomm is NULL");
  }
  if (g->rank == MPI_UNDEFINED) {
    return fail_session(s, MPI_ERR_GROUP, kFn,
                        "the calling process is not in the group");
  }
  SplitResult result;
  const char* why = "";
  if (int rc = create_from_group_round(g->lpids, g->rank, stringtag, errhandler,
                                       &result, &why);
      rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail_session(s, rc, kFn, "%s", why);
  }
  retain_errhandler(errhandler);  // the communicator's hold
  result.created->hints = std::move(hints);
  *newcomm = result.created->handle;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_create_from_group);

// ------------------------------------------------------------ error handlers

extern "C" int PMPI_Session_create_errhandler(
    MPI_Session_errhandler_function* session_errhandler_fn,
    MPI_Errhandler* errhandler) noexcept {
  constexpr const char* kFn = "MPI_Session_create_errhandler";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (session_errhandler_fn == nullptr || errhandler == nullptr) {
    return fail_session(nullptr, MPI_ERR_ARG, kFn, "NULL argument");
  }
  Errhandler* created = state().errhandlers.create();
  if (created == nullptr) {
    return fail_session(nullptr, MPI_ERR_NO_MEM, kFn, "out of handles");
  }
  created->session_function = session_errhandler_fn;
  *errhandler =
      reinterpret_cast<MPI_Errhandler>(created);  // NOLINT: handle is object
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_create_errhandler);

extern "C" int PMPI_Session_set_errhandler(MPI_Session session,
                                           MPI_Errhandler errhandler) noexcept {
  constexpr const char* kFn = "MPI_Session_set_errhandler";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Errhandler* user = state().errhandlers.find(errhandler);
  if (!is_errhandler(errhandler) ||
      (user != nullptr && user->session_function == nullptr)) {
    return fail_session(s, MPI_ERR_ARG, kFn,
                        "invalid error handler (not one for sessions)");
  }
  retain_errhandler(errhandler);
  release_errhandler(s->errhandler);
  s->errhandler = errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_set_errhandler);

extern "C" int PMPI_Session_get_errhandler(
    MPI_Session session, MPI_Errhandler* errhandler) noexcept {
  constexpr const char* kFn = "MPI_Session_get_errhandler";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (errhandler == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "errhandler is NULL");
  }
  retain_errhandler(s->errhandler);  // the program frees what it gets
  *errhandler = s->errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_get_errhandler);

extern "C" int PMPI_Session_call_errhandler(MPI_Session session,
                                            int errorcode) noexcept {
  constexpr const char* kFn = "MPI_Session_call_errhandler";
  Session* s = nullptr;
  if (int rc = check_session(session, &s, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  raise_session_code(s, errorcode, kFn);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Session_call_errhandler);
