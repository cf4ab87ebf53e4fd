// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_ARG for NULL output arguments of the attribute
// calls (attribute_val, flag, the keyval to create or free), and
// MPI_ERR_COMM for MPI_COMM_NULL.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int flag = 0;
  void* got = NULL;
  static int value = 1;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &got, NULL),
                    MPI_ERR_ARG, "MPI_Comm_get_attr(flag = NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &flag),
                    MPI_ERR_ARG, "MPI_Comm_get_attr(attribute_val = NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                           MPI_COMM_NULL_DELETE_FN, NULL, NULL),
                    MPI_ERR_ARG, "MPI_Comm_create_keyval(comm_keyval = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_free_keyval(NULL), MPI_ERR_ARG,
                    "MPI_Comm_free_keyval(NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &got, &flag),
                    MPI_ERR_COMM, "MPI_Comm_get_attr(MPI_COMM_NULL)");
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                           &keyval, NULL);
    MT_EXPECT_CLASS(fatal, MPI_Comm_set_attr(MPI_COMM_NULL, keyval, &value),
                    MPI_ERR_COMM, "MPI_Comm_set_attr(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_delete_attr(MPI_COMM_NULL, keyval),
                    MPI_ERR_COMM, "MPI_Comm_delete_attr(MPI_COMM_NULL)");
    MPI_Comm_free_keyval(&keyval);
  }
  return mt_errors_finish(fatal);
}
