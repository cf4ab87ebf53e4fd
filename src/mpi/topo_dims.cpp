// SPDX-License-Identifier: MIT
// MPI_Dims_create's factorisation (topo_dims.hpp): a bounded depth-first
// search over the non-increasing factorisations of n.
#include "mpi/topo_dims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace shmpi::mpi {

namespace {

// n's prime factors with multiplicity, in non-increasing order.
std::vector<int> prime_factors(int n) {
  std::vector<int> primes;
  for (int p = 2; static_cast<std::int64_t>(p) * p <= n; ++p) {
    while (n % p == 0) {
      primes.push_back(p);
      n /= p;
    }
  }
  if (n > 1) {
    primes.push_back(n);
  }
  std::sort(primes.rbegin(), primes.rend());
  return primes;
}

// base^exponent, or limit + 1 once it passes limit (no overflow).
std::int64_t capped_power(std::int64_t base, std::size_t exponent,
                          std::int64_t limit) {
  std::int64_t result = 1;
  for (std::size_t i = 0; i < exponent; ++i) {
    result *= base;
    if (result > limit) {
      return limit + 1;
    }
  }
  return result;
}

// The largest r with r^m <= n (m >= 1, n >= 1).
std::int64_t floor_root(std::int64_t n, std::size_t m) {
  auto r = static_cast<std::int64_t>(
      std::pow(static_cast<double>(n), 1.0 / static_cast<double>(m)));
  r = std::max<std::int64_t>(r, 1);
  while (capped_power(r + 1, m, n) <= n) {
    ++r;
  }
  while (r > 1 && capped_power(r, m, n) > n) {
    --r;
  }
  return r;
}

// The search, for two factors or more: factors are chosen from the first
// to the last, each no larger than the one before; the spread of a
// complete choice is its first factor minus its last.
class Search {
 public:
  Search(int n, std::size_t count) : count_(count), chosen_(count) {
    for (int d = 1; static_cast<std::int64_t>(d) * d <= n; ++d) {
      if (n % d == 0) {
        divisors_.push_back(d);
        if (d != n / d) {
          divisors_.push_back(n / d);
        }
      }
    }
    std::sort(divisors_.begin(), divisors_.end());
  }

  std::vector<int> run(int n) {
    // Every factorisation has a first factor at least the count-th root of
    // n and a last one at most that root, so first factors are tried from
    // the root upwards until they alone make the spread worse than the
    // best found. Among factorisations of equal spread, the one whose
    // smallest factor is largest wins, then second smallest and so on.
    const std::int64_t root = floor_root(n, count_);
    for (int first : divisors_) {
      if (capped_power(first, count_, n) < n) {
        continue;  // too small to be the largest factor
      }
      if (found_ && first - root > best_spread_) {
        break;
      }
      chosen_[0] = first;
      place(1, n / first, first);
    }
    return best_;
  }

 private:
  // Chooses factors pos.. of `rest`, each at most `cap`.
  void place(std::size_t pos, int rest, int cap) {
    const std::int64_t first = chosen_[0];
    if (pos + 1 == count_) {
      if (rest > cap) {
        return;
      }
      chosen_[pos] = rest;
      const std::int64_t spread = first - rest;
      if (!found_ || spread < best_spread_ ||
          (spread == best_spread_ &&
           std::lexicographical_compare(best_.rbegin(), best_.rend(),
                                        chosen_.rbegin(), chosen_.rend()))) {
        best_ = chosen_;
        best_spread_ = spread;
        found_ = true;
      }
      return;
    }
    const std::size_t left = count_ - pos;  // factors still to choose
    // The last factor is at most the left-th root of rest.
    if (found_ && first - floor_root(rest, left) > best_spread_) {
      return;
    }
    for (int d : divisors_) {
      if (d > cap || d > rest) {
        break;
      }
      if (rest % d != 0 || capped_power(d, left, rest) < rest) {
        continue;  // not a factor, or the rest cannot fit under d
      }
      chosen_[pos] = d;
      place(pos + 1, rest / d, d);
    }
  }

  std::size_t count_;
  std::vector<int> divisors_;  // of n, increasing
  std::vector<int> chosen_;
  std::vector<int> best_;
  std::int64_t best_spread_ = 0;
  bool found_ = false;
};

}  // namespace

std::vector<int> balanced_factors(int n, std::size_t count) {
  if (count <= 1) {
    return std::vector<int>(count, n);
  }
  std::vector<int> primes = prime_factors(n);
  if (primes.size() <= count) {
    // One prime a factor, then ones: any other choice leaves a 1 too
    // (or, with exactly `count` primes, has one) beside a factor at least
    // the largest prime, so none has a smaller spread.
    primes.resize(count, 1);
    return primes;
  }
  return Search(n, count).run(n);
}

bool fill_dims(int nnodes, std::span<int> dims) {
  std::int64_t fixed = 1;
  std::size_t free = 0;
  for (int d : dims) {
    if (d == 0) {
      ++free;
    } else {
      fixed *= d;
      if (fixed > nnodes) {
        return false;
      }
    }
  }
  if (nnodes % fixed != 0 || (free == 0 && fixed != nnodes)) {
    return false;
  }
  const std::vector<int> factors =
      balanced_factors(static_cast<int>(nnodes / fixed), free);
  auto next = factors.begin();
  for (int& d : dims) {
    if (d == 0) {
      d = *next++;
    }
  }
  return true;
}

}  // namespace shmpi::mpi
