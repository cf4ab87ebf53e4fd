// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.1, MPI_GROUP_TRANSLATE_RANKS: "If no rank in group2 exists
// for a process, MPI_UNDEFINED is returned. ... MPI_PROC_NULL is a valid
// rank for input to MPI_GROUP_TRANSLATE_RANKS, which returns MPI_PROC_NULL
// as the translated rank."
//
// Between the world group, its reverse, every rank's self group and
// MPI_GROUP_EMPTY.
#include "group_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Group world;
  MPI_Group self;
  MPI_Group reversed;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  int* ranks = mt_malloc(sizeof(int) * (size_t)(size + 2));
  int* out = mt_malloc(sizeof(int) * (size_t)(size + 2));
  for (int i = 0; i < size; ++i) {
    ranks[i] = size - 1 - i;
  }
  MT_CHECK_MPI(MPI_Group_incl(world, size, ranks, &reversed));

  // world -> reversed: rank i is rank size-1-i there; PROC_NULL stays.
  for (int i = 0; i < size; ++i) {
    ranks[i] = i;
  }
  ranks[size] = MPI_PROC_NULL;
  ranks[size + 1] = size - 1;  // a rank may be asked for twice
  MT_CHECK_MPI(
      MPI_Group_translate_ranks(world, size + 2, ranks, reversed, out));
  for (int i = 0; i < size; ++i) {
    MT_CHECK(out[i] == size - 1 - i, "world rank %d -> reversed %d", i, out[i]);
  }
  MT_CHECK(out[size] == MPI_PROC_NULL, "MPI_PROC_NULL -> %d", out[size]);
  MT_CHECK(out[size + 1] == 0, "world rank %d again -> %d", size - 1,
           out[size + 1]);

  // world -> self: only this process is in the self group.
  MT_CHECK_MPI(MPI_Group_translate_ranks(world, size, ranks, self, out));
  for (int i = 0; i < size; ++i) {
    const int expected = i == rank ? 0 : MPI_UNDEFINED;
    MT_CHECK(out[i] == expected, "world rank %d -> self %d, expected %d", i,
             out[i], expected);
  }
  // self -> world.
  const int zero = 0;
  MT_CHECK_MPI(MPI_Group_translate_ranks(self, 1, &zero, world, out));
  MT_CHECK(out[0] == rank, "self rank 0 -> world %d, expected %d", out[0],
           rank);

  // Into MPI_GROUP_EMPTY nobody translates (translate_empty.c checks
  // MPI_PROC_NULL there).
  ranks[0] = rank;
  MT_CHECK_MPI(
      MPI_Group_translate_ranks(world, 1, ranks, MPI_GROUP_EMPTY, out));
  MT_CHECK(out[0] == MPI_UNDEFINED, "into MPI_GROUP_EMPTY: %d", out[0]);

  // n = 0 reads and writes nothing.
  out[0] = -77;
  MT_CHECK_MPI(MPI_Group_translate_ranks(world, 0, ranks, self, out));
  MT_CHECK(out[0] == -77, "n = 0 wrote %d", out[0]);

  MT_CHECK_MPI(MPI_Group_free(&reversed));
  MT_CHECK_MPI(MPI_Group_free(&self));
  MT_CHECK_MPI(MPI_Group_free(&world));
  free(out);
  free(ranks);
  MPI_Finalize();
  return 0;
}
