# SPDX-License-Identifier: MIT
# SHMPI_LAUNCHER_EPOLL=1 selects the epoll loop; otherwise io_uring is used
# where the kernel allows it (and epoll, with the reason, where it does not).
. "$(dirname "$0")/lib.sh"

export SHMPI_LAUNCHER_DEBUG=1
export SHMPI_LAUNCHER_EPOLL=1
run -n 2 true
expect_rc 0
expect_err_line 'shmpirun: event loop: epoll; SHMPI_LAUNCHER_EPOLL is set'

unset SHMPI_LAUNCHER_EPOLL
run -n 2 true
expect_rc 0
expect_err_line 'shmpirun: event loop: \(io_uring\|epoll; io_uring_queue_init failed: .*\)'
echo PASS
