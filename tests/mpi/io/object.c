// SPDX-License-Identifier: MIT
// What a file is apart from its data (MPI 4.0 §14.2.4-14.2.8, §14.6.1,
// §9.3.3, §14.7, §19.3.4):
// - MPI_File_get_group is the group of the communicator the file was
//   opened on, and MPI_File_get_amode its access mode;
// - "MPI_FILE_SET_SIZE resizes the file": it grows and shrinks it, keeps
//   the data below the new size and leaves the file pointers alone;
//   "if size is less than or equal to the current file size, the file size
//   is unchanged" by MPI_File_preallocate, which grows it otherwise;
// - MPI_File_get_info returns a new info object holding the hints in
//   effect: no key the implementation does not use, and "filename" and
//   "file_perm", where they are there, are the file's name and the
//   permissions it was created with; MPI_File_set_info takes any key;
// - atomicity is off until MPI_File_set_atomicity sets it; "in atomic
//   mode, ... conflicting accesses are atomic": ranks overwriting the same
//   range with their own value while others read it, each read sees one
//   rank's block, and the range ends up one rank's value throughout;
// - MPI_File_sync between a write and a barrier makes the data visible to
//   the other ranks' reads (the sync-barrier-sync construct);
// - MPI_File_c2f / MPI_File_f2c round-trip a real file;
// - "the predefined error handler for file handles is MPI_ERRORS_RETURN";
//   a user handler set on a file is called with the file handle and the
//   code, by an error and by MPI_File_call_errhandler; MPI_FILE_NULL's
//   handler, "the default file error handler", gets MPI_File_open's errors
//   (with MPI_FILE_NULL) and is the handler of files opened afterwards.
// With the argument sync_read_only only the last check runs: a file opened
// MPI_MODE_RDONLY may be synced (a reader's half of sync-barrier-sync;
// MPICH 4.0.2 refuses it).
#include <stdlib.h>
#include <string.h>

#include "mt_file.h"

static MPI_File seen_file = MPI_FILE_NULL;
static int seen_code = MPI_SUCCESS;
static int seen_calls = 0;
static void handler(MPI_File* file, int* code, ...) {
  seen_file = *file;
  seen_code = *code;
  ++seen_calls;
}

static int class_of(int code) {
  int error_class = -1;
  MPI_Error_class(code, &error_class);
  return error_class;
}

static MPI_Offset size_of(MPI_File fh) {
  MPI_Offset size = -1;
  MT_CHECK_IO(MPI_File_get_size(fh, &size), "MPI_File_get_size");
  return size;
}

static void expect_size(MPI_File fh, MPI_Offset expected, const char* after) {
  const MPI_Offset size = size_of(fh);
  MT_CHECK(size == expected, "after %s the file has %lld bytes, expected %lld",
           after, (long long)size, (long long)expected);
}

static void check_group_and_amode(MPI_File fh, int amode, MPI_Comm comm) {
  MPI_Group file_group, comm_group;
  MT_CHECK_IO(MPI_File_get_group(fh, &file_group), "MPI_File_get_group");
  MPI_Comm_group(comm, &comm_group);
  int result = MPI_UNEQUAL;
  MPI_Group_compare(file_group, comm_group, &result);
  MT_CHECK(result == MPI_IDENT,
           "the file's group is not the communicator's (compare: %d)", result);
  MPI_Group_free(&file_group);
  MPI_Group_free(&comm_group);
  int got = -1;
  MT_CHECK_IO(MPI_File_get_amode(fh, &got), "MPI_File_get_amode");
  MT_CHECK(got == amode, "MPI_File_get_amode gave 0x%x, expected 0x%x", got,
           amode);
}

// Each rank opens a file on a communicator whose ranks are world's in
// reverse: its group is that order, not MPI_COMM_WORLD's.
static void check_reversed_group(const char* name) {
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size() - mt_rank(), &reversed);
  MPI_File fh;
  const int amode = MPI_MODE_RDONLY;
  MT_CHECK_IO(MPI_File_open(reversed, name, amode, MPI_INFO_NULL, &fh),
              "MPI_File_open on a reversed communicator");
  check_group_and_amode(fh, amode, reversed);
  MPI_File_close(&fh);
  MPI_Comm_free(&reversed);
}

static void check_sizes(MPI_File fh) {
  const int rank = mt_rank();
  expect_size(fh, 0, "MPI_File_open");
  MT_CHECK_IO(MPI_File_set_size(fh, 1000), "MPI_File_set_size(1000)");
  expect_size(fh, 1000, "MPI_File_set_size(1000)");
  // Rank 0 writes a pattern; then the file shrinks below its end.
  unsigned char pattern[400];
  for (int i = 0; i < 400; ++i) {
    pattern[i] = (unsigned char)(i * 7 + 1);
  }
  if (rank == 0) {
    MT_CHECK_IO(
        MPI_File_write_at(fh, 0, pattern, 400, MPI_BYTE, MPI_STATUS_IGNORE),
        "MPI_File_write_at");
  }
  MT_CHECK_IO(MPI_File_seek(fh, 300 + rank, MPI_SEEK_SET), "MPI_File_seek");
  MT_CHECK_IO(MPI_File_set_size(fh, 100), "MPI_File_set_size(100)");
  expect_size(fh, 100, "MPI_File_set_size(100)");
  MPI_Offset position = -1;
  MPI_File_get_position(fh, &position);
  MT_CHECK(position == 300 + rank,
           "MPI_File_set_size moved the individual file pointer to %lld",
           (long long)position);
  unsigned char in[400];
  MPI_Status status;
  MT_CHECK_IO(MPI_File_read_at(fh, 0, in, 400, MPI_BYTE, &status),
              "MPI_File_read_at");
  MT_CHECK(mt_status_bytes(&status) == 100, "read %d bytes of a 100-byte file",
           mt_status_bytes(&status));
  MT_CHECK(memcmp(in, pattern, 100) == 0,
           "the bytes below the new size changed");

  // Preallocation never shrinks.
  MT_CHECK_IO(MPI_File_preallocate(fh, 50), "MPI_File_preallocate(50)");
  expect_size(fh, 100, "MPI_File_preallocate(50)");
  MT_CHECK_IO(MPI_File_preallocate(fh, 0), "MPI_File_preallocate(0)");
  expect_size(fh, 100, "MPI_File_preallocate(0)");
  MT_CHECK_IO(MPI_File_preallocate(fh, 5000), "MPI_File_preallocate(5000)");
  expect_size(fh, 5000, "MPI_File_preallocate(5000)");
  MT_CHECK_IO(MPI_File_set_size(fh, 1 << 20), "MPI_File_set_size(1 MiB)");
  expect_size(fh, 1 << 20, "MPI_File_set_size(1 MiB)");
  memset(in, 0, sizeof in);
  MT_CHECK_IO(MPI_File_read_at(fh, 0, in, 100, MPI_BYTE, MPI_STATUS_IGNORE),
              "MPI_File_read_at");
  MT_CHECK(memcmp(in, pattern, 100) == 0,
           "growing the file changed its first bytes");
  MT_CHECK_IO(MPI_File_set_size(fh, 0), "MPI_File_set_size(0)");
  expect_size(fh, 0, "MPI_File_set_size(0)");
}

static void check_info(MPI_File fh, const char* name) {
  MPI_Info info;
  MT_CHECK_IO(MPI_File_get_info(fh, &info), "MPI_File_get_info");
  char value[MPI_MAX_INFO_VAL];
  int flag = 0;
  MPI_Info_get(info, "shmpi_test_unknown", MPI_MAX_INFO_VAL - 1, value, &flag);
  MT_CHECK(!flag, "MPI_File_get_info reports a hint nobody uses");
  MPI_Info_get(info, "filename", MPI_MAX_INFO_VAL - 1, value, &flag);
  MT_CHECK(!flag || strcmp(value, name) == 0,
           "the filename hint is \"%s\", not \"%s\"", value, name);
  MPI_Info_get(info, "file_perm", MPI_MAX_INFO_VAL - 1, value, &flag);
  MT_CHECK(!flag || strcmp(value, "0640") == 0,
           "the file_perm hint is \"%s\", not the \"0640\" the file was "
           "created with",
           value);
  // The object is the program's: changing and freeing it is allowed.
  MPI_Info_set(info, "shmpi_test_mine", "yes");
  MPI_Info_free(&info);

  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "shmpi_test_unknown", "ignored");
  MPI_Info_set(hints, "access_style", "read_once,write_once");
  MT_CHECK_IO(MPI_File_set_info(fh, hints), "MPI_File_set_info");
  MPI_Info_free(&hints);
  MT_CHECK_IO(MPI_File_set_info(fh, MPI_INFO_NULL),
              "MPI_File_set_info(MPI_INFO_NULL)");
  MT_CHECK_IO(MPI_File_get_info(fh, &info), "MPI_File_get_info");
  MPI_Info_get(info, "shmpi_test_unknown", MPI_MAX_INFO_VAL - 1, value, &flag);
  MT_CHECK(!flag, "MPI_File_get_info reports a hint nobody uses");
  MPI_Info_free(&info);
}

enum { kAtomicInts = 16384, kAtomicRounds = 60 };

// Which rank's block `block` is, or -1 when it mixes values.
static int block_owner(const int* block) {
  for (int i = 1; i < kAtomicInts; ++i) {
    if (block[i] != block[0]) {
      return -1;
    }
  }
  return block[0];
}

static void check_atomicity(MPI_File fh) {
  const int rank = mt_rank();
  int flag = -1;
  MT_CHECK_IO(MPI_File_get_atomicity(fh, &flag), "MPI_File_get_atomicity");
  MT_CHECK(flag == 0, "a file starts in atomic mode");
  // Any true value sets it.
  MT_CHECK_IO(MPI_File_set_atomicity(fh, 2), "MPI_File_set_atomicity(2)");
  MPI_File_get_atomicity(fh, &flag);
  MT_CHECK(flag != 0, "MPI_File_set_atomicity(2) left nonatomic mode");

  // Every rank overwrites bytes [0, block) with its own value and reads
  // them back, over and over: no read may see two ranks' values (or the
  // zeros of the empty file and a value).
  const MPI_Offset block = (MPI_Offset)kAtomicInts * (MPI_Offset)sizeof(int);
  MT_CHECK_IO(MPI_File_set_size(fh, block), "MPI_File_set_size");
  int* mine = malloc(sizeof(int) * kAtomicInts);
  int* seen = malloc(sizeof(int) * kAtomicInts);
  for (int i = 0; i < kAtomicInts; ++i) {
    mine[i] = rank + 1;
  }
  for (int round = 0; round < kAtomicRounds; ++round) {
    MT_CHECK_IO(
        MPI_File_write_at(fh, 0, mine, kAtomicInts, MPI_INT, MPI_STATUS_IGNORE),
        "MPI_File_write_at in atomic mode");
    MT_CHECK_IO(
        MPI_File_read_at(fh, 0, seen, kAtomicInts, MPI_INT, MPI_STATUS_IGNORE),
        "MPI_File_read_at in atomic mode");
    const int owner = block_owner(seen);
    MT_CHECK(owner >= 0 && owner <= mt_size(),
             "round %d: a read in atomic mode saw a mixed block (int 0 is %d)",
             round, seen[0]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_size(fh, block, "the writes in atomic mode");
  MT_CHECK_IO(
      MPI_File_read_at(fh, 0, seen, kAtomicInts, MPI_INT, MPI_STATUS_IGNORE),
      "MPI_File_read_at");
  const int owner = block_owner(seen);
  MT_CHECK(owner >= 1 && owner <= mt_size(),
           "after the writes the range is not one rank's value (int 0 is %d)",
           seen[0]);
  int first_owner = owner;
  MPI_Bcast(&first_owner, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MT_CHECK(owner == first_owner, "rank 0 saw rank %d's block, this rank %d's",
           first_owner - 1, owner - 1);
  free(mine);
  free(seen);

  MT_CHECK_IO(MPI_File_set_atomicity(fh, 0), "MPI_File_set_atomicity(0)");
  MPI_File_get_atomicity(fh, &flag);
  MT_CHECK(flag == 0, "MPI_File_set_atomicity(0) left atomic mode");
  MT_CHECK_IO(MPI_File_set_size(fh, 0), "MPI_File_set_size(0)");
}

// Atomic mode on a file opened MPI_MODE_WRONLY: its size is still known.
static void check_atomic_write_only(const char* name) {
  MPI_File fh;
  MT_CHECK_IO(
      MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
      "MPI_File_open (MPI_MODE_WRONLY)");
  MT_CHECK_IO(MPI_File_set_atomicity(fh, 1), "MPI_File_set_atomicity");
  const char byte = (char)('a' + mt_rank() % 26);
  MT_CHECK_IO(
      MPI_File_write_at(fh, mt_rank(), &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE),
      "MPI_File_write_at");
  MPI_Barrier(MPI_COMM_WORLD);
  expect_size(fh, mt_size(), "a byte from each rank");
  MPI_File_close(&fh);
}

// Each rank writes its block, syncs; after a barrier each syncs again and
// reads its neighbour's.
static void check_sync(MPI_File fh) {
  const int rank = mt_rank();
  int out[64], in[64];
  for (int i = 0; i < 64; ++i) {
    out[i] = rank * 1000 + i;
  }
  MT_CHECK_IO(MPI_File_write_at(fh, (MPI_Offset)rank * (MPI_Offset)sizeof out,
                                out, 64, MPI_INT, MPI_STATUS_IGNORE),
              "MPI_File_write_at");
  MT_CHECK_IO(MPI_File_sync(fh), "MPI_File_sync");
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_IO(MPI_File_sync(fh), "MPI_File_sync");
  const int peer = (rank + 1) % mt_size();
  MT_CHECK_IO(MPI_File_read_at(fh, (MPI_Offset)peer * (MPI_Offset)sizeof in, in,
                               64, MPI_INT, MPI_STATUS_IGNORE),
              "MPI_File_read_at");
  for (int i = 0; i < 64; ++i) {
    MT_CHECK(in[i] == peer * 1000 + i, "int %d of rank %d's block is %d", i,
             peer, in[i]);
  }
}

static void check_fortran_handles(MPI_File fh) {
  const MPI_Fint f = MPI_File_c2f(fh);
  MT_CHECK(f != MPI_File_c2f(MPI_FILE_NULL),
           "MPI_File_c2f gave an open file MPI_FILE_NULL's value");
  MT_CHECK(MPI_File_f2c(f) == fh, "MPI_File_f2c(MPI_File_c2f(fh)) != fh");
  MT_CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL,
           "MPI_FILE_NULL does not round-trip");
}

// A handle the program got from MPI_File_get_errhandler is not freed here:
// MPICH 4.0.2 does not count it, and freeing it breaks its later
// MPI_File_close.
static void check_errhandlers(MPI_File fh, const char* name) {
  MPI_Errhandler got = MPI_ERRHANDLER_NULL;
  MT_CHECK_IO(MPI_File_get_errhandler(fh, &got), "MPI_File_get_errhandler");
  MT_CHECK(got == MPI_ERRORS_RETURN,
           "a new file's error handler is not MPI_ERRORS_RETURN");
  MT_CHECK_IO(MPI_File_get_errhandler(MPI_FILE_NULL, &got),
              "MPI_File_get_errhandler(MPI_FILE_NULL)");
  MT_CHECK(got == MPI_ERRORS_RETURN,
           "MPI_FILE_NULL's error handler is not MPI_ERRORS_RETURN");

  MPI_Errhandler user;
  MT_CHECK_IO(MPI_File_create_errhandler(handler, &user),
              "MPI_File_create_errhandler");
  MT_CHECK_IO(MPI_File_set_errhandler(fh, user), "MPI_File_set_errhandler");
  MPI_File_get_errhandler(fh, &got);
  MT_CHECK(got == user, "MPI_File_get_errhandler is not the handler set");
  // An error on the file: a negative offset.
  char byte = 0;
  int rc = MPI_File_read_at(fh, -1, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE);
  MT_CHECK(seen_calls == 1 && seen_file == fh,
           "the file's handler was not called with the file (%d calls)",
           seen_calls);
  MT_CHECK(seen_code == rc && class_of(rc) == MPI_ERR_ARG,
           "the handler got code %d, the call returned %d (%s)", seen_code, rc,
           mt_error_string(rc));
  MT_CHECK_IO(MPI_File_call_errhandler(fh, MPI_ERR_OTHER),
              "MPI_File_call_errhandler");
  MT_CHECK(seen_calls == 2 && seen_file == fh && seen_code == MPI_ERR_OTHER,
           "MPI_File_call_errhandler: calls %d, code %d", seen_calls,
           seen_code);
  // The file's handler is its own: MPI_FILE_NULL's is still the default.
  MPI_File_get_errhandler(MPI_FILE_NULL, &got);
  MT_CHECK(got == MPI_ERRORS_RETURN,
           "setting a file's handler changed MPI_FILE_NULL's");

  // MPI_FILE_NULL's handler: errors tied to no file, with MPI_FILE_NULL.
  MT_CHECK_IO(MPI_File_set_errhandler(MPI_FILE_NULL, user),
              "MPI_File_set_errhandler(MPI_FILE_NULL)");
  MPI_File_get_errhandler(MPI_FILE_NULL, &got);
  MT_CHECK(got == user, "MPI_FILE_NULL's handler is not the one set");
  char missing[300];
  snprintf(missing, sizeof missing, "%s.missing", name);
  MPI_File other = MPI_FILE_NULL;
  seen_file = fh;
  rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL,
                     &other);
  MT_CHECK(class_of(rc) == MPI_ERR_NO_SUCH_FILE,
           "MPI_File_open of a missing file: %s", mt_error_string(rc));
  MT_CHECK(seen_calls == 3 && seen_file == MPI_FILE_NULL && seen_code == rc,
           "MPI_File_open's error did not reach MPI_FILE_NULL's handler with "
           "MPI_FILE_NULL (%d calls)",
           seen_calls);
  MT_CHECK_IO(MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_IO),
              "MPI_File_call_errhandler(MPI_FILE_NULL)");
  MT_CHECK(
      seen_calls == 4 && seen_file == MPI_FILE_NULL && seen_code == MPI_ERR_IO,
      "MPI_File_call_errhandler(MPI_FILE_NULL): calls %d, code %d", seen_calls,
      seen_code);
  // A file opened now starts with it, and keeps it when MPI_FILE_NULL's
  // changes back.
  MT_CHECK_IO(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY,
                            MPI_INFO_NULL, &other),
              "MPI_File_open");
  MPI_File_get_errhandler(other, &got);
  MT_CHECK(got == user,
           "a file opened after MPI_File_set_errhandler("
           "MPI_FILE_NULL, h) does not have h");
  MT_CHECK_IO(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN),
              "MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN)");
  rc = MPI_File_write_at(other, 0, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE);
  MT_CHECK(seen_calls == 5 && seen_file == other &&
               class_of(rc) == MPI_ERR_READ_ONLY,
           "writing a read-only file: %s, %d calls", mt_error_string(rc),
           seen_calls);
  MPI_File_close(&other);
  // The program's handle goes; the file still holds the handler.
  MPI_Errhandler_free(&user);
  MT_CHECK(user == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free kept the handle");
  MPI_File_call_errhandler(fh, MPI_ERR_OTHER);
  MT_CHECK(seen_calls == 6, "a freed handler set on a file was not called");
  MT_CHECK_IO(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN),
              "MPI_File_set_errhandler(MPI_ERRORS_RETURN)");
}

static void sync_read_only(const char* name) {
  MPI_File fh;
  MT_CHECK_IO(
      MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
      "MPI_File_open (MPI_MODE_RDONLY)");
  MT_CHECK_IO(MPI_File_sync(fh), "MPI_File_sync on a read-only file");
  MPI_File_close(&fh);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int only_sync_read_only =
      argc > 1 && strcmp(argv[1], "sync_read_only") == 0;
  char name[256];
  mt_file_name(name, sizeof name, "object");
  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "shmpi_test_unknown", "ignored");
  MPI_Info_set(hints, "file_perm", "0640");
  MPI_File fh;
  const int amode = MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE;
  MT_CHECK_IO(MPI_File_open(MPI_COMM_WORLD, name, amode, hints, &fh),
              "MPI_File_open");
  MPI_Info_free(&hints);
  if (only_sync_read_only) {
    sync_read_only(name);
  } else {
    check_group_and_amode(fh, amode, MPI_COMM_WORLD);
    check_reversed_group(name);
    check_fortran_handles(fh);
    check_sizes(fh);
    check_info(fh, name);
    check_atomicity(fh);
    check_atomic_write_only(name);
    check_sync(fh);
    check_errhandlers(fh, name);
  }
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
  MPI_Finalize();
  return 0;
}
