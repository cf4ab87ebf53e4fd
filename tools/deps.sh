#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs every Debian 12 package shmpi needs to build, test and benchmark
# (MPICH and Open MPI are the references the benchmarks and the
# differential tests compare against). Run as root.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git
  libboost-dev libhwloc-dev hwloc liburing-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  mpich libmpich-dev openmpi-bin libopenmpi-dev
  clang-format python3
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
