#!/bin/bash
# SPDX-License-Identifier: MIT
# The build-tree wrappers (<build>/bin/shmpicc, shmpicxx) compile against the
# source tree's mpi.h and the build tree's libshmpi, before any install.
# usage: build_tree_test.sh <build-dir> <shmpirun>   (exit 77: nothing to test yet)
set -euo pipefail
build=$1
shmpirun=$2
here=$(dirname "$(readlink -f "$0")")
if [ ! -x "$build/bin/shmpicc" ] || [ ! -x "$build/bin/shmpicxx" ]; then
  echo "build-tree test: SKIP: no build-tree wrappers (libshmpi not built yet)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-build-tree.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$build/bin/shmpicc" "$here/hello.c" -o "$work/hello_cc"
"$build/bin/shmpicxx" "$here/hello.cpp" -o "$work/hello_cxx"
if [ ! -x "$shmpirun" ]; then
  echo "build-tree test: SKIP: shmpirun is not built yet (compiling passed)"
  exit 77
fi
for program in hello_cc hello_cxx; do
  output=$(cd "$work" && timeout 60 "$shmpirun" -n 2 "$work/$program" 2>&1) || {
    echo "$output" >&2
    echo "build-tree test: FAIL: $program did not run" >&2
    exit 1
  }
  for rank in 0 1; do
    grep -q "hello from rank $rank of 2, received $(((rank + 1) % 2))" <<<"$output" || {
      echo "build-tree test: FAIL: $program: no line from rank $rank in: $output" >&2
      exit 1
    }
  done
done
echo "build-tree test: PASS"
