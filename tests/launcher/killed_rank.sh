# SPDX-License-Identifier: MIT
# Rank 2 of 4 dies by SIGKILL: the job ends at once, names rank 2 and signal
# 9, exits 128+9, and no rank process survives.
. "$(dirname "$0")/lib.sh"

run -n 4 sh -c 'echo $$ > '"$WORK"'/pid.$SHMPI_RANK
  if [ "$SHMPI_RANK" = 2 ]; then sleep 0.2; kill -9 $$; fi
  exec sleep 60'
expect_rc 137
expect_err_line 'shmpirun: rank 2 (pid [0-9]*) killed by signal 9 (Killed)'
expect_err_lines 1
expect_faster_than_ms 10000
expect_pids_gone

# Children a rank started die with it (each rank is its own process group).
run -n 2 sh -c 'sleep 60 & echo $! > '"$WORK"'/pid.child$SHMPI_RANK
  [ "$SHMPI_RANK" = 1 ] && kill -SEGV $$; wait'
expect_rc 139
expect_err_line 'shmpirun: rank 1 (pid [0-9]*) killed by signal 11 (Segmentation fault)'
expect_faster_than_ms 10000
sleep 0.2
expect_pids_gone
echo PASS
