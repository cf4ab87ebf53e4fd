// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4 error classes of the operation calls, under
// MPI_ERRORS_RETURN: MPI_ERR_OP for freeing a predefined operation
// (§6.9.5: MPI_OP_FREE "marks a user-defined reduction operation for
// deallocation"), for MPI_OP_NULL, and for MPI_REPLACE / MPI_NO_OP, which
// are only defined for one-sided accumulates (§12.3.4); MPI_ERR_OP for a
// predefined operation on a datatype it is not defined for (§6.9.2).
// A negative count and MPI_DATATYPE_NULL are not checked here: MPICH
// 4.0.2's MPI_Reduce_local crashes on the first and says MPI_ERR_OP for
// the second.
// With args=fatal the default handler must end the job.
#include "mpitest.h"

static void noop(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  if (mt_errors_caller(fatal)) {
    MPI_Op op = MPI_SUM;
    MT_EXPECT_CLASS(fatal, MPI_Op_free(&op), MPI_ERR_OP,
                    "MPI_Op_free(MPI_SUM)");
    MT_CHECK(op == MPI_SUM, "a failed MPI_Op_free changed the handle");
    int a[4] = {1, 2, 3, 4};
    int b[4] = {4, 3, 2, 1};
    MT_EXPECT_CLASS(fatal, MPI_Reduce_local(a, b, 4, MPI_INT, MPI_OP_NULL),
                    MPI_ERR_OP, "MPI_Reduce_local(MPI_OP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Reduce_local(a, b, 4, MPI_INT, MPI_REPLACE),
                    MPI_ERR_OP, "MPI_Reduce_local(MPI_REPLACE)");
    MT_EXPECT_CLASS(fatal, MPI_Reduce_local(a, b, 4, MPI_INT, MPI_NO_OP),
                    MPI_ERR_OP, "MPI_Reduce_local(MPI_NO_OP)");
    float f[2] = {1.0f, 2.0f};
    float g[2] = {1.0f, 2.0f};
    MT_EXPECT_CLASS(fatal, MPI_Reduce_local(f, g, 2, MPI_FLOAT, MPI_BAND),
                    MPI_ERR_OP, "MPI_Reduce_local(MPI_BAND on MPI_FLOAT)");
    MT_EXPECT_CLASS(fatal, MPI_Reduce_local(a, b, 2, MPI_INT, MPI_MAXLOC),
                    MPI_ERR_OP, "MPI_Reduce_local(MPI_MAXLOC on MPI_INT)");
    int commute = 0;
    MT_EXPECT_CLASS(fatal, MPI_Op_commutative(MPI_OP_NULL, &commute),
                    MPI_ERR_OP, "MPI_Op_commutative(MPI_OP_NULL)");
    // A freed user operation is MPI_OP_NULL again: freeing twice fails.
    MPI_Op user = MPI_OP_NULL;
    MT_CHECK_MPI(MPI_Op_create(noop, 1, &user));
    MT_CHECK_MPI(MPI_Op_free(&user));
    MT_EXPECT_CLASS(fatal, MPI_Op_free(&user), MPI_ERR_OP,
                    "MPI_Op_free(MPI_OP_NULL)");
    // Nothing above may have broken the reductions that follow.
    MT_CHECK_MPI(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM));
    MT_CHECK(b[0] == 5 && b[3] == 5, "MPI_Reduce_local after errors");
  }
  return mt_errors_finish(fatal);
}
