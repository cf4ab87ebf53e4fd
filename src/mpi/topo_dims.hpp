// SPDX-License-Identifier: MIT
// MPI_Dims_create's arithmetic (MPI 4.0 section 8.5.2), apart from the C
// entry point so that it can be tested alone: split a number of processes
// into a given number of dimensions as evenly as possible.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace shmpi::mpi {

// `count` factors of `n` (n >= 1), in non-increasing order, whose product
// is n and whose spread (largest minus smallest) is the least possible;
// among factorisations of equal spread, the one with the smallest largest
// factor, then the smallest second factor, and so on (lexicographically
// least). Ones fill the tail when n has fewer prime factors than `count`.
// `count` 0 gives an empty vector (n should be 1).
std::vector<int> balanced_factors(int n, std::size_t count);

// MPI_Dims_create's body once its arguments are checked (nnodes >= 1,
// every entry >= 0): fills the zero entries of `dims` with
// balanced_factors() of nnodes over the product of the others, in order.
// Returns false, leaving dims as they were, when that product does not
// divide nnodes, or when no entry is zero and it is not nnodes.
[[nodiscard]] bool fill_dims(int nnodes, std::span<int> dims);

}  // namespace shmpi::mpi
