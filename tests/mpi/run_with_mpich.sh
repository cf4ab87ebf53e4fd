#!/bin/bash
# SPDX-License-Identifier: MIT
# Differential check of the MPI test programs: builds every program listed in
# manifest.txt with Debian's MPICH (mpicc.mpich) and runs it with
# mpirun.mpich at each of its rank counts, so the tests themselves are
# validated against an MPI that is known to work. Tests marked shmpi-only are
# skipped; output patterns (regex=) are shmpi's wording and are not checked;
# tests marked mpich-xfail=BUG are expected to fail here (XFAIL; XPASS once
# the MPICH bug is fixed). Tests marked pending (not in CTest until shmpi
# implements what they check) run here like the others.
#
# usage: run_with_mpich.sh [-o BUILD_DIR] [-v] [FILTER_ERE]
#   -o  where to put the binaries and logs (default: a new temporary folder)
#   -v  print the output of failing tests
#   FILTER_ERE  run only the tests whose full name (name.npN) matches
# MPICH_TEST_CFLAGS adds compiler flags, e.g. "-fsanitize=address,undefined"
# to check the test programs themselves.
set -u
here=$(cd "$(dirname "$0")" && pwd)
support=$(cd "$here/../support" && pwd)
build=""
verbose=0
while getopts "o:v" opt; do
  case $opt in
    o) build=$OPTARG ;;
    v) verbose=1 ;;
    *) echo "usage: $0 [-o BUILD_DIR] [-v] [FILTER_ERE]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
filter=${1:-}
[ -n "$build" ] || build=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-mpich.XXXXXX")
mkdir -p "$build/bin" "$build/log"
for tool in mpicc.mpich mpirun.mpich; do
  command -v $tool > /dev/null || { echo "$tool not found (apt-get install mpich)" >&2; exit 2; }
done

# name np source options... -> one entry per rank count.
declare -a names nps sources opts
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%%#*}
  [ -n "${line//[[:space:]]/}" ] || continue
  set -f
  eval "set -- $line"
  set +f
  name=$1 np_list=$2 source=$3
  shift 3
  rest=""
  for o in "$@"; do rest+="$o"$'\x1f'; done
  for np in ${np_list//,/ }; do
    names+=("$name.np$np") nps+=("$np") sources+=("$source") opts+=("$rest")
  done
done < "$here/manifest.txt"

binary_of() { local s=${1%.c}; echo "$build/bin/${s//\//_}"; }

# Build each program once.
declare -A built
build_failures=0
for i in "${!names[@]}"; do
  [[ -z "$filter" || "${names[$i]}" =~ $filter ]] || continue
  [[ "${opts[$i]}" == *shmpi-only* ]] && continue
  src=${sources[$i]}
  [ -z "${built[$src]:-}" ] || continue
  built[$src]=1
  # -Wno-stringop-overflow: GCC 12 misreads MPICH's MPI_STATUSES_IGNORE.
  # shellcheck disable=SC2086  # MPICH_TEST_CFLAGS is a list of flags
  if ! mpicc.mpich -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra \
      -Wno-stringop-overflow \
      ${MPICH_TEST_CFLAGS:-} -I"$support" \
      "$here/$src" -o "$(binary_of "$src")" -lpthread \
      > "$build/log/build_${src//\//_}.log" 2>&1; then
    echo "BUILD FAIL $src"
    cat "$build/log/build_${src//\//_}.log"
    build_failures=$((build_failures + 1))
    built[$src]=failed
  elif [ -s "$build/log/build_${src//\//_}.log" ]; then
    echo "warnings in $src:"
    cat "$build/log/build_${src//\//_}.log"
  fi
done

pass=0 fail=0 skip=0 shmpi_only=0 xfails=0
failed_names=()
suite_start=$(date +%s.%N)
for i in "${!names[@]}"; do
  name=${names[$i]}
  [[ -z "$filter" || "$name" =~ $filter ]] || continue
  IFS=$'\x1f' read -r -a o <<< "${opts[$i]}"
  exit_code=0 timeout_s=60 direct=0 leftovers=() args=() only=0 xfail=""
  counts=() envs=()
  for opt in "${o[@]}"; do
    case $opt in
      shmpi-only) only=1 ;;
      direct) direct=1 ;;
      no-leftovers) leftovers=(--no-leftovers) ;;
      exit=*) exit_code=${opt#exit=} ;;
      timeout=*) timeout_s=${opt#timeout=} ;;
      args=*) a=${opt#args=}; IFS=, read -r -a args <<< "${a//\{np\}/${nps[$i]}}" ;;
      regex=*) ;;
      count=*)
        c=${opt#count=}
        n=${c%%:*}
        counts+=(--count $((${n//\{np\}/${nps[$i]}})) "${c#*:}") ;;
      mpich-xfail=*) xfail=${opt#mpich-xfail=} ;;
      env=*) envs+=("${opt#env=}") ;;
      label=*) ;;
      launcher=*) ;;  # shmpirun options: MPICH runs the program without them
      pending) ;;  # not in CTest yet; MPICH runs it like any other test
      *) echo "manifest: unknown option '$opt' for $name" >&2; exit 2 ;;
    esac
  done
  if [ $only -eq 1 ]; then
    shmpi_only=$((shmpi_only + 1))
    continue
  fi
  bin=$(binary_of "${sources[$i]}")
  if [ "${built[${sources[$i]}]}" = failed ]; then
    echo "FAIL  $name (build)"
    fail=$((fail + 1)); failed_names+=("$name"); continue
  fi
  if [ $direct -eq 1 ]; then
    cmd=("$bin" "${args[@]}")
  else
    cmd=(mpirun.mpich -n "${nps[$i]}" "$bin" "${args[@]}")
  fi
  [ ${#envs[@]} -eq 0 ] || cmd=(env "${envs[@]}" "${cmd[@]}")
  log="$build/log/$name.log"
  start=$(date +%s.%N)
  # MPICH busy-polls: oversubscribed runs are slow, so allow it twice the time.
  "$here/expect.sh" --exit "$exit_code" --timeout $((timeout_s * 2)) \
    "${leftovers[@]}" "${counts[@]}" -- "${cmd[@]}" > "$log" 2>&1
  status=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  if [ -n "$xfail" ]; then
    if [ $status -eq 0 ]; then
      printf "XPASS %-48s %6.2fs  (known MPICH bug %s seems fixed)\n" \
        "$name" "$secs" "$xfail"
    else
      printf "XFAIL %-48s %6.2fs  (known MPICH bug %s)\n" "$name" "$secs" \
        "$xfail"
    fi
    xfails=$((xfails + 1))
  elif [ $status -eq 0 ]; then
    printf "PASS  %-48s %6.2fs\n" "$name" "$secs"
    pass=$((pass + 1))
  elif [ $status -eq 77 ]; then
    printf "SKIP  %-48s %6.2fs\n" "$name" "$secs"
    skip=$((skip + 1))
  else
    printf "FAIL  %-48s %6.2fs  (log: %s)\n" "$name" "$secs" "$log"
    [ $verbose -eq 0 ] || sed 's/^/    | /' "$log"
    fail=$((fail + 1)); failed_names+=("$name")
  fi
done
total=$(echo "$(date +%s.%N) - $suite_start" | bc)
printf "\n%d passed, %d failed, %d skipped, %d known MPICH bugs, %d shmpi-only not run; %.0fs (MPICH %s)\n" \
  $pass $fail $skip $xfails $shmpi_only "$total" \
  "$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p')"
[ $fail -eq 0 ] || { printf "failed: %s\n" "${failed_names[*]}"; exit 1; }
[ $build_failures -eq 0 ] || exit 1
