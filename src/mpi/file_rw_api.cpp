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

// The six signatures: explicit offset or not, then a status, a request or
// neither (a split collective's begin). Buf is the buffer's type (const for
// the writes), Write whether the call writes.
#define SHMPI_FILE_CALL(Write, Pos, Frm, Request, Coll) \
  FileCall { fh, fn, Write, Positioning::Pos, AccessForm::Frm, Request, Coll }
#define SHMPI_FILE_AT(Name, Buf, Write, Form, Last, Request, Status, Coll) \
  SHMPI_COUNT_FORMS(                                                       \
      Name,                                                                \
      (MPI_File fh, MPI_Offset offset, Buf buf, Count count,               \
       MPI_Datatype datatype SHMPI_UNPAREN Last),                          \
      file_access(SHMPI_FILE_CALL(Write, kExplicit, Form, Request, Coll),  \
                  offset, FileData{buf, count, datatype}, Status))
#define SHMPI_FILE_BY_POINTER(Name, Buf, Write, Pos, Form, Last, Request, \
                              Status, Coll)                               \
  SHMPI_COUNT_FORMS(                                                      \
      Name,                                                               \
      (MPI_File fh, Buf buf, Count count,                                 \
       MPI_Datatype datatype SHMPI_UNPAREN Last),                         \
      file_access(SHMPI_FILE_CALL(Write, Pos, Form, Request, Coll), 0,    \
                  FileData{buf, count, datatype}, Status))
// The trailing parameter of each form.
#define SHMPI_WITH_STATUS (, MPI_Status * status)
#define SHMPI_WITH_REQUEST (, MPI_Request * request)
#define SHMPI_WITH_NOTHING ()

// Every read and its write: Rw is read or write, Buf the buffer type.
#define SHMPI_FILE_FAMILY(Rw, Buf, Write)                                      \
  SHMPI_FILE_AT(File_##Rw##_at, Buf, Write, kBlocking, SHMPI_WITH_STATUS,      \
                nullptr, status, false);                                       \
  SHMPI_FILE_AT(File_##Rw##_at_all, Buf, Write, kBlocking, SHMPI_WITH_STATUS,  \
                nullptr, status, true);                                        \
  SHMPI_FILE_AT(File_i##Rw##_at, Buf, Write, kNonblocking, SHMPI_WITH_REQUEST, \
                request, MPI_STATUS_IGNORE, false);                            \
  SHMPI_FILE_AT(File_i##Rw##_at_all, Buf, Write, kNonblocking,                 \
                SHMPI_WITH_REQUEST, request, MPI_STATUS_IGNORE, true);         \
  SHMPI_FILE_AT(File_##Rw##_at_all_begin, Buf, Write, kSplitBegin,             \
                SHMPI_WITH_NOTHING, nullptr, MPI_STATUS_IGNORE, true);         \
  SHMPI_FILE_BY_POINTER(File_##Rw, Buf, Write, kIndividual, kBlocking,         \
                        SHMPI_WITH_STATUS, nullptr, status, false);            \
  SHMPI_FILE_BY_POINTER(File_##Rw##_all, Buf, Write, kIndividual, kBlocking,   \
                        SHMPI_WITH_STATUS, nullptr, status, true);             \
  SHMPI_FILE_BY_POINTER(File_i##Rw, Buf, Write, kIndividual, kNonblocking,     \
                        SHMPI_WITH_REQUEST, request, MPI_STATUS_IGNORE,        \
                        false);                                                \
  SHMPI_FILE_BY_POINTER(File_i##Rw##_all, Buf, Write, kIndividual,             \
                        kNonblocking, SHMPI_WITH_REQUEST, request,             \
                        MPI_STATUS_IGNORE, true);                              \
  SHMPI_FILE_BY_POINTER(File_##Rw##_all_begin, Buf, Write, kIndividual,        \
                        kSplitBegin, SHMPI_WITH_NOTHING, nullptr,              \
                        MPI_STATUS_IGNORE, true);                              \
  SHMPI_FILE_BY_POINTER(File_##Rw##_shared, Buf, Write, kShared, kBlocking,    \
                        SHMPI_WITH_STATUS, nullptr, status, false);            \
  SHMPI_FILE_BY_POINTER(File_i##Rw##_shared, Buf, Write, kShared,              \
                        kNonblocking, SHMPI_WITH_REQUEST, request,             \
                        MPI_STATUS_IGNORE, false);                             \
  SHMPI_FILE_BY_POINTER(File_##Rw##_ordered, Buf, Write, kOrdered, kBlocking,  \
                        SHMPI_WITH_STATUS, nullptr, status, true);             \
  SHMPI_FILE_BY_POINTER(File_##Rw##_ordered_begin, Buf, Write, kOrdered,       \
                        kSplitBegin, SHMPI_WITH_NOTHING, nullptr,              \
                        MPI_STATUS_IGNORE, true)

SHMPI_FILE_FAMILY(read, void*, false);
SHMPI_FILE_FAMILY(write, const void*, true);

// The ends of the split collectives: the begin moved the data.
#define SHMPI_FILE_SPLIT_END(Rw, Buf, Which)                                   \
  extern "C" int PMPI_File_##Rw##_##Which##_end(MPI_File fh, Buf buf,          \
                                                MPI_Status* status) noexcept { \
    return file_split_end(fh, buf, status,                                     \
                          "MPI_File_" #Rw "_" #Which "_begin",                 \
                          "MPI_File_" #Rw "_" #Which "_end");                  \
  }                                                                            \
  SHMPI_PMPI_ALIAS(MPI_File_##Rw##_##Which##_end)

SHMPI_FILE_SPLIT_END(read, void*, at_all);
SHMPI_FILE_SPLIT_END(read, void*, all);
SHMPI_FILE_SPLIT_END(read, void*, ordered);
SHMPI_FILE_SPLIT_END(write, const void*, at_all);
SHMPI_FILE_SPLIT_END(write, const void*, all);
SHMPI_FILE_SPLIT_END(write, const void*, ordered);
