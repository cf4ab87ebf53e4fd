// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_KEYVAL, "invalid keyval has been passed". A
// predefined key (MPI_TAG_UB) cannot be set, deleted or freed (§7.7.2:
// MPI_COMM_FREE_KEYVAL raises MPI_ERR_KEYVAL for a predefined keyval), and
// MPI_KEYVAL_INVALID is no key at all.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  static int value = 1;
  int keyval = MPI_TAG_UB;
  int flag = 0;
  void* got = NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value),
                    MPI_ERR_KEYVAL, "MPI_Comm_set_attr(MPI_TAG_UB)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB),
                    MPI_ERR_KEYVAL, "MPI_Comm_delete_attr(MPI_TAG_UB)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_free_keyval(&keyval), MPI_ERR_KEYVAL,
                    "MPI_Comm_free_keyval(MPI_TAG_UB)");
    keyval = MPI_KEYVAL_INVALID;
    MT_EXPECT_CLASS(fatal, MPI_Comm_free_keyval(&keyval), MPI_ERR_KEYVAL,
                    "MPI_Comm_free_keyval(MPI_KEYVAL_INVALID)");
    MT_EXPECT_CLASS(
        fatal, MPI_Comm_set_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID, &value),
        MPI_ERR_KEYVAL, "MPI_Comm_set_attr(MPI_KEYVAL_INVALID)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &got, &flag),
        MPI_ERR_KEYVAL, "MPI_Comm_get_attr(MPI_KEYVAL_INVALID)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID),
                    MPI_ERR_KEYVAL, "MPI_Comm_delete_attr(MPI_KEYVAL_INVALID)");
    MT_EXPECT_CLASS(fatal, MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, &value),
                    MPI_ERR_KEYVAL, "MPI_Attr_put(MPI_TAG_UB)");
  }
  return mt_errors_finish(fatal);
}
