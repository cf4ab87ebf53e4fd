// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.5: MPI_OP_CREATE binds a user function to an operation
// handle; "commute" says whether it may be applied in any order, and
// MPI_OP_COMMUTATIVE reports it. §6.9.7: MPI_REDUCE_LOCAL applies any
// operation, user-defined ones included, as inoutvec = invec op inoutvec.
//
// A commutative sum and a non-commutative 2x2 integer matrix product
// (inout = in * inout, which only a function called with the operands in
// that order gets right), both through MPI_Reduce_local, with the function
// seeing the count and datatype it was given; MPI_Op_commutative of user
// and predefined operations; MPI_Op_free resets the handle.
#include "mpitest.h"

static int sum_calls;
static int last_len;
static MPI_Datatype last_type;

static void int_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  ++sum_calls;
  last_len = *len;
  last_type = *type;
  const int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i) {
    b[i] += a[i];
  }
}

// Elements are 2x2 matrices stored as 4 ints (row major); the datatype is
// MPI_INT with count 4 per matrix.
static void mat_mul(void* in, void* inout, int* len, MPI_Datatype* type) {
  MT_CHECK(*type == MPI_INT, "mat_mul called with another datatype");
  MT_CHECK(*len % 4 == 0, "mat_mul called with len %d", *len);
  const int* a = in;
  int* b = inout;
  for (int m = 0; m < *len / 4; ++m, a += 4, b += 4) {
    const int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                      a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
  }
}

static void matrix_of(int k, int m, int* out) {
  // Unimodular-ish small matrices that do not commute.
  out[0] = 1, out[1] = (k + m) % 3, out[2] = k % 2, out[3] = 1 + (k * m) % 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);

  MPI_Op sum = MPI_OP_NULL;
  MT_CHECK_MPI(MPI_Op_create(int_sum, 1, &sum));
  MT_CHECK(sum != MPI_OP_NULL, "MPI_Op_create gave MPI_OP_NULL");
  int commute = -1;
  MT_CHECK_MPI(MPI_Op_commutative(sum, &commute));
  MT_CHECK(commute == 1, "commutative user op: MPI_Op_commutative says %d",
           commute);

  enum { kCount = 100 };
  int in[kCount], inout[kCount];
  for (int i = 0; i < kCount; ++i) {
    in[i] = i;
    inout[i] = 3 * i - 7;
  }
  MT_CHECK_MPI(MPI_Reduce_local(in, inout, kCount, MPI_INT, sum));
  MT_CHECK(sum_calls >= 1, "the user function was not called");
  MT_CHECK(last_type == MPI_INT, "the user function got another datatype");
  for (int i = 0; i < kCount; ++i) {
    MT_CHECK(inout[i] == 4 * i - 7, "sum element %d is %d", i, inout[i]);
  }
  // One call covering the whole count is what MPICH and shmpi do; the
  // standard only requires the elements to be combined.
  MT_CHECK(last_len <= kCount && last_len > 0, "len %d", last_len);

  MPI_Op mul = MPI_OP_NULL;
  MT_CHECK_MPI(MPI_Op_create(mat_mul, 0, &mul));
  MT_CHECK_MPI(MPI_Op_commutative(mul, &commute));
  MT_CHECK(commute == 0, "non-commutative user op: MPI_Op_commutative says %d",
           commute);
  // Fold A0 * A1 * ... * A5 from the right: acc = A_k * acc.
  enum { kMats = 8, kFactors = 6 };
  int acc[kMats * 4], factor[kMats * 4];
  for (int m = 0; m < kMats; ++m) {
    matrix_of(kFactors - 1, m, acc + 4 * m);
  }
  for (int k = kFactors - 2; k >= 0; --k) {
    for (int m = 0; m < kMats; ++m) {
      matrix_of(k, m, factor + 4 * m);
    }
    MT_CHECK_MPI(MPI_Reduce_local(factor, acc, kMats * 4, MPI_INT, mul));
  }
  for (int m = 0; m < kMats; ++m) {
    int expected[4] = {1, 0, 0, 1};
    for (int k = kFactors - 1; k >= 0; --k) {  // expected = A_k * expected
      int a[4];
      matrix_of(k, m, a);
      const int c[4] = {a[0] * expected[0] + a[1] * expected[2],
                        a[0] * expected[1] + a[1] * expected[3],
                        a[2] * expected[0] + a[3] * expected[2],
                        a[2] * expected[1] + a[3] * expected[3]};
      memcpy(expected, c, sizeof c);
    }
    MT_CHECK(memcmp(expected, acc + 4 * m, sizeof expected) == 0,
             "matrix %d: got [%d %d; %d %d], expected [%d %d; %d %d]", m,
             acc[4 * m], acc[4 * m + 1], acc[4 * m + 2], acc[4 * m + 3],
             expected[0], expected[1], expected[2], expected[3]);
  }

  // The predefined reduction operations are commutative.
  const MPI_Op predefined[] = {MPI_SUM,  MPI_PROD, MPI_MIN,    MPI_MAX,
                               MPI_LAND, MPI_LOR,  MPI_LXOR,   MPI_BAND,
                               MPI_BOR,  MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
  for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; ++i) {
    commute = -1;
    MT_CHECK_MPI(MPI_Op_commutative(predefined[i], &commute));
    MT_CHECK(commute == 1, "predefined op %zu: MPI_Op_commutative says %d", i,
             commute);
  }
  // But MPI_REPLACE (f(a, b) = b) and MPI_NO_OP (f(a, b) = a) are not.
  const MPI_Op one_sided[] = {MPI_REPLACE, MPI_NO_OP};
  for (size_t i = 0; i < 2; ++i) {
    commute = -1;
    MT_CHECK_MPI(MPI_Op_commutative(one_sided[i], &commute));
    MT_CHECK(commute == 0, "%s: MPI_Op_commutative says %d",
             i == 0 ? "MPI_REPLACE" : "MPI_NO_OP", commute);
  }

  // Many operations at once, freed in another order.
  MPI_Op many[64];
  for (int i = 0; i < 64; ++i) {
    MT_CHECK_MPI(MPI_Op_create(i % 2 ? int_sum : mat_mul, i % 2, &many[i]));
  }
  for (int i = 63; i >= 0; i -= 2) {
    MT_CHECK_MPI(MPI_Op_free(&many[i]));
    MT_CHECK(many[i] == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
  }
  for (int i = 0; i < 64; i += 2) {
    MT_CHECK_MPI(MPI_Op_commutative(many[i], &commute));
    MT_CHECK(commute == 0, "op %d: MPI_Op_commutative says %d", i, commute);
    MT_CHECK_MPI(MPI_Op_free(&many[i]));
  }

  MT_CHECK_MPI(MPI_Op_free(&sum));
  MT_CHECK(sum == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
  MT_CHECK_MPI(MPI_Op_free(&mul));
  MPI_Finalize();
  return 0;
}
