#!/bin/bash
# SPDX-License-Identifier: MIT
# Installs a shmpi build into a temporary prefix, moves the whole prefix to
# another directory, then checks that the moved copy still works: shmpicc and
# shmpicxx, find_package(shmpi CONFIG), pkg-config, and shmpirun -n 2.
# Exit status: 0 pass, 1 fail, 77 skip (libshmpi or shmpirun not built yet).
set -euo pipefail

usage() {
  echo "usage: $0 --build DIR --source DIR --config CFG --cmake EXE --generator NAME" \
    "--cc EXE --cxx EXE [--pkg-config EXE] [--bindir D --libdir D --includedir D]" >&2
  exit 2
}

build='' source='' config='' generator=''
cmake=cmake cc=cc cxx=c++ pkg_config=pkg-config
bindir=bin libdir=lib includedir=include  # relative to the prefix (GNUInstallDirs)
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --build) build=$2 ;;
    --source) source=$2 ;;
    --config) config=$2 ;;
    --cmake) cmake=$2 ;;
    --generator) generator=$2 ;;
    --cc) cc=$2 ;;
    --cxx) cxx=$2 ;;
    --pkg-config) pkg_config=$2 ;;
    --bindir) bindir=$2 ;;
    --libdir) libdir=$2 ;;
    --includedir) includedir=$2 ;;
    *) usage ;;
  esac
  shift 2
done
if [ -z "$build" ] || [ -z "$source" ]; then
  usage
fi
here=$(dirname "$(readlink -f "$0")")

work=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

step() { echo "-- $*"; }
fail() {
  echo "install test: FAIL: $*" >&2
  exit 1
}
run_logged() {  # run_logged <log> <command...>: show the log only on failure
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "command failed: $*"
  fi
}

step "install into $work/staged"
config_args=()
[ -z "$config" ] || config_args=(--config "$config")
run_logged "$work/install.log" "$cmake" --install "$build" --prefix "$work/staged" \
  "${config_args[@]}"
if [ ! -e "$work/staged/$libdir/libshmpi.so" ]; then
  echo "install test: SKIP: libshmpi is not built yet"
  exit 77
fi
for file in "$bindir/shmpicc" "$bindir/shmpicxx" "$includedir/mpi.h" \
  "$libdir/pkgconfig/shmpi.pc" "$libdir/cmake/shmpi/shmpiConfig.cmake" \
  "$libdir/cmake/shmpi/shmpiConfigVersion.cmake" "$libdir/cmake/shmpi/shmpiTargets.cmake"; do
  [ -e "$work/staged/$file" ] || fail "$file was not installed"
done

step "move the prefix to $work/moved"
mv "$work/staged" "$work/moved"
prefix=$work/moved

step "no build-tree, source-tree or staging path in installed text files"
if grep -rIl -e "$(readlink -f "$build")" -e "$(readlink -f "$source")/" -e "$work/staged" \
  "$prefix"; then
  fail "the files above name a build, source or staging path"
fi

step "shmpicc -show and --showme:*"
shown=$("$prefix/$bindir/shmpicc" -show x.c -o x)
case $shown in
  *"-I$prefix/$includedir x.c -o x -L$prefix/$libdir -Wl,-rpath,$prefix/$libdir -lshmpi") ;;
  *) fail "shmpicc -show: unexpected '$shown'" ;;
esac
shown=$("$prefix/$bindir/shmpicxx" --showme -c x.cpp)
case $shown in
  *"-I$prefix/$includedir -c x.cpp") ;;
  *) fail "shmpicxx --showme -c: unexpected '$shown'" ;;
esac
[ "$("$prefix/$bindir/shmpicc" --showme:compile)" = "-I$prefix/$includedir" ] ||
  fail "--showme:compile"
[ "$("$prefix/$bindir/shmpicc" --showme:link)" = "-L$prefix/$libdir -Wl,-rpath,$prefix/$libdir -lshmpi" ] ||
  fail "--showme:link"
shown=$(SHMPI_CC="env FOO=1 cc" "$prefix/$bindir/shmpicc" -show -E x.c)
[ "$shown" = "env FOO=1 cc -I$prefix/$includedir -E x.c" ] || fail "SHMPI_CC: unexpected '$shown'"
shown=$(SHMPI_CXX=g++ "$prefix/$bindir/shmpicxx" -show -fsyntax-only x.cpp)
[ "$shown" = "g++ -I$prefix/$includedir -fsyntax-only x.cpp" ] || fail "SHMPI_CXX: unexpected '$shown'"

step "compile with the moved shmpicc and shmpicxx"
mkdir "$work/bin"
run_logged "$work/cc.log" "$prefix/$bindir/shmpicc" "$here/hello.c" -o "$work/bin/hello_cc"
run_logged "$work/cxx.log" "$prefix/$bindir/shmpicxx" "$here/hello.cpp" -o "$work/bin/hello_cxx"
run_logged "$work/c.log" "$prefix/$bindir/shmpicc" -c "$here/hello.c" -o "$work/hello.o"
run_logged "$work/link.log" "$prefix/$bindir/shmpicc" "$work/hello.o" -o "$work/bin/hello_two_steps"

step "find_package(shmpi CONFIG) from a CMake project"
generator_args=()
[ -z "$generator" ] || generator_args=(-G "$generator")
run_logged "$work/consumer-configure.log" "$cmake" -S "$here/consumer" -B "$work/consumer" \
  "${generator_args[@]}" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx"
run_logged "$work/consumer-build.log" "$cmake" --build "$work/consumer"
cp "$work/consumer/hello_cmake" "$work/consumer/hello_cmake_cxx" "$work/bin/"

step "pkg-config shmpi"
if command -v "$pkg_config" >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" "$pkg_config" --cflags --libs shmpi) ||
    fail "pkg-config cannot find shmpi.pc"
  # shellcheck disable=SC2086 # the flags are separate words
  run_logged "$work/pc.log" "$cc" "$here/hello.c" -o "$work/bin/hello_pkg_config" $flags
else
  echo "   (no pkg-config: not checked)"
fi

step "run each program with the moved shmpirun -n 2"
if [ ! -x "$prefix/$bindir/shmpirun" ]; then
  echo "install test: SKIP: shmpirun is not built yet (everything else passed)"
  exit 77
fi
for program in "$work"/bin/*; do
  name=$(basename "$program")
  if ! output=$(cd "$work" && timeout 60 "$prefix/$bindir/shmpirun" -n 2 "$program" 2>&1); then
    echo "$output" >&2
    fail "$name did not run"
  fi
  for rank in 0 1; do
    received=$(((rank + 1) % 2))
    grep -q "hello from rank $rank of 2, received $received" <<<"$output" ||
      fail "$name: no line from rank $rank in: $output"
  done
  echo "   $name: ok"
done
echo "install test: PASS"
