# SPDX-License-Identifier: MIT
# The rank-table and abort contract, driven by fake_rank (no libshmpi):
# finalized ranks succeed, MPI_Init without MPI_Finalize fails, MPI_Abort's
# code is the job's, and a failing rank raises the abort flag and wakes the
# others.
. "$(dirname "$0")/lib.sh"

run -n 4 "$FAKE_RANK" init finalize
expect_rc 0
expect_silent

run -n 4 "$FAKE_RANK" init exit:0@2 finalize
expect_rc 1
expect_err_line 'shmpirun: rank 2 (pid [0-9]*) exited without calling MPI_Finalize'
expect_err_lines 1

# MPI_Abort: the rank's own message only, and its error code.
run -n 4 "$FAKE_RANK" init abort:7@1 wait-abort
expect_rc 7
expect_err_line 'shmpi: rank 1 called MPI_Abort(MPI_COMM_WORLD, 7) with error code 7'
expect_no_err_line 'exited with code'
expect_err_lines 1

# A crash inside MPI: the launcher raises the flag (abort_rank -1) and wakes
# the sleeping ranks, which ignore SIGTERM and report before SIGKILL comes.
run -n 4 "$FAKE_RANK" ignore-term init await-running@3 exit:3@3 wait-abort
expect_rc 3
expect_err_line 'shmpirun: rank 3 (pid [0-9]*) exited with code 3'
for rank in 0 1 2; do
  expect_out_line "rank $rank woken: abort_rank=-1"
done
echo PASS
