# SPDX-License-Identifier: MIT
# --tag-output prefixes every line with "[rank] ", keeps partial lines of a
# rank together, and flushes a last line that has no newline.
. "$(dirname "$0")/lib.sh"

run --tag-output -n 3 sh -c 'echo "out $SHMPI_RANK"; echo "err $SHMPI_RANK" >&2
  printf "hel"; sleep 0.1; printf "lo\n"; printf "no newline"'
expect_rc 0
for rank in 0 1 2; do
  expect_out_line "\[$rank\] out $rank"
  expect_out_line "\[$rank\] hello"
  expect_out_line "\[$rank\] no newline"
  expect_err_line "\[$rank\] err $rank"
done
[ "$(wc -l <"$out")" -eq 9 ] || fail "expected 9 stdout lines"
[ "$(wc -l <"$err")" -eq 3 ] || fail "expected 3 stderr lines"

# Without the option, bytes pass through untouched.
run -n 1 sh -c 'printf "raw"'
expect_rc 0
[ "$(cat "$out")" = "raw" ] || fail "untagged output changed"
echo PASS
