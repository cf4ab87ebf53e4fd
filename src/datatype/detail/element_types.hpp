// SPDX-License-Identifier: MIT
// The C++ types behind each Scalar: complex numbers and the value-index pairs
// of MPI_MAXLOC/MPI_MINLOC, laid out exactly as the C types MPI names.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

namespace shmpi::datatype::detail {

__extension__ using Int128 = __int128;
__extension__ using Uint128 = unsigned __int128;
#if defined(__SIZEOF_FLOAT128__)
__extension__ using Float128 = __float128;  // gfortran REAL*16 on x86-64
#else
using Float128 = long double;  // where long double is binary128 (aarch64)
#endif
static_assert(sizeof(Float128) == 16, "MPI_REAL16 is IEEE binary128");

// Same layout as C `T _Complex` and std::complex<T>: real part, then imaginary.
template <typename T>
struct Complex {
  T re;
  T im;
};
static_assert(sizeof(Complex<float>) == sizeof(std::complex<float>) &&
                  alignof(Complex<float>) == alignof(std::complex<float>),
              "MPI_C_FLOAT_COMPLEX buffers are arrays of float _Complex");
static_assert(
    sizeof(Complex<long double>) == sizeof(std::complex<long double>) &&
        alignof(Complex<long double>) == alignof(std::complex<long double>),
    "MPI_C_LONG_DOUBLE_COMPLEX buffers are arrays of long double _Complex");

// The pair types are C structs `struct { V value; I index; }` with the C
// padding: MPI_DOUBLE_INT has size 12 but extent 16.
template <typename V, typename I>
struct ValueIndex {
  V value;
  I index;
};
using FloatInt = ValueIndex<float, int>;
using DoubleInt = ValueIndex<double, int>;
using LongInt = ValueIndex<long, int>;
using IntInt = ValueIndex<int, int>;
using ShortInt = ValueIndex<short, int>;
using LongDoubleInt = ValueIndex<long double, int>;
using FloatFloat = ValueIndex<float, float>;      // MPI_2REAL
using DoubleDouble = ValueIndex<double, double>;  // MPI_2DOUBLE_PRECISION

static_assert(
    sizeof(DoubleInt) == 16 && offsetof(DoubleInt, index) == 8,
    "MPI_DOUBLE_INT is struct { double; int; }: 4 bytes of tail padding");
static_assert(
    sizeof(ShortInt) == 8 && offsetof(ShortInt, index) == 4,
    "MPI_SHORT_INT is struct { short; int; }: 2 bytes of inner padding");
static_assert(sizeof(LongDoubleInt) == 32 &&
                  offsetof(LongDoubleInt, index) == 16,
              "MPI_LONG_DOUBLE_INT on x86-64: 16-byte long double, then int, "
              "then padding");

}  // namespace shmpi::datatype::detail
