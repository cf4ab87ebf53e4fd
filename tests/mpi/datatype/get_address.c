// SPDX-License-Identifier: MIT
// MPI 4.0 §5.1.5 MPI_GET_ADDRESS "returns the address of location in
// address", and the difference of two such addresses is a displacement
// that MPI_Type_create_struct accepts (the standard's own example, with
// MPI_Aint_diff). Each rank builds a struct type for an array of records
// from the members' addresses, checks them against offsetof, and sends
// two records to the next rank in a ring; a NULL address argument is
// MPI_ERR_ARG.
#include <stddef.h>

#include "mpitest.h"

struct Record {
  char kind;
  double weight;
  int ids[3];
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const int rank = mt_rank();
  const int size = mt_size();

  struct Record records[2];
  MPI_Aint base = 0;
  MPI_Aint member[3] = {0};
  MT_CHECK_MPI(MPI_Get_address(&records[0], &base));
  MT_CHECK_MPI(MPI_Get_address(&records[0].kind, &member[0]));
  MT_CHECK_MPI(MPI_Get_address(&records[0].weight, &member[1]));
  MT_CHECK_MPI(MPI_Get_address(records[0].ids, &member[2]));
  const size_t offsets[3] = {offsetof(struct Record, kind),
                             offsetof(struct Record, weight),
                             offsetof(struct Record, ids)};
  MPI_Aint displs[3];
  for (int i = 0; i < 3; ++i) {
    displs[i] = MPI_Aint_diff(member[i], base);
    MT_CHECK(displs[i] == (MPI_Aint)offsets[i],
             "member %d: displacement %ld, offsetof %zu", i, (long)displs[i],
             offsets[i]);
  }
  MPI_Aint next = 0;
  MT_CHECK_MPI(MPI_Get_address(&records[1], &next));
  MT_CHECK(MPI_Aint_diff(next, base) == (MPI_Aint)sizeof(struct Record),
           "records are %ld bytes apart, sizeof is %zu",
           (long)MPI_Aint_diff(next, base), sizeof(struct Record));

  const int lengths[3] = {1, 1, 3};
  const MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
  MPI_Datatype record_type;
  MT_CHECK_MPI(MPI_Type_create_struct(3, lengths, displs, types, &record_type));
  MT_CHECK_MPI(MPI_Type_commit(&record_type));
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  MPI_Type_get_extent(record_type, &lb, &extent);
  MT_CHECK(extent == (MPI_Aint)sizeof(struct Record),
           "struct type extent %ld, sizeof %zu", (long)extent,
           sizeof(struct Record));

  struct Record incoming[2];
  memset(incoming, 0, sizeof incoming);
  for (int i = 0; i < 2; ++i) {
    records[i].kind = (char)('a' + rank);
    records[i].weight = rank + 0.5 * i;
    for (int k = 0; k < 3; ++k) {
      records[i].ids[k] = rank * 100 + i * 10 + k;
    }
  }
  const int from = (rank + size - 1) % size;
  MT_CHECK_MPI(MPI_Sendrecv(records, 2, record_type, (rank + 1) % size, 0,
                            incoming, 2, record_type, from, 0, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
  for (int i = 0; i < 2; ++i) {
    MT_CHECK(incoming[i].kind == (char)('a' + from) &&
                 incoming[i].weight == from + 0.5 * i &&
                 incoming[i].ids[2] == from * 100 + i * 10 + 2,
             "record %d from rank %d arrived wrong", i, from);
  }
  MT_CHECK_MPI(MPI_Type_free(&record_type));

  MT_EXPECT_CLASS(0, MPI_Get_address(&records[0], NULL), MPI_ERR_ARG,
                  "MPI_Get_address(address = NULL)");
  MPI_Finalize();
  return 0;
}
