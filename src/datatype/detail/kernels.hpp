// SPDX-License-Identifier: MIT
// Elementwise reduction kernels, templated on the element's C++ type. Each
// kernel is one restrict-qualified loop so that GCC vectorises the common
// cases (sums, products, minima and maxima of integers and reals).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "datatype/detail/element_types.hpp"

// The library is built for baseline x86-64 (SSE2), which has no 64-bit
// integer compare or multiply in vector registers: an AVX2 clone of each loop,
// picked once at load time (ifunc), vectorises those too and doubles the width
// of the rest.
// ThreadSanitizer cannot run ifunc resolvers (they run before its runtime is
// up and crash at load), so TSan builds use the baseline loops.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__ELF__) && !defined(__SANITIZE_THREAD__)
#define SHMPI_KERNEL_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SHMPI_KERNEL_CLONES
#endif

namespace shmpi::datatype::detail {

template <typename T>
inline constexpr bool kIsInteger =
    std::is_integral_v<T> || std::is_same_v<T, Int128> ||
    std::is_same_v<T, Uint128>;

template <typename T>
inline constexpr bool kIsComplex = false;
template <typename T>
inline constexpr bool kIsComplex<Complex<T>> = true;

// The unsigned type integer arithmetic on T wraps in: at least `unsigned`, so
// that the usual promotions cannot turn uint16_t * uint16_t into a signed
// overflow, and unsigned so that signed overflow wraps instead of being UB.
template <typename T>
struct UnsignedOf {
  using type = std::make_unsigned_t<T>;
};
template <>
struct UnsignedOf<Int128> {
  using type = Uint128;
};
template <>
struct UnsignedOf<Uint128> {
  using type = Uint128;
};
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    typename UnsignedOf<T>::type>;

// Each operation maps (in, inout) to the new inout. The conditional forms
// `a > b ? a : b` are exactly what maxps/minps compute, so they vectorise
// without -ffast-math.
struct OpMax {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return a > b ? a : b;
  }
};
struct OpMin {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return a < b ? a : b;
  }
};
struct OpSum {
  template <typename T>
  static T apply(T a, T b) noexcept {
    if constexpr (kIsInteger<T>) {
      using W = WrapType<T>;
      return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
    } else if constexpr (kIsComplex<T>) {
      return T{a.re + b.re, a.im + b.im};
    } else {
      return a + b;
    }
  }
};
struct OpProd {
  template <typename T>
  static T apply(T a, T b) noexcept {
    if constexpr (kIsInteger<T>) {
      using W = WrapType<T>;
      return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
    } else if constexpr (kIsComplex<T>) {
      // The textbook formula, as MPICH and Open MPI use: no C99 Annex G
      // infinity recovery, which would cost a call per element.
      return T{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    } else {
      return a * b;
    }
  }
};
// Logical operations treat nonzero as true and produce 0 or 1 (C, and the
// gfortran representation of LOGICAL). `&`/`|` on bools instead of `&&`/`||`
// keep the loop free of branches.
struct OpLand {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return static_cast<T>((a != T{0}) & (b != T{0}));
  }
};
struct OpLor {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return static_cast<T>((a != T{0}) | (b != T{0}));
  }
};
struct OpLxor {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return static_cast<T>((a != T{0}) != (b != T{0}));
  }
};
struct OpBand {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return static_cast<T>(a & b);
  }
};
struct OpBor {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return static_cast<T>(a | b);
  }
};
struct OpBxor {
  template <typename T>
  static T apply(T a, T b) noexcept {
    return static_cast<T>(a ^ b);
  }
};

using KernelFn = void (*)(const void* in, void* inout,
                          std::size_t count) noexcept;

template <typename Op, typename T>
SHMPI_KERNEL_CLONES void apply_aligned(const T* __restrict in,
                                       T* __restrict inout,
                                       std::size_t count) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    inout[i] = Op::apply(in[i], inout[i]);
  }
}

// Buffers that are not aligned for T (a packed user struct, a byte offset into
// a staging buffer): go through memcpy, which is defined for any address.
template <typename Op, typename T>
void apply_unaligned(const std::byte* in, std::byte* inout,
                     std::size_t count) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    T a;
    T b;
    std::memcpy(&a, in + i * sizeof(T), sizeof(T));
    std::memcpy(&b, inout + i * sizeof(T), sizeof(T));
    b = Op::apply(a, b);
    std::memcpy(inout + i * sizeof(T), &b, sizeof(T));
  }
}

template <typename Op, typename T>
void kernel(const void* in, void* inout, std::size_t count) noexcept {
  const auto addresses = reinterpret_cast<std::uintptr_t>(in) |
                         reinterpret_cast<std::uintptr_t>(inout);
  if (addresses % alignof(T) == 0) [[likely]] {
    apply_aligned<Op, T>(static_cast<const T*>(in), static_cast<T*>(inout),
                         count);
  } else {
    apply_unaligned<Op, T>(static_cast<const std::byte*>(in),
                           static_cast<std::byte*>(inout), count);
  }
}

// MPI_MAXLOC (kMax) or MPI_MINLOC on ValueIndex pairs. The winner's value and
// index are taken; on equal values the smaller index wins (MPI-4.0 §6.9.4).
// Fields are accessed through memcpy so that no alignment is needed and the
// padding of inout is never written.
template <typename P, bool kMax>
void pair_kernel(const void* in, void* inout, std::size_t count) noexcept {
  using V = decltype(P::value);
  using I = decltype(P::index);
  constexpr std::size_t kIndexOffset = offsetof(P, index);
  const auto* src = static_cast<const std::byte*>(in);
  auto* dst = static_cast<std::byte*>(inout);
  for (std::size_t i = 0; i < count; ++i) {
    const std::byte* a = src + i * sizeof(P);
    std::byte* b = dst + i * sizeof(P);
    V a_value;
    V b_value;
    I a_index;
    I b_index;
    std::memcpy(&a_value, a, sizeof(V));
    std::memcpy(&b_value, b, sizeof(V));
    std::memcpy(&a_index, a + kIndexOffset, sizeof(I));
    std::memcpy(&b_index, b + kIndexOffset, sizeof(I));
    const bool a_wins = kMax ? a_value > b_value : a_value < b_value;
    if (a_wins) {
      std::memcpy(b, &a_value, sizeof(V));
      std::memcpy(b + kIndexOffset, &a_index, sizeof(I));
    } else if (a_value == b_value && a_index < b_index) {
      std::memcpy(b + kIndexOffset, &a_index, sizeof(I));
    }
  }
}

}  // namespace shmpi::datatype::detail
