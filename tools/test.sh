#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's second command, and what CI runs (.ci/run): install the
# packages, build with warnings as errors and run the whole test suite, then
# run it again under AddressSanitizer + UndefinedBehaviorSanitizer, and the
# unit and multi-threaded MPI tests under ThreadSanitizer.
# SHMPI_SKIP_SANITIZERS=1 runs the release suite only.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci -j2
if [ "${SHMPI_SKIP_SANITIZERS:-0}" != 1 ]; then
  cmake --preset asan >/dev/null
  cmake --build --preset asan
  ctest --preset asan -j2
  cmake --preset tsan >/dev/null
  cmake --build --preset tsan
  ctest --preset tsan -j2
  ctest --preset tsan-mpi -j2
fi
