// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2: the ranks of MPI_GROUP_INCL and MPI_GROUP_EXCL "must be a
// valid rank in group"; §7.3.1: those of MPI_GROUP_TRANSLATE_RANKS "valid
// ranks in group1" (or MPI_PROC_NULL). An invalid one raises MPI_ERR_RANK
// (§9.4).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group out = MPI_GROUP_NULL;
  int value = 0;
  const int too_big = size;
  const int negative = -1;
  const int zero = 0;
  const int some_valid_then_bad[] = {0, size};
  const int undefined = MPI_UNDEFINED;
  const int any_source = MPI_ANY_SOURCE;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 1, &too_big, &out),
                    MPI_ERR_RANK, "MPI_Group_incl(ranks = {size})");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 1, &negative, &out),
                    MPI_ERR_RANK, "MPI_Group_incl(ranks = {-1})");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 2, some_valid_then_bad, &out),
                    MPI_ERR_RANK, "MPI_Group_incl(ranks = {0, size})");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(MPI_GROUP_EMPTY, 1, &zero, &out),
                    MPI_ERR_RANK, "MPI_Group_incl(MPI_GROUP_EMPTY, {0})");
    MT_EXPECT_CLASS(fatal, MPI_Group_excl(world, 1, &too_big, &out),
                    MPI_ERR_RANK, "MPI_Group_excl(ranks = {size})");
    MT_EXPECT_CLASS(fatal, MPI_Group_excl(world, 1, &negative, &out),
                    MPI_ERR_RANK, "MPI_Group_excl(ranks = {-1})");
    MT_EXPECT_CLASS(
        fatal, MPI_Group_translate_ranks(world, 1, &too_big, world, &value),
        MPI_ERR_RANK, "MPI_Group_translate_ranks(ranks1 = {size})");
    MT_EXPECT_CLASS(
        fatal, MPI_Group_translate_ranks(world, 1, &undefined, world, &value),
        MPI_ERR_RANK, "MPI_Group_translate_ranks(ranks1 = {MPI_UNDEFINED})");
    MT_EXPECT_CLASS(
        fatal, MPI_Group_translate_ranks(world, 1, &any_source, world, &value),
        MPI_ERR_RANK, "MPI_Group_translate_ranks(ranks1 = {MPI_ANY_SOURCE})");
  }
  MT_CHECK(out == MPI_GROUP_NULL, "a failed call wrote newgroup");
  MPI_Group_free(&world);
  return mt_errors_finish(fatal);
}
