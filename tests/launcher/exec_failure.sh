# SPDX-License-Identifier: MIT
# A program that cannot be executed: one message naming it, exit 127.
. "$(dirname "$0")/lib.sh"

run -n 3 /nonexistent/shmpi-no-such-program
expect_rc 127
expect_err_line "shmpirun: cannot execute '/nonexistent/shmpi-no-such-program': No such file or directory"
expect_err_lines 1

run -n 2 shmpi-no-such-program-on-path
expect_rc 127
expect_err_line "shmpirun: cannot execute 'shmpi-no-such-program-on-path': No such file or directory"

touch "$WORK/not-executable"
run -n 1 "$WORK/not-executable"
expect_rc 127
expect_err_line "shmpirun: cannot execute '$WORK/not-executable': Permission denied"
echo PASS
