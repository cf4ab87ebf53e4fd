// SPDX-License-Identifier: MIT
// MPI error codes: the error classes of mpi.h plus codes that carry a message,
// and the text MPI_Error_string gives for each.
#pragma once

#include <cstddef>
#include <string_view>

namespace shmpi::mpi {

// Error code encoding. Every error class (0..MPI_ERR_LASTCODE) is also an
// error code and means just the class. A code with a message is
//
//   code = mpi_class + kDetailRadix * detail_index
//
// with 0 <= mpi_class < kDetailRadix and detail_index >= kFirstDetailIndex,
// so every such code is above MPI_ERR_LASTCODE (0x3fff) and can never be
// mistaken for a class, including the MPI_T classes (1001..) and classes that
// MPI_Add_error_class may add later (they must stay below kDetailRadix to
// carry messages). detail_index names an interned message: the same message
// always gets the same index, whatever its class.
inline constexpr int kDetailRadix = 256;
inline constexpr int kFirstDetailIndex = 64;
// At most this many distinct messages are kept; later new messages give the
// bare class (messages should not embed unbounded values like addresses).
inline constexpr int kMaxDetailMessages = 16384;

// Classes and codes the program adds (MPI_Add_error_class, _code) are
// numbered from here up, above every code make_error_code() can return, so
// neither can be taken for the other.
inline constexpr int kFirstUserCode =
    (kFirstDetailIndex + kMaxDetailMessages) * kDetailRadix;
// At most this many user classes and codes together.
inline constexpr int kMaxUserCodes = 1 << 16;

// Returns an error code of class `mpi_class` whose MPI_Error_string is
// `detail` (copied; an empty or null detail gives `mpi_class` itself, and so
// does a class that cannot carry a message). Thread-safe, callable before
// MPI_Init; never allocates once a message is interned.
int make_error_code(int mpi_class, std::string_view detail) noexcept;
int make_error_code(int mpi_class, const char* detail) noexcept;

// True for the predefined error classes of mpi.h (MPI_SUCCESS,
// MPI_ERR_BUFFER..MPI_ERR_SESSION and the MPI_T_ERR_* classes).
bool is_predefined_class(int mpi_class) noexcept;

// The class of `code`, or -1 when `code` is not a valid error code.
int error_class_of(int code) noexcept;

// The text of `code`: the message of a code made by make_error_code, else
// the description of its class; for an added class or code, the text given
// to MPI_Add_error_string (empty if none). Empty when `code` is not valid
// (tell the two apart with error_class_of). The text is
// NUL-terminated (data() is a C string) and stays valid until the process
// exits.
std::string_view error_string(int code) noexcept;

// MPI_Add_error_class: a new class, with no string yet. Returns
// MPI_SUCCESS, or MPI_ERR_NO_MEM when kMaxUserCodes are in use.
int add_error_class(int* mpi_class) noexcept;

// MPI_Add_error_code: a new code of `mpi_class` (predefined or added).
// Returns MPI_SUCCESS, MPI_ERR_ARG for a class that does not exist, or
// MPI_ERR_NO_MEM.
int add_error_code(int mpi_class, int* code) noexcept;

// MPI_Add_error_string: the text MPI_Error_string gives for an added class
// or code, replacing any earlier one. Returns MPI_SUCCESS, or MPI_ERR_ARG
// for a code or class the program did not add.
int add_error_string(int code, std::string_view text) noexcept;

// The largest error code or class in use (the MPI_LASTUSEDCODE attribute):
// kFirstUserCode - 1 (the largest code shmpi makes) until the program adds
// one.
int last_used_code() noexcept;

// Copies `text` into `out` (capacity `out_size` bytes, at least 1), cut to
// fit and NUL-terminated; returns the number of characters copied. For the
// MPI functions that return strings (MPI_Error_string, MPI_Get_*_name, ...).
int copy_string(std::string_view text, char* out,
                std::size_t out_size) noexcept;

}  // namespace shmpi::mpi
