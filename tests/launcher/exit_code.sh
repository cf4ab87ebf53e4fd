# SPDX-License-Identifier: MIT
# A rank's exit code becomes the job's; success prints nothing.
. "$(dirname "$0")/lib.sh"

run -n 3 true
expect_rc 0
expect_silent

run -n 3 sh -c 'exit 3'
expect_rc 3
expect_err_line 'shmpirun: rank [0-2] (pid [0-9]*) exited with code 3'
expect_err_lines 1

# Rank 1 fails while the others would run for a minute: they are stopped.
run -n 4 sh -c '[ "$SHMPI_RANK" = 1 ] && exit 5; exec sleep 60'
expect_rc 5
expect_err_line 'shmpirun: rank 1 (pid [0-9]*) exited with code 5'
expect_err_lines 1
expect_faster_than_ms 10000

# A rank that exits non-zero after its output: the output comes first.
run -n 1 sh -c 'echo last words >&2; exit 7'
expect_rc 7
[ "$(head -n 1 "$err")" = "last words" ] || fail "rank output must precede the message"
echo PASS
