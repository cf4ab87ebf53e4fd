// SPDX-License-Identifier: MIT
// Result<T>: a value or an MPI error (class plus a short description). Mirrors
// the part of std::expected we use, which GCC 12 lacks at -std=c++20.
#pragma once

#include <string_view>
#include <utility>
#include <variant>

namespace shmpi {

struct Err {
  int mpi_class;          // an MPI_ERR_* class
  std::string_view what;  // static text, lower-case, no trailing newline
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : state_(std::move(value)) {}     // NOLINT(google-explicit-constructor)
  Result(Err error) : state_(error) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  T* operator->() { return &value(); }
  const Err& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Err> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Err error)
      : error_(error), ok_(false) {}  // NOLINT(google-explicit-constructor)
  bool has_value() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const Err& error() const { return error_; }

 private:
  Err error_{0, {}};
  bool ok_ = true;
};

}  // namespace shmpi
