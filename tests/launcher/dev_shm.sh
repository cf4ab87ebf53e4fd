# SPDX-License-Identifier: MIT
# The segment is a memfd: no job, finished or failed, leaves files in /dev/shm.
. "$(dirname "$0")/lib.sh"

[ -d /dev/shm ] || { echo "no /dev/shm: skipped"; exit 77; }
before=$(ls -A /dev/shm | sort)
run -n 4 true
expect_rc 0
run -n 4 sh -c '[ "$SHMPI_RANK" = 1 ] && kill -9 $$; exec sleep 60'
expect_rc 137
run --timeout 0.3 -n 2 sleep 60
expect_rc 124
after=$(ls -A /dev/shm | sort)
[ "$before" = "$after" ] || fail "/dev/shm changed: before '$before', after '$after'"
echo PASS
