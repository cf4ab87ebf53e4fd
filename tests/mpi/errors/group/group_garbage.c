// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_GROUP, "Invalid group". A garbage handle, or the
// handle of a group already freed, is not valid MPI, but shmpi validates
// handles so that it reports MPI_ERR_GROUP instead of crashing. shmpi only.
//
// Three kinds: an address that is not mapped, ordinary memory that holds no
// group, and a freed group.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  static long not_a_group[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const MPI_Group unmapped = (MPI_Group)(intptr_t)0x12345678;
  const MPI_Group ordinary = (MPI_Group)(intptr_t)&not_a_group[2];
  MPI_Group freed;
  MPI_Comm_group(MPI_COMM_WORLD, &freed);
  MPI_Group stale = freed;
  MPI_Group_free(&freed);
  int value = 0;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_size(unmapped, &value), MPI_ERR_GROUP,
                    "MPI_Group_size(0x12345678)");
    MT_EXPECT_CLASS(fatal, MPI_Group_size(ordinary, &value), MPI_ERR_GROUP,
                    "MPI_Group_size(&ordinary memory)");
    MT_EXPECT_CLASS(fatal, MPI_Group_size(stale, &value), MPI_ERR_GROUP,
                    "MPI_Group_size(freed group)");
    MT_EXPECT_CLASS(fatal, MPI_Group_free(&stale), MPI_ERR_GROUP,
                    "MPI_Group_free(freed group)");
  }
  return mt_errors_finish(fatal);
}
