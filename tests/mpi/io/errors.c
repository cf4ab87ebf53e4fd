// SPDX-License-Identifier: MIT
// Bad input to the MPI-IO calls gets its error class (MPI 4.0 §14.7,
// §9.4), raised on the file's handler or, with no file, on MPI_FILE_NULL's
// (both MPI_ERRORS_RETURN here):
// - MPI_File_open: an access mode without exactly one of MPI_MODE_RDONLY,
//   MPI_MODE_RDWR and MPI_MODE_WRONLY, MPI_MODE_RDONLY with
//   MPI_MODE_CREATE or MPI_MODE_EXCL, MPI_MODE_RDWR with
//   MPI_MODE_SEQUENTIAL (MPI_ERR_AMODE); a missing file without
//   MPI_MODE_CREATE and a path through a missing directory
//   (MPI_ERR_NO_SUCH_FILE); MPI_MODE_EXCL on an existing file
//   (MPI_ERR_FILE_EXISTS); MPI_COMM_NULL (MPI_ERR_COMM); a failed open
//   leaves the handle MPI_FILE_NULL;
// - MPI_File_delete of a missing file (MPI_ERR_NO_SUCH_FILE);
// - MPI_FILE_NULL where a file is needed (MPI_ERR_FILE);
// - data access: writing a file opened MPI_MODE_RDONLY
//   (MPI_ERR_READ_ONLY), reading one opened MPI_MODE_WRONLY
//   (MPI_ERR_ACCESS), a negative count (MPI_ERR_COUNT), MPI_DATATYPE_NULL
//   (MPI_ERR_TYPE), a negative offset and a bad whence (MPI_ERR_ARG),
//   seeking and explicit offsets on a file opened MPI_MODE_SEQUENTIAL
//   (MPI_ERR_UNSUPPORTED_OPERATION);
// - MPI_File_set_size on a MPI_MODE_SEQUENTIAL file
//   (MPI_ERR_UNSUPPORTED_OPERATION: "it is erroneous to call this
//   routine"), on a MPI_MODE_RDONLY one (MPI_ERR_READ_ONLY), and a
//   negative size there and in MPI_File_preallocate (MPI_ERR_ARG);
// - MPI_File_set_errhandler with MPI_ERRHANDLER_NULL or a communicator's
//   or a window's handler (MPI_ERR_ARG).
// Other runs, by argument:
// - extra (shmpi only): garbage file and info handles, NULL output
//   arguments, MPI_File_preallocate on a MPI_MODE_RDONLY file (a write
//   here; MPICH 4.0.2 fails later with MPI_ERR_IO), and a negative size
//   passed by one member only, which every member reports (MPICH 4.0.2
//   hangs);
// - not_same: members passing different sizes to MPI_File_set_size and
//   MPI_File_preallocate or different flags to MPI_File_set_atomicity all
//   get MPI_ERR_NOT_SAME (MPICH 4.0.2: MPI_ERR_ARG, and for the flag only
//   on the ranks unlike rank 0);
// - sync_null, get_atomicity_null: MPI_FILE_NULL in MPI_File_sync and
//   MPI_File_get_atomicity is MPI_ERR_FILE (MPICH 4.0.2 returns
//   MPI_ERR_ARG and MPI_SUCCESS);
// - preallocate_sequential: MPI_File_preallocate on a MPI_MODE_SEQUENTIAL
//   file, erroneous as MPI_File_set_size there (MPICH 4.0.2 allows it);
// - split: a split collective begun before the previous one ended, and an
//   end with no begin, are MPI_ERR_IO, as MPICH's ROMIO has them;
// - fatal: rank 0 makes a bad MPI_File_set_size call on a file whose
//   handler is MPI_ERRORS_ARE_FATAL, and the job ends with a message.
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mt_file.h"

static int is_case(int argc, char** argv, const char* name) {
  return argc > 1 && strcmp(argv[1], name) == 0;
}

// Opens `name` on MPI_COMM_WORLD, creating it with `amode`'s access.
static MPI_File open_file(const char* name, int amode) {
  MPI_File fh = MPI_FILE_NULL;
  MT_CHECK_IO(MPI_File_open(MPI_COMM_WORLD, name, amode, MPI_INFO_NULL, &fh),
              "MPI_File_open");
  return fh;
}

static void check_open(const char* name, const char* missing) {
  static const struct {
    int amode;
    const char* what;
  } kBadModes[] = {
      {MPI_MODE_CREATE, "no access mode"},
      {MPI_MODE_RDONLY | MPI_MODE_RDWR, "MPI_MODE_RDONLY | MPI_MODE_RDWR"},
      {MPI_MODE_RDONLY | MPI_MODE_WRONLY, "MPI_MODE_RDONLY | MPI_MODE_WRONLY"},
      {MPI_MODE_RDWR | MPI_MODE_WRONLY, "MPI_MODE_RDWR | MPI_MODE_WRONLY"},
      {MPI_MODE_RDONLY | MPI_MODE_CREATE, "MPI_MODE_RDONLY | MPI_MODE_CREATE"},
      {MPI_MODE_RDONLY | MPI_MODE_EXCL, "MPI_MODE_RDONLY | MPI_MODE_EXCL"},
      {MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
       "MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL"},
  };
  MPI_File fh = MPI_FILE_NULL;
  for (size_t i = 0; i < sizeof kBadModes / sizeof kBadModes[0]; ++i) {
    MT_EXPECT_CLASS(0,
                    MPI_File_open(MPI_COMM_WORLD, name, kBadModes[i].amode,
                                  MPI_INFO_NULL, &fh),
                    MPI_ERR_AMODE, kBadModes[i].what);
  }
  MT_EXPECT_CLASS(
      0,
      MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
      MPI_ERR_NO_SUCH_FILE, "MPI_File_open of a missing file");
  char in_missing_dir[600];
  snprintf(in_missing_dir, sizeof in_missing_dir, "%s/file", missing);
  MT_EXPECT_CLASS(
      0,
      MPI_File_open(MPI_COMM_WORLD, in_missing_dir,
                    MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
      MPI_ERR_NO_SUCH_FILE, "MPI_File_open in a missing directory");
  MT_EXPECT_CLASS(0,
                  MPI_File_open(MPI_COMM_WORLD, name,
                                MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                                MPI_INFO_NULL, &fh),
                  MPI_ERR_FILE_EXISTS,
                  "MPI_File_open with MPI_MODE_EXCL on an existing file");
  MT_EXPECT_CLASS(
      0, MPI_File_open(MPI_COMM_NULL, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
      MPI_ERR_COMM, "MPI_File_open on MPI_COMM_NULL");
  MT_CHECK(fh == MPI_FILE_NULL, "a failed MPI_File_open set the handle");
  MT_EXPECT_CLASS(0, MPI_File_delete(missing, MPI_INFO_NULL),
                  MPI_ERR_NO_SUCH_FILE, "MPI_File_delete of a missing file");
}

static void check_null_handle(void) {
  const MPI_File null = MPI_FILE_NULL;
  MPI_File closed = MPI_FILE_NULL;
  MPI_Group group;
  MPI_Info info;
  MPI_Offset size;
  int value;
  char byte;
  MT_EXPECT_CLASS(0, MPI_File_close(&closed), MPI_ERR_FILE,
                  "MPI_File_close(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_group(null, &group), MPI_ERR_FILE,
                  "MPI_File_get_group(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_amode(null, &value), MPI_ERR_FILE,
                  "MPI_File_get_amode(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_set_size(null, 10), MPI_ERR_FILE,
                  "MPI_File_set_size(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_preallocate(null, 10), MPI_ERR_FILE,
                  "MPI_File_preallocate(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_size(null, &size), MPI_ERR_FILE,
                  "MPI_File_get_size(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_set_info(null, MPI_INFO_NULL), MPI_ERR_FILE,
                  "MPI_File_set_info(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_info(null, &info), MPI_ERR_FILE,
                  "MPI_File_get_info(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_set_atomicity(null, 1), MPI_ERR_FILE,
                  "MPI_File_set_atomicity(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(
      0, MPI_File_read_at(null, 0, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE),
      MPI_ERR_FILE, "MPI_File_read_at(MPI_FILE_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_seek(null, 0, MPI_SEEK_SET), MPI_ERR_FILE,
                  "MPI_File_seek(MPI_FILE_NULL)");
}

static void check_access(const char* name) {
  char buf[16] = {0};
  MPI_File ro = open_file(name, MPI_MODE_RDONLY);
  MT_EXPECT_CLASS(
      0, MPI_File_write_at(ro, 0, buf, 4, MPI_BYTE, MPI_STATUS_IGNORE),
      MPI_ERR_READ_ONLY, "MPI_File_write_at on a MPI_MODE_RDONLY file");
  MT_EXPECT_CLASS(0, MPI_File_write(ro, buf, 4, MPI_BYTE, MPI_STATUS_IGNORE),
                  MPI_ERR_READ_ONLY,
                  "MPI_File_write on a MPI_MODE_RDONLY file");
  MT_EXPECT_CLASS(0,
                  MPI_File_read_at(ro, 0, buf, -1, MPI_BYTE, MPI_STATUS_IGNORE),
                  MPI_ERR_COUNT, "MPI_File_read_at with count -1");
  MT_EXPECT_CLASS(
      0, MPI_File_read_at(ro, 0, buf, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE),
      MPI_ERR_TYPE, "MPI_File_read_at with MPI_DATATYPE_NULL");
  MT_EXPECT_CLASS(0,
                  MPI_File_read_at(ro, -1, buf, 1, MPI_BYTE, MPI_STATUS_IGNORE),
                  MPI_ERR_ARG, "MPI_File_read_at at offset -1");
  MT_EXPECT_CLASS(0, MPI_File_seek(ro, 0, 99), MPI_ERR_ARG,
                  "MPI_File_seek with whence 99");
  MT_EXPECT_CLASS(0, MPI_File_set_size(ro, 10), MPI_ERR_READ_ONLY,
                  "MPI_File_set_size on a MPI_MODE_RDONLY file");
  MPI_File_close(&ro);

  MPI_File wo = open_file(name, MPI_MODE_WRONLY);
  MT_EXPECT_CLASS(0,
                  MPI_File_read_at(wo, 0, buf, 4, MPI_BYTE, MPI_STATUS_IGNORE),
                  MPI_ERR_ACCESS, "MPI_File_read_at on a MPI_MODE_WRONLY file");
  MT_EXPECT_CLASS(0, MPI_File_set_size(wo, -1), MPI_ERR_ARG,
                  "MPI_File_set_size(-1)");
  MT_EXPECT_CLASS(0, MPI_File_preallocate(wo, -1), MPI_ERR_ARG,
                  "MPI_File_preallocate(-1)");
  MPI_File_close(&wo);

  MPI_File sequential = open_file(name, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL);
  MT_EXPECT_CLASS(0, MPI_File_seek(sequential, 0, MPI_SEEK_SET),
                  MPI_ERR_UNSUPPORTED_OPERATION,
                  "MPI_File_seek on a MPI_MODE_SEQUENTIAL file");
  MT_EXPECT_CLASS(
      0, MPI_File_write_at(sequential, 0, buf, 1, MPI_BYTE, MPI_STATUS_IGNORE),
      MPI_ERR_UNSUPPORTED_OPERATION,
      "MPI_File_write_at on a MPI_MODE_SEQUENTIAL file");
  MT_EXPECT_CLASS(0, MPI_File_set_size(sequential, 10),
                  MPI_ERR_UNSUPPORTED_OPERATION,
                  "MPI_File_set_size on a MPI_MODE_SEQUENTIAL file");
  MPI_File_close(&sequential);
}

static void ignore_comm_error(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  (void)code;
}
static void ignore_win_error(MPI_Win* win, int* code, ...) {
  (void)win;
  (void)code;
}

static void check_errhandler_kinds(const char* name) {
  MPI_File fh = open_file(name, MPI_MODE_RDONLY);
  MPI_Errhandler comm_handler, win_handler;
  MPI_Comm_create_errhandler(ignore_comm_error, &comm_handler);
  MPI_Win_create_errhandler(ignore_win_error, &win_handler);
  MT_EXPECT_CLASS(0, MPI_File_set_errhandler(fh, MPI_ERRHANDLER_NULL),
                  MPI_ERR_ARG, "MPI_File_set_errhandler(MPI_ERRHANDLER_NULL)");
  MT_EXPECT_CLASS(0, MPI_File_set_errhandler(fh, comm_handler), MPI_ERR_ARG,
                  "MPI_File_set_errhandler with a communicator's handler");
  MT_EXPECT_CLASS(0, MPI_File_set_errhandler(fh, win_handler), MPI_ERR_ARG,
                  "MPI_File_set_errhandler with a window's handler");
  MT_EXPECT_CLASS(
      0, MPI_File_set_errhandler(MPI_FILE_NULL, comm_handler), MPI_ERR_ARG,
      "MPI_File_set_errhandler(MPI_FILE_NULL) with a communicator's handler");
  MPI_Errhandler_free(&comm_handler);
  MPI_Errhandler_free(&win_handler);
  MPI_Errhandler got = MPI_ERRHANDLER_NULL;
  MPI_File_get_errhandler(fh, &got);
  MT_CHECK(got == MPI_ERRORS_RETURN, "a refused handler was set");
  MPI_File_close(&fh);
}

static void check_extra(const char* name) {
  static int not_a_file[64];
  const MPI_File garbage = (MPI_File)(void*)not_a_file;
  MPI_Group group;
  MPI_Info info;
  MPI_Errhandler handler;
  MPI_Offset size;
  int value;
  MT_EXPECT_CLASS(0, MPI_File_get_group(garbage, &group), MPI_ERR_FILE,
                  "MPI_File_get_group on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_get_amode(garbage, &value), MPI_ERR_FILE,
                  "MPI_File_get_amode on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_set_size(garbage, 1), MPI_ERR_FILE,
                  "MPI_File_set_size on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_preallocate(garbage, 1), MPI_ERR_FILE,
                  "MPI_File_preallocate on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_get_size(garbage, &size), MPI_ERR_FILE,
                  "MPI_File_get_size on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_set_info(garbage, MPI_INFO_NULL), MPI_ERR_FILE,
                  "MPI_File_set_info on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_get_info(garbage, &info), MPI_ERR_FILE,
                  "MPI_File_get_info on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_sync(garbage), MPI_ERR_FILE,
                  "MPI_File_sync on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_set_atomicity(garbage, 1), MPI_ERR_FILE,
                  "MPI_File_set_atomicity on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_get_atomicity(garbage, &value), MPI_ERR_FILE,
                  "MPI_File_get_atomicity on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_set_errhandler(garbage, MPI_ERRORS_RETURN),
                  MPI_ERR_FILE, "MPI_File_set_errhandler on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_get_errhandler(garbage, &handler), MPI_ERR_FILE,
                  "MPI_File_get_errhandler on a garbage handle");
  MT_EXPECT_CLASS(0, MPI_File_call_errhandler(garbage, MPI_ERR_OTHER),
                  MPI_ERR_FILE, "MPI_File_call_errhandler on a garbage handle");
  MT_CHECK(MPI_File_c2f(garbage) == MPI_File_c2f(MPI_FILE_NULL),
           "MPI_File_c2f of a garbage handle is not MPI_FILE_NULL's value");
  MT_EXPECT_CLASS(0, MPI_File_create_errhandler(NULL, &handler), MPI_ERR_ARG,
                  "MPI_File_create_errhandler(NULL, ...)");

  MPI_File fh = open_file(name, MPI_MODE_RDONLY);
  MT_EXPECT_CLASS(0, MPI_File_get_group(fh, NULL), MPI_ERR_ARG,
                  "MPI_File_get_group(fh, NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_amode(fh, NULL), MPI_ERR_ARG,
                  "MPI_File_get_amode(fh, NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_size(fh, NULL), MPI_ERR_ARG,
                  "MPI_File_get_size(fh, NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_info(fh, NULL), MPI_ERR_ARG,
                  "MPI_File_get_info(fh, NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_atomicity(fh, NULL), MPI_ERR_ARG,
                  "MPI_File_get_atomicity(fh, NULL)");
  MT_EXPECT_CLASS(0, MPI_File_get_errhandler(fh, NULL), MPI_ERR_ARG,
                  "MPI_File_get_errhandler(fh, NULL)");
  // An integer cast: MPICH's MPI_Info is an int.
  const MPI_Info garbage_info = (MPI_Info)(intptr_t)0x5a5a5a50;
  MT_EXPECT_CLASS(0, MPI_File_set_info(fh, garbage_info), MPI_ERR_INFO,
                  "MPI_File_set_info with a garbage info");
  MT_EXPECT_CLASS(0, MPI_File_preallocate(fh, 100), MPI_ERR_READ_ONLY,
                  "MPI_File_preallocate on a MPI_MODE_RDONLY file");
  MPI_File_close(&fh);

  fh = open_file(name, MPI_MODE_RDWR);
  const int rank = mt_rank();
  MT_EXPECT_CLASS(0, MPI_File_set_size(fh, rank == 0 ? -1 : 10), MPI_ERR_ARG,
                  "MPI_File_set_size with -1 on rank 0 only");
  MT_EXPECT_CLASS(0, MPI_File_preallocate(fh, rank == mt_size() - 1 ? -5 : 10),
                  MPI_ERR_ARG, "MPI_File_preallocate with -5 on one rank only");
  MPI_File_close(&fh);
}

static void check_not_same(const char* name) {
  const int rank = mt_rank();
  MPI_File fh = open_file(name, MPI_MODE_RDWR);
  MT_EXPECT_CLASS(0, MPI_File_set_size(fh, 100 + rank), MPI_ERR_NOT_SAME,
                  "MPI_File_set_size with a size per rank");
  MT_EXPECT_CLASS(0, MPI_File_preallocate(fh, rank == 0 ? 100 : 200),
                  MPI_ERR_NOT_SAME, "MPI_File_preallocate with two sizes");
  MT_EXPECT_CLASS(0, MPI_File_set_atomicity(fh, rank == 0), MPI_ERR_NOT_SAME,
                  "MPI_File_set_atomicity with two flags");
  MPI_File_close(&fh);
}

static void check_split(const char* name) {
  char buf[16];
  MPI_File fh = open_file(name, MPI_MODE_RDONLY);
  MT_CHECK_IO(MPI_File_read_at_all_begin(fh, 0, buf, 4, MPI_BYTE),
              "MPI_File_read_at_all_begin");
  MT_EXPECT_CLASS(0, MPI_File_read_at_all_begin(fh, 0, buf, 4, MPI_BYTE),
                  MPI_ERR_IO, "a second MPI_File_read_at_all_begin");
  MT_CHECK_IO(MPI_File_read_at_all_end(fh, buf, MPI_STATUS_IGNORE),
              "MPI_File_read_at_all_end");
  MT_EXPECT_CLASS(0, MPI_File_read_at_all_end(fh, buf, MPI_STATUS_IGNORE),
                  MPI_ERR_IO, "MPI_File_read_at_all_end with no begin");
  MT_EXPECT_CLASS(0, MPI_File_read_all_end(fh, buf, MPI_STATUS_IGNORE),
                  MPI_ERR_IO, "MPI_File_read_all_end with no begin");
  MPI_File_close(&fh);
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  char name[256];
  mt_file_name(name, sizeof name, "errors");
  char missing[300];
  snprintf(missing, sizeof missing, "%s.missing", name);
  if (fatal) {
    if (mt_rank() == 0) {
      MPI_File fh = MPI_FILE_NULL;
      MT_CHECK_IO(
          MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                        MPI_INFO_NULL, &fh),
          "MPI_File_open");
      unlink(name);  // nothing is left behind when the job ends
      MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
      MT_EXPECT_CLASS(fatal, MPI_File_set_size(fh, -1), MPI_ERR_ARG,
                      "MPI_File_set_size(-1)");
    }
    return mt_errors_finish(fatal);
  }
  // The file the calls below use, four bytes long.
  MPI_File fh = open_file(name, MPI_MODE_CREATE | MPI_MODE_RDWR);
  MT_CHECK_IO(MPI_File_set_size(fh, 4), "MPI_File_set_size");
  MPI_File_close(&fh);
  if (is_case(argc, argv, "extra")) {
    check_extra(name);
  } else if (is_case(argc, argv, "not_same")) {
    check_not_same(name);
  } else if (is_case(argc, argv, "sync_null")) {
    MT_EXPECT_CLASS(0, MPI_File_sync(MPI_FILE_NULL), MPI_ERR_FILE,
                    "MPI_File_sync(MPI_FILE_NULL)");
  } else if (is_case(argc, argv, "get_atomicity_null")) {
    int flag = 0;
    MT_EXPECT_CLASS(0, MPI_File_get_atomicity(MPI_FILE_NULL, &flag),
                    MPI_ERR_FILE, "MPI_File_get_atomicity(MPI_FILE_NULL)");
  } else if (is_case(argc, argv, "preallocate_sequential")) {
    fh = open_file(name, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL);
    MT_EXPECT_CLASS(0, MPI_File_preallocate(fh, 10),
                    MPI_ERR_UNSUPPORTED_OPERATION,
                    "MPI_File_preallocate on a MPI_MODE_SEQUENTIAL file");
    MPI_File_close(&fh);
  } else if (is_case(argc, argv, "split")) {
    check_split(name);
  } else {
    check_open(name, missing);
    check_null_handle();
    check_access(name);
    check_errhandler_kinds(name);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (mt_rank() == 0) {
    MPI_File_delete(name, MPI_INFO_NULL);
  }
  return mt_errors_finish(fatal);
}
