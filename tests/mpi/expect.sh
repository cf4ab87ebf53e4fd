#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs an MPI job and checks how it ended: exit status, output patterns, and
# (with --no-leftovers) that no new /dev/shm entry and no rank process
# outlives it. Used by CTest (cmake/ShmpiMpiTest.cmake) and by
# run_with_mpich.sh for the tests whose job is meant to fail.
#
# usage: expect.sh [--exit N|nonzero] [--regex ERE]... [--count N ERE]...
#                  [--no-leftovers] [--timeout S] -- command [args...]
# --count: exactly N output lines match ERE.
# Any output line starting "FAIL: " fails the check too. Ranks that want their
# pids checked write them to files in $MT_PID_DIR (see launch/kill9.c).
set -u

expect_exit=0
regexes=""
counts=""
no_leftovers=0
timeout_s=120
while [ $# -gt 0 ]; do
  case "$1" in
    --exit) expect_exit=$2; shift 2 ;;
    --regex) regexes="$regexes$2
"; shift 2 ;;
    --count) counts="$counts$2 $3
"; shift 3 ;;
    --no-leftovers) no_leftovers=1; shift ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "expect.sh: no command" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-expect.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
out="$work/output"
if [ $no_leftovers -eq 1 ]; then
  mkdir "$work/pids"
  MT_PID_DIR="$work/pids"
  export MT_PID_DIR
  find /dev/shm -mindepth 1 -maxdepth 1 | sort > "$work/shm.before"
fi

started=$(date +%s)
timeout -k 5 "$timeout_s" "$@" > "$out" 2>&1
status=$?
elapsed=$(($(date +%s) - started))
cat "$out"

failed=0
fail() {
  echo "expect.sh: $*"
  failed=1
}

if { [ $status -eq 124 ] || [ $status -eq 137 ]; } &&
    [ $elapsed -ge "$timeout_s" ]; then
  fail "the job did not end within ${timeout_s}s (status $status)"
elif [ $status -eq 77 ] && [ "$expect_exit" = 0 ]; then
  echo "expect.sh: skipped (status 77)"
  exit 77
elif [ "$expect_exit" = nonzero ]; then
  [ $status -ne 0 ] || fail "the job exited 0, expected a non-zero status"
elif [ $status -ne "$expect_exit" ]; then
  fail "the job exited $status, expected $expect_exit"
fi

if grep -q '^FAIL: ' "$out"; then
  fail "the output has a FAIL line"
fi

printf '%s' "$regexes" | while IFS= read -r re; do
  [ -n "$re" ] || continue
  grep -Eqi -- "$re" "$out" || echo "no output line matches /$re/"
done > "$work/missing"
if [ -s "$work/missing" ]; then
  while IFS= read -r line; do fail "$line"; done < "$work/missing"
fi

printf '%s' "$counts" | while IFS= read -r spec; do
  [ -n "$spec" ] || continue
  want=${spec%% *}
  re=${spec#* }
  got=$(grep -Eci -- "$re" "$out")
  [ "$got" -eq "$want" ] ||
    echo "$got output lines match /$re/, expected $want"
done > "$work/miscounted"
if [ -s "$work/miscounted" ]; then
  while IFS= read -r line; do fail "$line"; done < "$work/miscounted"
fi

if [ $no_leftovers -eq 1 ]; then
  find /dev/shm -mindepth 1 -maxdepth 1 | sort > "$work/shm.after"
  # Entries of other MPI implementations (MPICH, Open MPI/UCX) come from
  # benchmark or differential runs that may share the machine: not ours.
  new=$(comm -13 "$work/shm.before" "$work/shm.after" |
    grep -vE '/dev/shm/(mpich_|ucx_|vader_segment|sm_segment|open_mpi|psm2?_|sem\.mpich)' || true)
  [ -z "$new" ] || fail "new entries in /dev/shm: $(echo "$new" | tr '\n' ' ')"
  pids=$(cat "$work"/pids/* 2>/dev/null)
  [ -n "$pids" ] || fail "no rank wrote its pid to \$MT_PID_DIR"
  # The launcher should reap its ranks before it exits; a rank that is
  # still dying (a zombie, or killed by PR_SET_PDEATHSIG a moment later) gets
  # two seconds of grace.
  for pid in $pids; do
    tries=0
    while [ -d "/proc/$pid" ] &&
        ! grep -q '^[^)]*) Z' "/proc/$pid/stat" 2>/dev/null; do
      tries=$((tries + 1))
      if [ $tries -gt 20 ]; then
        fail "rank process $pid is still alive after the job ended"
        break
      fi
      sleep 0.1
    done
  done
fi

exit $failed
