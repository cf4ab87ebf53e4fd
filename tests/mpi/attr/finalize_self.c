// SPDX-License-Identifier: MIT
// MPI 4.0, "Allowing User Functions at Process Termination": "When
// MPI_FINALIZE is called, it will first execute the equivalent of an
// MPI_COMM_FREE on MPI_COMM_SELF. This will cause the delete callback
// function to be executed on all keys associated with MPI_COMM_SELF, in the
// reverse order that they were set on MPI_COMM_SELF. ... The 'freeing' of
// MPI_COMM_SELF occurs before any other parts of MPI are affected. Thus,
// for example, calling MPI_FINALIZED will return false in any of these
// callback functions."
//
// Three keys are set in the order B, A, C (unrelated to their creation
// order). The callbacks record the order and check that MPI still works
// (MPI_Finalized, MPI_Comm_rank, a message to self).
#include "mpitest.h"

static char order[8];
static int calls = 0;

static int record_delete(MPI_Comm comm, int keyval, void* value,
                         void* extra_state) {
  (void)keyval;
  (void)value;
  int finalized = 1;
  MPI_Finalized(&finalized);
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int out = rank;
  int in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, 0, 5, &in, 1, MPI_INT, 0, 5, MPI_COMM_SELF,
               MPI_STATUS_IGNORE);
  if (comm != MPI_COMM_SELF || finalized || rank < 0 || in != rank) {
    order[calls++ % 7] = '!';
  } else {
    order[calls++ % 7] = *(const char*)extra_state;
  }
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static const char names[] = "ABC";
  int keyval[3];
  for (int i = 0; i < 3; ++i) {
    MT_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete,
                                        &keyval[i], (void*)&names[i]));
  }
  static int value = 0;
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval[1], &value));  // B
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval[0], &value));  // A
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval[2], &value));  // C
  MPI_Finalize();
  if (strcmp(order, "CAB") != 0) {
    fprintf(stderr,
            "FAIL: delete callbacks at MPI_Finalize ran as \"%s\", expected "
            "\"CAB\" ('!': wrong communicator or MPI unusable)\n",
            order);
    return 1;
  }
  return 0;
}
