// SPDX-License-Identifier: MIT
// Error classes, interned error messages, MPI_Error_class and
// MPI_Error_string.
#include "mpi/errors.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <iterator>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi/detail/pmpi.hpp"

namespace shmpi::mpi {
namespace {

static_assert(
    MPI_ERR_SESSION < kDetailRadix,
    "every predefined class below MPI_T must be able to carry a message");
static_assert(kFirstDetailIndex * kDetailRadix > MPI_ERR_LASTCODE,
              "codes with a message must lie above MPI_ERR_LASTCODE");
static_assert(static_cast<long long>(kFirstUserCode) + kMaxUserCodes <
                  0x7fffffffLL,
              "every code, the program's too, must fit in an int");

// Descriptions of the predefined classes, indexed by class.
constexpr const char* kClassStrings[] = {
    "no error",                                           // MPI_SUCCESS
    "invalid buffer pointer",                             // MPI_ERR_BUFFER
    "invalid count argument",                             // MPI_ERR_COUNT
    "invalid datatype",                                   // MPI_ERR_TYPE
    "invalid tag",                                        // MPI_ERR_TAG
    "invalid communicator",                               // MPI_ERR_COMM
    "invalid rank",                                       // MPI_ERR_RANK
    "invalid request",                                    // MPI_ERR_REQUEST
    "invalid root",                                       // MPI_ERR_ROOT
    "invalid group",                                      // MPI_ERR_GROUP
    "invalid operation",                                  // MPI_ERR_OP
    "invalid topology",                                   // MPI_ERR_TOPOLOGY
    "invalid dimension argument",                         // MPI_ERR_DIMS
    "invalid argument",                                   // MPI_ERR_ARG
    "unknown error",                                      // MPI_ERR_UNKNOWN
    "message truncated on receive",                       // MPI_ERR_TRUNCATE
    "other error",                                        // MPI_ERR_OTHER
    "internal error in shmpi",                            // MPI_ERR_INTERN
    "operation pending",                                  // MPI_ERR_PENDING
    "error code is in the status",                        // MPI_ERR_IN_STATUS
    "permission denied",                                  // MPI_ERR_ACCESS
    "invalid file access mode",                           // MPI_ERR_AMODE
    "invalid assertion argument",                         // MPI_ERR_ASSERT
    "invalid file name",                                  // MPI_ERR_BAD_FILE
    "invalid base argument",                              // MPI_ERR_BASE
    "error in a user data conversion function",           // MPI_ERR_CONVERSION
    "invalid displacement argument",                      // MPI_ERR_DISP
    "data representation identifier already registered",  // MPI_ERR_DUP_DATAREP
    "file exists",                                        // MPI_ERR_FILE_EXISTS
    "file in use by some process",                        // MPI_ERR_FILE_IN_USE
    "invalid file handle",                                // MPI_ERR_FILE
    "invalid info key",                                   // MPI_ERR_INFO_KEY
    "info key not found",                                 // MPI_ERR_INFO_NOKEY
    "invalid info value",                                 // MPI_ERR_INFO_VALUE
    "invalid info object",                                // MPI_ERR_INFO
    "input/output error",                                 // MPI_ERR_IO
    "invalid attribute key",                              // MPI_ERR_KEYVAL
    "invalid lock type",                                  // MPI_ERR_LOCKTYPE
    "service name not found",                             // MPI_ERR_NAME
    "out of memory",                                      // MPI_ERR_NO_MEM
    "collective argument not identical on all processes",  // MPI_ERR_NOT_SAME
    "not enough space",                                    // MPI_ERR_NO_SPACE
    "file does not exist",                       // MPI_ERR_NO_SUCH_FILE
    "invalid port name",                         // MPI_ERR_PORT
    "quota exceeded",                            // MPI_ERR_QUOTA
    "file or file system is read-only",          // MPI_ERR_READ_ONLY
    "memory cannot be attached to the window",   // MPI_ERR_RMA_ATTACH
    "conflicting accesses to a window",          // MPI_ERR_RMA_CONFLICT
    "target memory is outside the window",       // MPI_ERR_RMA_RANGE
    "memory cannot be shared",                   // MPI_ERR_RMA_SHARED
    "wrong synchronization of one-sided calls",  // MPI_ERR_RMA_SYNC
    "invalid service name",                      // MPI_ERR_SERVICE
    "invalid size argument",                     // MPI_ERR_SIZE
    "error spawning processes",                  // MPI_ERR_SPAWN
    "unsupported data representation",           // MPI_ERR_UNSUPPORTED_DATAREP
    "operation not supported",  // MPI_ERR_UNSUPPORTED_OPERATION
    "invalid window",           // MPI_ERR_WIN
    "window flavor does not allow this operation",      // MPI_ERR_RMA_FLAVOR
    "a process involved in the operation has aborted",  // MPI_ERR_PROC_ABORTED
    "value too large to be stored in the output argument",  // MPI_ERR_VALUE_TOO_LARGE
    "invalid session",                                      // MPI_ERR_SESSION
};
static_assert(std::size(kClassStrings) == MPI_ERR_SESSION + 1,
              "one string per class");

// Descriptions of the MPI_T classes, indexed by class - MPI_T_ERR_CANNOT_INIT.
constexpr const char* kToolClassStrings[] = {
    "tool interface cannot be initialized",        // MPI_T_ERR_CANNOT_INIT
    "tool interface not accessible at this time",  // MPI_T_ERR_NOT_ACCESSIBLE
    "tool interface not initialized",              // MPI_T_ERR_NOT_INITIALIZED
    "tool interface operation not supported",      // MPI_T_ERR_NOT_SUPPORTED
    "out of memory in the tool interface",         // MPI_T_ERR_MEMORY
    "invalid use of the tool interface",           // MPI_T_ERR_INVALID
    "invalid tool interface index",                // MPI_T_ERR_INVALID_INDEX
    "invalid tool interface item index",           // MPI_T_ERR_INVALID_ITEM
    "invalid performance variable session",        // MPI_T_ERR_INVALID_SESSION
    "invalid tool interface handle",               // MPI_T_ERR_INVALID_HANDLE
    "invalid tool interface variable name",        // MPI_T_ERR_INVALID_NAME
    "no more tool interface handles available",    // MPI_T_ERR_OUT_OF_HANDLES
    "no more performance variable sessions available",  // MPI_T_ERR_OUT_OF_SESSIONS
    "control variable cannot be set at this time",  // MPI_T_ERR_CVAR_SET_NOT_NOW
    "control variable cannot be set",               // MPI_T_ERR_CVAR_SET_NEVER
    "performance variable cannot be written or reset",  // MPI_T_ERR_PVAR_NO_WRITE
    "performance variable cannot be started or stopped",  // MPI_T_ERR_PVAR_NO_STARTSTOP
    "performance variable cannot be read and reset atomically",  // MPI_T_ERR_PVAR_NO_ATOMIC
};
static_assert(std::size(kToolClassStrings) ==
                  MPI_T_ERR_PVAR_NO_ATOMIC - MPI_T_ERR_CANNOT_INIT + 1,
              "one string per MPI_T class");

// The interned messages. Created on first use and never destroyed (no static
// constructors or destructors in libshmpi; a message must stay readable
// while other threads still run at exit). std::deque keeps element addresses
// stable as it grows, so a string_view handed out stays valid.
class DetailRegistry {
 public:
  // Returns the index of `text`, adding it if new; -1 when full or out of
  // memory.
  int intern(std::string_view text) noexcept {
    const std::lock_guard lock(mutex_);
    try {
      if (const auto it = index_of_.find(text); it != index_of_.end()) {
        return it->second;
      }
      if (messages_.size() >= static_cast<std::size_t>(kMaxDetailMessages)) {
        return -1;
      }
      const std::string& stored = messages_.emplace_back(text);
      const int index =
          kFirstDetailIndex + static_cast<int>(messages_.size() - 1);
      try {
        index_of_.emplace(std::string_view(stored), index);
      } catch (...) {
        messages_.pop_back();
        throw;
      }
      return index;
    } catch (const std::bad_alloc&) {
      return -1;
    }
  }

  // The message of `index`, or empty if there is none.
  std::string_view lookup(int index) noexcept {
    const std::lock_guard lock(mutex_);
    const long offset = static_cast<long>(index) - kFirstDetailIndex;
    if (offset < 0 || static_cast<std::size_t>(offset) >= messages_.size()) {
      return {};
    }
    return messages_[static_cast<std::size_t>(offset)];
  }

 private:
  std::mutex mutex_;
  std::deque<std::string> messages_;  // index - kFirstDetailIndex
  std::unordered_map<std::string_view, int> index_of_;  // views into messages_
};

DetailRegistry& registry() noexcept {
  // Intentionally leaked: see DetailRegistry.
  static DetailRegistry* const instance = new DetailRegistry;
  return *instance;
}

// Classes and codes added by the program: entry i is code kFirstUserCode +
// i. Never destroyed, for the reason DetailRegistry gives; a replaced
// string stays stored, so a view handed out earlier stays valid.
class UserCodes {
 public:
  // Adds a code of `mpi_class`, or a class when `mpi_class` is -1; -1 when
  // full or out of memory.
  int add(int mpi_class) noexcept {
    const std::lock_guard lock(mutex_);
    try {
      if (entries_.size() >= static_cast<std::size_t>(kMaxUserCodes)) {
        return -1;
      }
      const int code = kFirstUserCode + static_cast<int>(entries_.size());
      entries_.push_back(Entry{mpi_class < 0 ? code : mpi_class, nullptr});
      // Release: a thread that reads the count without the lock (last())
      // then finds the entry whole; the lock orders everything else.
      count_.store(static_cast<int>(entries_.size()),
                   std::memory_order_release);
      return code;
    } catch (const std::bad_alloc&) {
      return -1;
    }
  }

  // The class of an added code or class, or -1.
  int class_of(int code) noexcept {
    const std::lock_guard lock(mutex_);
    const Entry* entry = find(code);
    return entry != nullptr ? entry->mpi_class : -1;
  }

  // Whether `code` is an added class (not a code of one).
  bool is_class(int code) noexcept { return class_of(code) == code; }

  std::string_view text(int code) noexcept {
    const std::lock_guard lock(mutex_);
    const Entry* entry = find(code);
    return entry != nullptr && entry->text != nullptr
               ? std::string_view(*entry->text)
               : std::string_view();
  }

  bool set_text(int code, std::string_view text) noexcept {
    const std::lock_guard lock(mutex_);
    try {
      Entry* entry = find(code);
      if (entry == nullptr) {
        return false;
      }
      entry->text = &texts_.emplace_back(text);
      return true;
    } catch (const std::bad_alloc&) {
      return false;
    }
  }

  // The largest added code, or kFirstUserCode - 1.
  int last() const noexcept {
    // Acquire pairs with add()'s release; only the number is used.
    return kFirstUserCode - 1 + count_.load(std::memory_order_acquire);
  }

 private:
  struct Entry {
    int mpi_class;
    const std::string* text;  // into texts_, or none yet
  };

  Entry* find(int code) noexcept {
    if (code < kFirstUserCode) {
      return nullptr;
    }
    const auto index = static_cast<std::size_t>(code - kFirstUserCode);
    return index < entries_.size() ? &entries_[index] : nullptr;
  }

  std::mutex mutex_;
  std::vector<Entry> entries_;
  std::deque<std::string> texts_;
  std::atomic<int> count_{0};
};

UserCodes& user_codes() noexcept {
  // Intentionally leaked: see UserCodes.
  static UserCodes* const instance = new UserCodes;
  return *instance;
}

std::string_view class_string(int mpi_class) noexcept {
  if (mpi_class >= 0 && mpi_class <= MPI_ERR_SESSION) {
    return kClassStrings[mpi_class];
  }
  if (mpi_class >= MPI_T_ERR_CANNOT_INIT &&
      mpi_class <= MPI_T_ERR_PVAR_NO_ATOMIC) {
    return kToolClassStrings[mpi_class - MPI_T_ERR_CANNOT_INIT];
  }
  return {};
}

}  // namespace

bool is_predefined_class(int mpi_class) noexcept {
  return !class_string(mpi_class).empty();
}

int make_error_code(int mpi_class, std::string_view detail) noexcept {
  if (detail.empty() || mpi_class <= MPI_SUCCESS || mpi_class >= kDetailRadix) {
    return mpi_class;
  }
  const int index = registry().intern(detail);
  return index < 0 ? mpi_class : mpi_class + kDetailRadix * index;
}

int make_error_code(int mpi_class, const char* detail) noexcept {
  return make_error_code(mpi_class,
                         detail == nullptr ? std::string_view() : detail);
}

int error_class_of(int code) noexcept {
  if (code >= kFirstUserCode) {
    return user_codes().class_of(code);
  }
  if (code >= 0 && code <= MPI_ERR_LASTCODE) {
    return is_predefined_class(code) ? code : -1;
  }
  if (code < 0 || registry().lookup(code / kDetailRadix).empty()) {
    return -1;
  }
  const int mpi_class = code % kDetailRadix;
  return is_predefined_class(mpi_class) ? mpi_class : -1;
}

std::string_view error_string(int code) noexcept {
  if (code >= kFirstUserCode) {
    return user_codes().text(code);
  }
  if (code >= 0 && code <= MPI_ERR_LASTCODE) {
    return class_string(code);
  }
  if (error_class_of(code) < 0) {
    return {};
  }
  return registry().lookup(code / kDetailRadix);
}

int add_error_class(int* mpi_class) noexcept {
  const int added = user_codes().add(-1);
  if (added < 0) {
    return MPI_ERR_NO_MEM;
  }
  *mpi_class = added;
  return MPI_SUCCESS;
}

int add_error_code(int mpi_class, int* code) noexcept {
  const bool exists = mpi_class >= kFirstUserCode
                          ? user_codes().is_class(mpi_class)
                          : is_predefined_class(mpi_class);
  if (!exists) {
    return MPI_ERR_ARG;
  }
  const int added = user_codes().add(mpi_class);
  if (added < 0) {
    return MPI_ERR_NO_MEM;
  }
  *code = added;
  return MPI_SUCCESS;
}

int add_error_string(int code, std::string_view text) noexcept {
  return user_codes().set_text(code, text) ? MPI_SUCCESS : MPI_ERR_ARG;
}

int last_used_code() noexcept { return user_codes().last(); }

int copy_string(std::string_view text, char* out,
                std::size_t out_size) noexcept {
  const std::size_t length = std::min(text.size(), out_size - 1);
  if (length > 0) {  // an empty view may have no data pointer at all
    std::memcpy(out, text.data(), length);
  }
  out[length] = '\0';
  return static_cast<int>(length);
}

}  // namespace shmpi::mpi

extern "C" int PMPI_Error_class(int errorcode, int* errorclass) noexcept {
  if (errorclass == nullptr) {
    return MPI_ERR_ARG;
  }
  const int mpi_class = shmpi::mpi::error_class_of(errorcode);
  if (mpi_class < 0) {
    return MPI_ERR_ARG;
  }
  *errorclass = mpi_class;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Error_class);

extern "C" int PMPI_Error_string(int errorcode, char* string,
                                 int* resultlen) noexcept {
  if (string == nullptr || resultlen == nullptr) {
    return MPI_ERR_ARG;
  }
  if (shmpi::mpi::error_class_of(errorcode) < 0) {
    return MPI_ERR_ARG;
  }
  // An added class or code without a string gives "" (MPI 4.0 section
  // 9.5).
  const std::string_view text = shmpi::mpi::error_string(errorcode);
  *resultlen = shmpi::mpi::copy_string(text, string, MPI_MAX_ERROR_STRING);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Error_string);
