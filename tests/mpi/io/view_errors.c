// SPDX-License-Identifier: MIT
// The error classes of the view calls (MPI 4.0 §14.3, §14.7), one bad
// input per run (the argument), raised on the file's handler, which is
// MPI_ERRORS_RETURN by default (§14.7: "the default error handler for
// files is MPI_ERRORS_RETURN"). MPI_File_set_view is collective: every
// member passes the same bad argument, except in the cases about members
// that disagree.
//   file_null          MPI_ERR_FILE for MPI_FILE_NULL (set_view,
//                      get_type_extent)
//   negative_disp      MPI_ERR_ARG: "disp ... nonnegative integer"
//   disp_current       MPI_ERR_ARG: MPI_DISPLACEMENT_CURRENT without
//                      MPI_MODE_SEQUENTIAL
//   sequential         MPI_ERR_ARG: a sequential file needs
//                      MPI_DISPLACEMENT_CURRENT, which is the shared file
//                      pointer's position (and the new view's data starts
//                      there)
//   etype_null         MPI_ERR_TYPE for MPI_DATATYPE_NULL as etype
//   filetype_null      ... and as filetype
//   uncommitted        MPI_ERR_TYPE for an uncommitted filetype
//   not_whole          MPI_ERR_TYPE: "the filetype must be ... constructed
//                      from multiple instances of etype"
//   decreasing         MPI_ERR_TYPE: "displacements in the typemap of the
//                      filetype are required to be ... monotonically
//                      nondecreasing"
//   negative_filetype  ... "non-negative"
//   not_same           MPI_ERR_NOT_SAME when the members pass different
//                      datareps, or etypes of different extents
//   one_bad            every member returns the error one member's
//                      arguments cause (shmpi's collective agreement)
//   get_view_null      MPI_File_get_view: MPI_ERR_FILE for MPI_FILE_NULL,
//                      MPI_ERR_ARG for a NULL output
//   extent_type_null   MPI_ERR_TYPE for MPI_File_get_type_extent of
//                      MPI_DATATYPE_NULL
#include "mt_file.h"

static const char* g_case = "";

static void expect_class(int rc, int expected, const char* what) {
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  if (error_class != expected) {
    MT_FAIL("%s: %s: class %s (%d), expected %d; %s", g_case, what,
            mt_class_name(error_class), error_class, expected,
            mt_error_string(rc));
  }
}

// The sequential case reopens its file to read it: only the last open
// deletes it.
static MPI_File open_file(int amode) {
  char name[256];
  mt_file_name(name, sizeof name, "view-errors");
  if ((amode & MPI_MODE_SEQUENTIAL) == 0) {
    amode |= MPI_MODE_DELETE_ON_CLOSE;
  }
  if ((amode & MPI_MODE_RDONLY) == 0) {
    amode |= MPI_MODE_CREATE;
  }
  MPI_File fh;
  MT_CHECK_IO(MPI_File_open(MPI_COMM_WORLD, name, amode, MPI_INFO_NULL, &fh),
              "MPI_File_open");
  return fh;
}

static int set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                    MPI_Datatype filetype, const char* datarep) {
  return MPI_File_set_view(fh, disp, etype, filetype, datarep, MPI_INFO_NULL);
}

// The view is still the default one after a refused MPI_File_set_view.
static void expect_default_view(MPI_File fh) {
  MPI_Offset disp = -1;
  MPI_Datatype etype;
  MPI_Datatype filetype;
  char datarep[MPI_MAX_DATAREP_STRING];
  MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
              "MPI_File_get_view");
  MT_CHECK(disp == 0 && etype == MPI_BYTE && filetype == MPI_BYTE,
           "%s: a refused view changed the view (disp %lld)", g_case,
           (long long)disp);
}

static void run(const char* which) {
  MPI_File fh = open_file(strcmp(which, "sequential") == 0
                              ? MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL
                              : MPI_MODE_RDWR);
  const int rank = mt_rank();
  if (strcmp(which, "file_null") == 0) {
    MPI_Aint extent;
    expect_class(set_view(MPI_FILE_NULL, 0, MPI_INT, MPI_INT, "native"),
                 MPI_ERR_FILE, "MPI_File_set_view(MPI_FILE_NULL)");
    expect_class(MPI_File_get_type_extent(MPI_FILE_NULL, MPI_INT, &extent),
                 MPI_ERR_FILE, "MPI_File_get_type_extent(MPI_FILE_NULL)");
  } else if (strcmp(which, "negative_disp") == 0) {
    expect_class(set_view(fh, -8, MPI_INT, MPI_INT, "native"), MPI_ERR_ARG,
                 "disp -8");
    expect_default_view(fh);
  } else if (strcmp(which, "disp_current") == 0) {
    expect_class(
        set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native"),
        MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT without MPI_MODE_SEQUENTIAL");
  } else if (strcmp(which, "sequential") == 0) {
    expect_class(set_view(fh, 0, MPI_INT, MPI_INT, "native"), MPI_ERR_ARG,
                 "disp 0 on a sequential file");
    // Every rank appends 10 bytes; the new view starts where they end, and
    // the shared file pointer at its start.
    const char bytes[10] = "012345678";
    MPI_Status status;
    MT_CHECK_IO(MPI_File_write_ordered(fh, bytes, 10, MPI_CHAR, &status),
                "MPI_File_write_ordered (bytes)");
    MT_CHECK_IO(
        set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native"),
        "MPI_File_set_view (MPI_DISPLACEMENT_CURRENT)");
    MPI_Offset disp = -1;
    MPI_Datatype etype;
    MPI_Datatype filetype;
    char datarep[MPI_MAX_DATAREP_STRING];
    MT_CHECK_IO(MPI_File_get_view(fh, &disp, &etype, &filetype, datarep),
                "MPI_File_get_view");
    MT_CHECK(disp == 10 * mt_size(),
             "MPI_DISPLACEMENT_CURRENT gave disp %lld, expected %d",
             (long long)disp, 10 * mt_size());
    MT_CHECK_IO(MPI_File_write_ordered(fh, &rank, 1, MPI_INT, &status),
                "MPI_File_write_ordered (ints)");
    MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
    // Read back: each rank's int at disp + 4 * rank.
    fh = open_file(MPI_MODE_RDONLY);
    int back = -1;
    MT_CHECK_IO(
        MPI_File_read_at(fh, disp + 4 * rank, &back, 1, MPI_INT, &status),
        "MPI_File_read_at");
    MT_CHECK(back == rank, "the int after the new view's start is %d, not %d",
             back, rank);
  } else if (strcmp(which, "etype_null") == 0) {
    expect_class(set_view(fh, 0, MPI_DATATYPE_NULL, MPI_INT, "native"),
                 MPI_ERR_TYPE, "etype MPI_DATATYPE_NULL");
  } else if (strcmp(which, "filetype_null") == 0) {
    expect_class(set_view(fh, 0, MPI_INT, MPI_DATATYPE_NULL, "native"),
                 MPI_ERR_TYPE, "filetype MPI_DATATYPE_NULL");
  } else if (strcmp(which, "uncommitted") == 0) {
    MPI_Datatype type;
    MPI_Type_contiguous(2, MPI_INT, &type);
    expect_class(set_view(fh, 0, MPI_INT, type, "native"), MPI_ERR_TYPE,
                 "an uncommitted filetype");
    MPI_Type_free(&type);
  } else if (strcmp(which, "not_whole") == 0) {
    MPI_Datatype type;
    MPI_Type_contiguous(3, MPI_SHORT, &type);
    MPI_Type_commit(&type);
    expect_class(set_view(fh, 0, MPI_INT, type, "native"), MPI_ERR_TYPE,
                 "6 bytes of filetype for 4-byte etypes");
    expect_default_view(fh);
    MPI_Type_free(&type);
  } else if (strcmp(which, "decreasing") == 0 ||
             strcmp(which, "negative_filetype") == 0) {
    const int negative = strcmp(which, "negative_filetype") == 0;
    const int lengths[2] = {1, 1};
    const MPI_Aint decreasing[2] = {8, 0};
    const MPI_Aint below[2] = {-4, 0};
    MPI_Datatype type;
    MPI_Type_create_hindexed(2, lengths, negative ? below : decreasing, MPI_INT,
                             &type);
    MPI_Type_commit(&type);
    expect_class(set_view(fh, 0, MPI_INT, type, "native"), MPI_ERR_TYPE,
                 negative ? "a filetype with data before its origin"
                          : "a filetype with decreasing displacements");
    MPI_Type_free(&type);
  } else if (strcmp(which, "not_same") == 0) {
    // Different data representations...
    expect_class(
        set_view(fh, 0, MPI_INT, MPI_INT, rank == 0 ? "native" : "external32"),
        MPI_ERR_NOT_SAME, "different datareps");
    // ...or etypes of different extents.
    expect_class(set_view(fh, 0, rank == 0 ? MPI_INT : MPI_DOUBLE,
                          rank == 0 ? MPI_INT : MPI_DOUBLE, "native"),
                 MPI_ERR_NOT_SAME, "etypes of different extents");
    expect_default_view(fh);
    // Filetypes and displacements may differ.
    MT_CHECK_IO(set_view(fh, rank * 4, MPI_INT, rank == 0 ? MPI_INT : MPI_2INT,
                         "native"),
                "MPI_File_set_view (different filetypes)");
  } else if (strcmp(which, "one_bad") == 0) {
    expect_class(set_view(fh, 0, rank == 1 ? MPI_DATATYPE_NULL : MPI_INT,
                          MPI_INT, "native"),
                 MPI_ERR_TYPE, "a bad etype on rank 1 only");
    expect_default_view(fh);
  } else if (strcmp(which, "get_view_null") == 0) {
    MPI_Offset disp;
    MPI_Datatype etype;
    MPI_Datatype filetype;
    char datarep[MPI_MAX_DATAREP_STRING];
    expect_class(
        MPI_File_get_view(MPI_FILE_NULL, &disp, &etype, &filetype, datarep),
        MPI_ERR_FILE, "MPI_File_get_view(MPI_FILE_NULL)");
    expect_class(MPI_File_get_view(fh, &disp, &etype, &filetype, NULL),
                 MPI_ERR_ARG, "MPI_File_get_view with datarep NULL");
  } else if (strcmp(which, "extent_type_null") == 0) {
    MPI_Aint extent;
    expect_class(MPI_File_get_type_extent(fh, MPI_DATATYPE_NULL, &extent),
                 MPI_ERR_TYPE, "MPI_File_get_type_extent(MPI_DATATYPE_NULL)");
  } else {
    MT_FAIL("unknown case '%s'", which);
  }
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  g_case = argc > 1 ? argv[1] : "";
  run(g_case);
  MPI_Finalize();
  return 0;
}
