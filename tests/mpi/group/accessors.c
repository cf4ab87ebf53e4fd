// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.1: MPI_GROUP_SIZE and MPI_GROUP_RANK ("MPI_UNDEFINED if the
// process is not a member"), and §7.3.2: MPI_COMM_GROUP "returns in group a
// handle to the group of comm".
//
// The groups of MPI_COMM_WORLD and MPI_COMM_SELF, and MPI_GROUP_EMPTY.
#include "group_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();

  MPI_Group world;
  MPI_Group self;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  int value = -1;
  MT_CHECK_MPI(MPI_Group_size(world, &value));
  MT_CHECK(value == size, "world group size %d, expected %d", value, size);
  MT_CHECK_MPI(MPI_Group_rank(world, &value));
  MT_CHECK(value == rank, "world group rank %d, expected %d", value, rank);
  MT_CHECK_MPI(MPI_Group_size(self, &value));
  MT_CHECK(value == 1, "self group size %d, expected 1", value);
  MT_CHECK_MPI(MPI_Group_rank(self, &value));
  MT_CHECK(value == 0, "self group rank %d, expected 0", value);

  // The members, as world ranks.
  int* all = mt_malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    all[i] = i;
  }
  GC_EXPECT(world, all, size, "MPI_Comm_group(MPI_COMM_WORLD)");
  GC_EXPECT(self, &rank, 1, "MPI_Comm_group(MPI_COMM_SELF)");

  MT_CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &value));
  MT_CHECK(value == 0, "MPI_GROUP_EMPTY has size %d", value);
  MT_CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &value));
  MT_CHECK(value == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY is %d", value);

  // A group outside which this process stands: everyone but itself.
  if (size > 1) {
    MPI_Group others;
    MT_CHECK_MPI(MPI_Group_excl(world, 1, &rank, &others));
    MT_CHECK_MPI(MPI_Group_rank(others, &value));
    MT_CHECK(value == MPI_UNDEFINED, "rank in a group without me is %d", value);
    MT_CHECK_MPI(MPI_Group_size(others, &value));
    MT_CHECK(value == size - 1, "size %d, expected %d", value, size - 1);
    MT_CHECK_MPI(MPI_Group_free(&others));
  }

  // Asking twice gives the same group.
  MPI_Group again;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &again));
  MT_CHECK_MPI(MPI_Group_compare(world, again, &value));
  MT_CHECK(value == MPI_IDENT, "two MPI_Comm_group calls compare as %d", value);
  MT_CHECK_MPI(MPI_Group_free(&again));

  // A group lives on after its communicator is gone: MPI_Finalize frees
  // nothing the test needs, so just free them here.
  MT_CHECK_MPI(MPI_Group_free(&world));
  MT_CHECK_MPI(MPI_Group_free(&self));
  MT_CHECK(world == MPI_GROUP_NULL && self == MPI_GROUP_NULL,
           "MPI_Group_free did not set the handles to MPI_GROUP_NULL");
  free(all);
  MPI_Finalize();
  return 0;
}
