#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's second command, and what CI runs (.ci/run): install the
# packages, build with warnings as errors, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci -j2
