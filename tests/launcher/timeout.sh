# SPDX-License-Identifier: MIT
# --timeout S ends the job after S seconds with exit 124, even ranks that
# ignore SIGTERM (SIGKILL follows after the grace period).
. "$(dirname "$0")/lib.sh"

run --timeout 1 -n 2 sh -c 'echo $$ > '"$WORK"'/pid.$SHMPI_RANK; exec sleep 60'
expect_rc 124
expect_err_line 'shmpirun: job timed out after 1 s'
expect_err_lines 1
[ "$elapsed_ms" -ge 900 ] || fail "timed out early: ${elapsed_ms} ms"
expect_faster_than_ms 5000
expect_pids_gone

run --timeout=0.5 -n 2 sh -c 'trap "" TERM; echo $$ > '"$WORK"'/pid.$SHMPI_RANK; while :; do sleep 1; done'
expect_rc 124
expect_err_line 'shmpirun: job timed out after 0.5 s'
expect_faster_than_ms 6000
expect_pids_gone

# A job that ends in time is not affected.
run --timeout 30 -n 2 true
expect_rc 0
expect_silent
echo PASS
