// SPDX-License-Identifier: MIT
// Helpers of the MPI-IO test programs (tests/mpi/io): a fresh file name
// that every rank of MPI_COMM_WORLD agrees on, and checked calls.
#ifndef SHMPI_TESTS_SUPPORT_MT_FILE_H_
#define SHMPI_TESTS_SUPPORT_MT_FILE_H_

#include <unistd.h>

#include "mpitest.h"

// "$TMPDIR/mt-<tag>-<pid of world rank 0>" (TMPDIR defaults to /tmp), the
// same on every rank; collective over MPI_COMM_WORLD.
static inline void mt_file_name(char* out, size_t size, const char* tag) {
  long pid = (long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const char* dir = getenv("TMPDIR");
  if (dir == NULL || dir[0] == '\0') {
    dir = "/tmp";
  }
  snprintf(out, size, "%s/mt-%s-%ld", dir, tag, pid);
}

// Fails the test unless rc is MPI_SUCCESS.
#define MT_CHECK_IO(rc, what)                                    \
  do {                                                           \
    int mt_rc_ = (rc);                                           \
    if (mt_rc_ != MPI_SUCCESS) {                                 \
      MT_FAIL("%s failed: %s", (what), mt_error_string(mt_rc_)); \
    }                                                            \
  } while (0)

// The byte count a status reports, as MPI_BYTE elements.
static inline int mt_status_bytes(const MPI_Status* status) {
  int count = -1;
  MPI_Get_count(status, MPI_BYTE, &count);
  return count;
}

// A fresh file (mt_file_name(tag)) opened by every rank of MPI_COMM_WORLD
// for reading and writing, deleted when closed.
static inline MPI_File mt_open_scratch_file(const char* tag) {
  char name[256];
  mt_file_name(name, sizeof name, tag);
  MPI_File fh = MPI_FILE_NULL;
  const int rc =
      MPI_File_open(MPI_COMM_WORLD, name,
                    MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                    MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) {
    MT_FAIL("MPI_File_open of %s failed: %s", name, mt_error_string(rc));
  }
  return fh;
}

#endif  // SHMPI_TESTS_SUPPORT_MT_FILE_H_
