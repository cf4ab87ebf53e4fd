# SPDX-License-Identifier: MIT
# Shared by the launcher behaviour tests: sh <test>.sh SHMPIRUN FAKE_RANK
# run ARGS...   runs shmpirun with stdin from /dev/null; sets $rc, $elapsed_ms,
#               and the files $out and $err.
set -u
SHMPIRUN=$1
FAKE_RANK=${2:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/shmpirun-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
out=$WORK/stdout
err=$WORK/stderr

now_ms() { echo $(($(date +%s%N) / 1000000)); }

run() {
  start=$(now_ms)
  "$SHMPIRUN" "$@" >"$out" 2>"$err" </dev/null
  rc=$?
  elapsed_ms=$(($(now_ms) - start))
}

fail() {
  echo "FAIL: $*"
  echo "--- stdout:"; head -c 2000 "$out"
  echo "--- stderr:"; head -c 2000 "$err"
  exit 1
}

expect_rc() { [ "$rc" -eq "$1" ] || fail "exit code $rc, expected $1"; }
# A whole line of $err, as a basic regular expression.
expect_err_line() { grep -qx -- "$1" "$err" || fail "no stderr line matching '$1'"; }
expect_no_err_line() { ! grep -q -- "$1" "$err" || fail "unexpected stderr line matching '$1'"; }
expect_out_line() { grep -qx -- "$1" "$out" || fail "no stdout line matching '$1'"; }
expect_err_lines() {
  count=$(wc -l <"$err")
  [ "$count" -eq "$1" ] || fail "$count stderr lines, expected $1"
}
expect_silent() {
  [ ! -s "$out" ] || fail "stdout not empty"
  [ ! -s "$err" ] || fail "stderr not empty"
}
expect_faster_than_ms() {
  [ "$elapsed_ms" -lt "$1" ] || fail "took ${elapsed_ms} ms, expected under $1 ms"
}
# Every pid listed in the files $WORK/pid.* must be gone. A zombie counts as
# gone: an orphan waits there until init reaps it.
expect_pids_gone() {
  for file in "$WORK"/pid.*; do
    [ -e "$file" ] || continue
    pid=$(cat "$file")
    state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
    if [ -n "$state" ] && [ "$state" != Z ]; then
      fail "process $pid ($file) is still alive (state $state)"
    fi
  done
}
