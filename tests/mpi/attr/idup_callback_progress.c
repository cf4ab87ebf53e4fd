// SPDX-License-Identifier: MIT
// Copy callbacks of MPI_Comm_idup may call MPI (MPI 4.0 §7.7: callbacks
// are user functions; nothing limits them to local calls). One that drives
// progress (MPI_Iprobe here) used to re-enter the progress engine while the
// idup's own task was completing, which ran the task again: the callback
// recursed until the stack overflowed. One that used the parent
// collectively deadlocked on the idup itself. Each callback must run once
// per idup and attribute, and every copy must arrive.
#include "mpitest.h"

static int copies = 0;

static int probing_copy(MPI_Comm comm, int keyval, void* extra_state,
                        void* value_in, void* value_out, int* flag) {
  (void)comm;
  (void)keyval;
  (void)extra_state;
  copies++;
  int found = 0;
  MT_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &found,
                          MPI_STATUS_IGNORE));
  *(void**)value_out = (char*)value_in + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

static int barrier_copy(MPI_Comm comm, int keyval, void* extra_state,
                        void* value_in, void* value_out, int* flag) {
  (void)keyval;
  (void)extra_state;
  MT_CHECK_MPI(MPI_Barrier(comm));  // the parent, collectively
  *(void**)value_out = value_in;
  *flag = 1;
  return MPI_SUCCESS;
}

enum { kIdups = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static char base[2];
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(probing_copy, MPI_COMM_NULL_DELETE_FN,
                                      &keyval, NULL));
  // A fresh parent has no context IDs in reserve for all of these: most
  // complete in the progress engine.
  MPI_Comm parent = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
  MT_CHECK_MPI(MPI_Comm_set_attr(parent, keyval, base));
  MPI_Comm dups[kIdups];
  MPI_Request requests[kIdups];
  for (int i = 0; i < kIdups; ++i) {
    MT_CHECK_MPI(MPI_Comm_idup(parent, &dups[i], &requests[i]));
  }
  MT_CHECK_MPI(MPI_Waitall(kIdups, requests, MPI_STATUSES_IGNORE));
  MT_CHECK(copies == kIdups, "the copy callback ran %d times for %d idups",
           copies, kIdups);
  for (int i = 0; i < kIdups; ++i) {
    void* value = NULL;
    int flag = 0;
    MT_CHECK_MPI(MPI_Comm_get_attr(dups[i], keyval, &value, &flag));
    MT_CHECK(flag == 1 && value == base + 1, "idup %d lost its copy", i);
    MT_CHECK_MPI(MPI_Barrier(dups[i]));
    MT_CHECK_MPI(MPI_Comm_free(&dups[i]));
  }

  // A callback that is collective over the parent.
  int barrier_keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(barrier_copy, MPI_COMM_NULL_DELETE_FN,
                                      &barrier_keyval, NULL));
  MT_CHECK_MPI(MPI_Comm_set_attr(parent, barrier_keyval, base));
  for (int i = 0; i < 2; ++i) {
    MT_CHECK_MPI(MPI_Comm_idup(parent, &dups[i], &requests[i]));
  }
  MT_CHECK_MPI(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
  for (int i = 0; i < 2; ++i) {
    MT_CHECK_MPI(MPI_Barrier(dups[i]));
    MT_CHECK_MPI(MPI_Comm_free(&dups[i]));
  }
  MT_CHECK_MPI(MPI_Comm_free(&parent));
  MT_CHECK_MPI(MPI_Comm_free_keyval(&barrier_keyval));
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MPI_Finalize();
  return 0;
}
