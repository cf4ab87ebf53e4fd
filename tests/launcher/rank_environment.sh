# SPDX-License-Identifier: MIT
# Each rank gets SHMPI_RANK, SHMPI_SIZE and an open SHMPI_SEGMENT_FD naming
# the job's memfd; rank 0 inherits stdin, the others read /dev/null.
. "$(dirname "$0")/lib.sh"

run --tag-output -n 3 --universe-size 5 sh -c 'echo "$SHMPI_RANK/$SHMPI_SIZE $(readlink /proc/self/fd/$SHMPI_SEGMENT_FD)"'
expect_rc 0
for rank in 0 1 2; do
  expect_out_line "\[$rank\] $rank/3 /memfd:shmpi (deleted)"
done

echo from-stdin | "$SHMPIRUN" --tag-output -n 3 cat >"$out" 2>"$err"
rc=$?
expect_rc 0
[ "$(cat "$out")" = "[0] from-stdin" ] || fail "only rank 0 should read stdin"

# No launcher descriptor other than the segment leaks into a rank.
run -n 1 sh -c 'for fd in /proc/self/fd/*; do readlink "$fd"; done'
expect_rc 0
if grep -q 'anon_inode\|pidfd' "$out"; then
  fail "a launcher descriptor leaked into the rank"
fi
echo PASS
