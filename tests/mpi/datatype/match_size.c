// SPDX-License-Identifier: MIT
// MPI_Type_match_size (MPI 4.0 section 19.1.9): for each type class and
// size a compiler provides, a predefined named type of that class and size
// that sends and receives values of it; other sizes and classes are
// refused with MPI_ERR_ARG.
#include <string.h>

#include "mpitest.h"

struct expected {
  int typeclass;
  int size;
  const char* name;
};

static const struct expected kMatches[] = {
    {MPI_TYPECLASS_INTEGER, 1, "MPI_INTEGER1"},
    {MPI_TYPECLASS_INTEGER, 2, "MPI_INTEGER2"},
    {MPI_TYPECLASS_INTEGER, 4, "MPI_INTEGER4"},
    {MPI_TYPECLASS_INTEGER, 8, "MPI_INTEGER8"},
    {MPI_TYPECLASS_REAL, 4, "MPI_REAL4"},
    {MPI_TYPECLASS_REAL, 8, "MPI_REAL8"},
    {MPI_TYPECLASS_REAL, 16, "MPI_REAL16"},
    {MPI_TYPECLASS_COMPLEX, 8, "MPI_COMPLEX8"},
    {MPI_TYPECLASS_COMPLEX, 16, "MPI_COMPLEX16"},
    {MPI_TYPECLASS_COMPLEX, 32, "MPI_COMPLEX32"},
};
enum { kMatchCount = sizeof kMatches / sizeof kMatches[0] };

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  if (!fatal) {
    const int rank = mt_rank();
    const int size = mt_size();
    for (int i = 0; i < kMatchCount; ++i) {
      MPI_Datatype type = MPI_DATATYPE_NULL;
      MT_CHECK_MPI(
          MPI_Type_match_size(kMatches[i].typeclass, kMatches[i].size, &type));
      char name[MPI_MAX_OBJECT_NAME];
      int length = 0;
      MT_CHECK_MPI(MPI_Type_get_name(type, name, &length));
      MT_CHECK(strcmp(name, kMatches[i].name) == 0, "got %s, expected %s", name,
               kMatches[i].name);
      int bytes = -1;
      MT_CHECK_MPI(MPI_Type_size(type, &bytes));
      MT_CHECK(bytes == kMatches[i].size, "%s has size %d", name, bytes);
      // Values of the type travel round the ring.
      unsigned char out[4 * 32], in[4 * 32];
      const size_t len = 4 * (size_t)bytes;
      mt_fill(out, len, (uint32_t)(rank * 100 + i));
      MT_CHECK_MPI(MPI_Sendrecv(out, 4, type, (rank + 1) % size, i, in, 4, type,
                                (rank + size - 1) % size, i, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
      MT_CHECK_PATTERN(in, len,
                       (uint32_t)(((rank + size - 1) % size) * 100 + i),
                       kMatches[i].name);
    }
  }
  if (mt_errors_caller(fatal)) {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &type),
                    MPI_ERR_ARG, "MPI_Type_match_size(REAL, 3)");
    MT_EXPECT_CLASS(fatal, MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 4, &type),
                    MPI_ERR_ARG, "MPI_Type_match_size(COMPLEX, 4)");
    MT_EXPECT_CLASS(fatal, MPI_Type_match_size(12345, 4, &type), MPI_ERR_ARG,
                    "MPI_Type_match_size(12345, 4)");
  }
  return mt_errors_finish(fatal);
}
