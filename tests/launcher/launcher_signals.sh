# SPDX-License-Identifier: MIT
# SIGINT or SIGTERM to the launcher stops every rank; exit 130 or 143.
. "$(dirname "$0")/lib.sh"

for case in INT:130 TERM:143; do
  signal=${case%:*}
  expected=${case#*:}
  rm -f "$WORK"/pid.*
  "$SHMPIRUN" -n 3 sh -c 'echo $$ > '"$WORK"'/pid.$SHMPI_RANK; exec sleep 60' >"$out" 2>"$err" </dev/null &
  launcher=$!
  tries=0
  while [ "$(ls "$WORK" | grep -c '^pid\.')" -lt 3 ] && [ $tries -lt 100 ]; do
    sleep 0.05
    tries=$((tries + 1))
  done
  kill -"$signal" "$launcher"
  wait "$launcher"
  rc=$?
  expect_rc "$expected"
  expect_pids_gone
done
echo PASS
