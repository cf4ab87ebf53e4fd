// SPDX-License-Identifier: MIT
// The entry points of file data access (MPI 4.0 §14.4): reads and writes
// at explicit offsets, through the individual file pointer and through the
// shared one, each blocking, nonblocking, collective and split collective
// where the standard has it, with their _c forms, each pair written once
// (mpi/detail/count_forms.hpp). The work is in file_access.cpp.
#include <mpi.h>

#include "mpi/detail/count_forms.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file_access.hpp"

using namespace shmpi::mpi;

#define SHMPI_FILE_CALL(write, positioning, form, request)             \
  FileCall {                                                           \
    fh, fn, write, Positioning::positioning, AccessForm::form, request \
  }

SHMPI_COUNT_FORMS(File_read_at,
                  (MPI_File fh, MPI_Offset offset, void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(false, kExplicit, kBlocking,
                                              nullptr),
                              offset, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(File_read_at_all,
                  (MPI_File fh, MPI_Offset offset, void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(false, kExplicit, kBlocking,
                                              nullptr),
                              offset, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_iread_at,
    (MPI_File fh, MPI_Offset offset, void* buf, Count count,
     MPI_Datatype datatype, MPI_Request* request),
    file_access(SHMPI_FILE_CALL(false, kExplicit, kNonblocking, request),
                offset, FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_iread_at_all,
    (MPI_File fh, MPI_Offset offset, void* buf, Count count,
     MPI_Datatype datatype, MPI_Request* request),
    file_access(SHMPI_FILE_CALL(false, kExplicit, kNonblocking, request),
                offset, FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_read_at_all_begin,
    (MPI_File fh, MPI_Offset offset, void* buf, Count count,
     MPI_Datatype datatype),
    file_access(SHMPI_FILE_CALL(false, kExplicit, kSplitBegin, nullptr), offset,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_read,
                  (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
                   MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(false, kIndividual, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(File_read_all,
                  (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
                   MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(false, kIndividual, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_iread,
    (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
     MPI_Request* request),
    file_access(SHMPI_FILE_CALL(false, kIndividual, kNonblocking, request), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_iread_all,
    (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
     MPI_Request* request),
    file_access(SHMPI_FILE_CALL(false, kIndividual, kNonblocking, request), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_read_all_begin,
    (MPI_File fh, void* buf, Count count, MPI_Datatype datatype),
    file_access(SHMPI_FILE_CALL(false, kIndividual, kSplitBegin, nullptr), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_read_shared,
                  (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
                   MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(false, kShared, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_iread_shared,
    (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
     MPI_Request* request),
    file_access(SHMPI_FILE_CALL(false, kShared, kNonblocking, request), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_read_ordered,
                  (MPI_File fh, void* buf, Count count, MPI_Datatype datatype,
                   MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(false, kOrdered, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_read_ordered_begin,
    (MPI_File fh, void* buf, Count count, MPI_Datatype datatype),
    file_access(SHMPI_FILE_CALL(false, kOrdered, kSplitBegin, nullptr), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_write_at,
                  (MPI_File fh, MPI_Offset offset, const void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(true, kExplicit, kBlocking,
                                              nullptr),
                              offset, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(File_write_at_all,
                  (MPI_File fh, MPI_Offset offset, const void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(true, kExplicit, kBlocking,
                                              nullptr),
                              offset, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_iwrite_at,
    (MPI_File fh, MPI_Offset offset, const void* buf, Count count,
     MPI_Datatype datatype, MPI_Request* request),
    file_access(SHMPI_FILE_CALL(true, kExplicit, kNonblocking, request), offset,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_iwrite_at_all,
    (MPI_File fh, MPI_Offset offset, const void* buf, Count count,
     MPI_Datatype datatype, MPI_Request* request),
    file_access(SHMPI_FILE_CALL(true, kExplicit, kNonblocking, request), offset,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_write_at_all_begin,
    (MPI_File fh, MPI_Offset offset, const void* buf, Count count,
     MPI_Datatype datatype),
    file_access(SHMPI_FILE_CALL(true, kExplicit, kSplitBegin, nullptr), offset,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_write,
                  (MPI_File fh, const void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(true, kIndividual, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(File_write_all,
                  (MPI_File fh, const void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(true, kIndividual, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_iwrite,
    (MPI_File fh, const void* buf, Count count, MPI_Datatype datatype,
     MPI_Request* request),
    file_access(SHMPI_FILE_CALL(true, kIndividual, kNonblocking, request), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_iwrite_all,
    (MPI_File fh, const void* buf, Count count, MPI_Datatype datatype,
     MPI_Request* request),
    file_access(SHMPI_FILE_CALL(true, kIndividual, kNonblocking, request), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(
    File_write_all_begin,
    (MPI_File fh, const void* buf, Count count, MPI_Datatype datatype),
    file_access(SHMPI_FILE_CALL(true, kIndividual, kSplitBegin, nullptr), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_write_shared,
                  (MPI_File fh, const void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(true, kShared, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_iwrite_shared,
    (MPI_File fh, const void* buf, Count count, MPI_Datatype datatype,
     MPI_Request* request),
    file_access(SHMPI_FILE_CALL(true, kShared, kNonblocking, request), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

SHMPI_COUNT_FORMS(File_write_ordered,
                  (MPI_File fh, const void* buf, Count count,
                   MPI_Datatype datatype, MPI_Status* status),
                  file_access(SHMPI_FILE_CALL(true, kOrdered, kBlocking,
                                              nullptr),
                              0, FileData{buf, count, datatype}, status));

SHMPI_COUNT_FORMS(
    File_write_ordered_begin,
    (MPI_File fh, const void* buf, Count count, MPI_Datatype datatype),
    file_access(SHMPI_FILE_CALL(true, kOrdered, kSplitBegin, nullptr), 0,
                FileData{buf, count, datatype}, MPI_STATUS_IGNORE));

extern "C" int PMPI_File_read_at_all_end(MPI_File fh, void* buf,
                                         MPI_Status* status) noexcept {
  return file_split_end(fh, buf, status, "MPI_File_read_at_all_begin",
                        "MPI_File_read_at_all_end");
}
SHMPI_PMPI_ALIAS(MPI_File_read_at_all_end);

extern "C" int PMPI_File_read_all_end(MPI_File fh, void* buf,
                                      MPI_Status* status) noexcept {
  return file_split_end(fh, buf, status, "MPI_File_read_all_begin",
                        "MPI_File_read_all_end");
}
SHMPI_PMPI_ALIAS(MPI_File_read_all_end);

extern "C" int PMPI_File_read_ordered_end(MPI_File fh, void* buf,
                                          MPI_Status* status) noexcept {
  return file_split_end(fh, buf, status, "MPI_File_read_ordered_begin",
                        "MPI_File_read_ordered_end");
}
SHMPI_PMPI_ALIAS(MPI_File_read_ordered_end);

extern "C" int PMPI_File_write_at_all_end(MPI_File fh, const void* buf,
                                          MPI_Status* status) noexcept {
  return file_split_end(fh, buf, status, "MPI_File_write_at_all_begin",
                        "MPI_File_write_at_all_end");
}
SHMPI_PMPI_ALIAS(MPI_File_write_at_all_end);

extern "C" int PMPI_File_write_all_end(MPI_File fh, const void* buf,
                                       MPI_Status* status) noexcept {
  return file_split_end(fh, buf, status, "MPI_File_write_all_begin",
                        "MPI_File_write_all_end");
}
SHMPI_PMPI_ALIAS(MPI_File_write_all_end);

extern "C" int PMPI_File_write_ordered_end(MPI_File fh, const void* buf,
                                           MPI_Status* status) noexcept {
  return file_split_end(fh, buf, status, "MPI_File_write_ordered_begin",
                        "MPI_File_write_ordered_end");
}
SHMPI_PMPI_ALIAS(MPI_File_write_ordered_end);
