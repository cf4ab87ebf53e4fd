# SPDX-License-Identifier: MIT
# A bad command line prints a reason and the usage on stderr and exits 2;
# --help prints the usage on stdout and exits 0.
. "$(dirname "$0")/lib.sh"

check_usage_error() {
  run "$@"
  expect_rc 2
  grep -q '^shmpirun: ' "$err" || fail "no reason given for: $*"
  grep -q '^usage: shmpirun' "$err" || fail "no usage for: $*"
  [ ! -s "$out" ] || fail "stdout not empty for: $*"
}

check_usage_error
check_usage_error true
check_usage_error -n 2
check_usage_error -n 0 true
check_usage_error -n many true
check_usage_error -n 2000 true
check_usage_error --bind-to socket -n 1 true
check_usage_error --timeout never -n 1 true
check_usage_error --universe-size 1 -n 2 true
check_usage_error --frobnicate -n 1 true

run --help
expect_rc 0
grep -q '^usage: shmpirun' "$out" || fail "--help prints no usage"
[ ! -s "$err" ] || fail "--help wrote to stderr"
echo PASS
