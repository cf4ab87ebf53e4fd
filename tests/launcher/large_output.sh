# SPDX-License-Identifier: MIT
# Much output from 8 ranks at once is forwarded completely, tagged or not.
. "$(dirname "$0")/lib.sh"

# 2 MB of stdout and 256 KiB of stderr per rank.
run -n 8 sh -c 'head -c 2000000 /dev/zero | tr "\0" "x"; head -c 262144 /dev/zero >&2'
expect_rc 0
[ "$(wc -c <"$out")" -eq 16000000 ] || fail "stdout has $(wc -c <"$out") bytes, expected 16000000"
[ "$(wc -c <"$err")" -eq 2097152 ] || fail "stderr has $(wc -c <"$err") bytes, expected 2097152"

run --tag-output -n 8 sh -c 'seq 1 50000'
expect_rc 0
[ "$(wc -l <"$out")" -eq 400000 ] || fail "expected 400000 tagged lines"
for rank in 0 1 2 3 4 5 6 7; do
  lines=$(grep -c "^\[$rank\] [0-9]*$" "$out")
  [ "$lines" -eq 50000 ] || fail "rank $rank: $lines lines, expected 50000"
  last=$(grep "^\[$rank\] " "$out" | tail -n 1)
  [ "$last" = "[$rank] 50000" ] || fail "rank $rank: lines out of order (last '$last')"
done
echo PASS
