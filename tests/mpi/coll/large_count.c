// SPDX-License-Identifier: MIT
// MPI 4.0 §6 and §19.2 (large counts): each collective "MPI_X_c" takes
// MPI_Count counts and MPI_Aint displacements and otherwise means what
// MPI_X means. Every collective runs here in its int blocking form first
// (the reference, which the other collective tests check against
// independent expectations), then as MPI_X_c, MPI_IX_c and MPI_IX on the
// same data; send and receive buffers must come out byte for byte as the
// reference left them. Sizes: 3 ints per member (inline rounds) and 20000
// (80 KB: several bulk rounds); v forms with uneven counts and gaps.
#include "mt_forms.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int sizes[] = {3, 20000};
  const struct {
    int large, mode;
    const char* what;
  } forms[] = {{1, MT_BLOCKING, "_c"},
               {1, MT_NONBLOCKING, "nonblocking _c"},
               {0, MT_NONBLOCKING, "nonblocking int"}};
  for (int s = 0; s < 2; ++s) {
    MtColl c;
    mt_forms_setup(&c, comm, sizes[s]);
    for (int op = 0; op < MT_CASE_COUNT; ++op) {
      for (int f = 0; f < 3; ++f) {
        mt_forms_reference(&c, &mt_cases[op], op * 10 + s);
        MPI_Request req = MPI_REQUEST_NULL;
        MT_CHECK_MPI(
            mt_cases[op].call(&c, forms[f].large, forms[f].mode, &req));
        mt_coll_wait(&req);
        mt_forms_expect(&c, &mt_cases[op], forms[f].what);
      }
    }
    mt_forms_free(&c);
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
