#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's first command: install the Debian packages, build shmpi
# (Release), and run the demo ring under shmpirun -n 4.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
echo
echo "+ build/release/launcher/shmpirun -n 4 build/release/examples/ring"
build/release/launcher/shmpirun -n 4 build/release/examples/ring
