// SPDX-License-Identifier: MIT
// Derived datatypes in point-to-point (MPI 4.0 §5.1.11): the type signature
// must match, the type maps need not. Rank 0 sends rank 1 columns of a
// matrix (a vector type) that rank 1 receives as contiguous doubles, and
// back; a struct both ways; eager and rendezvous (1 MiB) sizes; a type
// freed while the nonblocking operations that use it are in flight;
// MPI_Get_count and MPI_Get_elements on derived types; truncation.
#include "mpitest.h"

enum { kRows = 512, kCols = 256 };  // 1 MiB of doubles

struct Particle {
  double x;
  int id;
  char tag[3];
};

static double value_at(int row, int col) { return row * 1000.0 + col; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  double* matrix = mt_malloc(sizeof(double) * kRows * kCols);
  double* flat = mt_malloc(sizeof(double) * kRows * kCols);

  // A column of the row-major matrix.
  MPI_Datatype column;
  MPI_Type_vector(kRows, 1, kCols, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  // Every column, one after another: resize so consecutive columns start
  // one double apart.
  MPI_Datatype column_stride;
  MPI_Type_create_resized(column, 0, sizeof(double), &column_stride);
  MPI_Type_commit(&column_stride);

  if (rank == 0) {
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) {
        matrix[r * kCols + c] = value_at(r, c);
      }
    }
    // Eager: one column. Rendezvous: the whole matrix transposed.
    MPI_Send(matrix + 3, 1, column, 1, 1, MPI_COMM_WORLD);
    MPI_Send(matrix, kCols, column_stride, 1, 2, MPI_COMM_WORLD);
    // Nonblocking, with the type freed before completion.
    MPI_Datatype temp;
    MPI_Type_vector(kRows, 2, kCols, MPI_DOUBLE, &temp);
    MPI_Type_commit(&temp);
    MPI_Request request;
    MPI_Isend(matrix + 10, 1, temp, 1, 3, MPI_COMM_WORLD, &request);
    MPI_Type_free(&temp);
    MT_CHECK(temp == MPI_DATATYPE_NULL, "MPI_Type_free must null the handle");
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    // Receive contiguous data into a column (vector on the receive side).
    for (int i = 0; i < kRows * kCols; ++i) {
      matrix[i] = -1;
    }
    MPI_Recv(matrix, kCols, column_stride, 1, 4, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) {
        MT_CHECK(matrix[r * kCols + c] == value_at(r, c),
                 "matrix[%d][%d] = %g after the transposed receive", r, c,
                 matrix[r * kCols + c]);
      }
    }
  } else if (rank == 1) {
    MPI_Status status;
    MPI_Recv(flat, kRows, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &status);
    for (int r = 0; r < kRows; ++r) {
      MT_CHECK(flat[r] == value_at(r, 3), "column element %d = %g", r, flat[r]);
    }
    int count = -2;
    MPI_Get_count(&status, column, &count);
    MT_CHECK(count == 1, "MPI_Get_count(column) = %d, expected 1", count);
    MPI_Recv(flat, kRows * kCols, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &status);
    for (int c = 0; c < kCols; ++c) {
      for (int r = 0; r < kRows; ++r) {
        MT_CHECK(flat[c * kRows + r] == value_at(r, c),
                 "transposed[%d][%d] = %g", c, r, flat[c * kRows + r]);
      }
    }
    MPI_Get_count(&status, column_stride, &count);
    MT_CHECK(count == kCols, "MPI_Get_count = %d, expected %d", count, kCols);
    MPI_Recv(flat, 2 * kRows, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &status);
    for (int r = 0; r < kRows; ++r) {
      MT_CHECK(
          flat[2 * r] == value_at(r, 10) && flat[2 * r + 1] == value_at(r, 11),
          "block row %d = %g %g", r, flat[2 * r], flat[2 * r + 1]);
    }
    // Send the transposed matrix back, contiguous.
    for (int c = 0; c < kCols; ++c) {
      for (int r = 0; r < kRows; ++r) {
        flat[c * kRows + r] = value_at(r, c);
      }
    }
    MPI_Send(flat, kRows * kCols, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
  }

  // A struct with padding, sent as a struct and received as a struct; then
  // counted with a partial element.
  struct Particle particles[4];
  MPI_Datatype particle;
  const int lengths[3] = {1, 1, 3};
  const MPI_Aint displacements[3] = {offsetof(struct Particle, x),
                                     offsetof(struct Particle, id),
                                     offsetof(struct Particle, tag)};
  const MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Type_create_struct(3, lengths, displacements, types, &particle);
  MPI_Type_commit(&particle);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(particle, &lb, &extent);
  MT_CHECK(lb == 0 && extent == sizeof(struct Particle),
           "struct extent %ld, expected %zu", (long)extent,
           sizeof(struct Particle));
  if (rank == 0) {
    for (int i = 0; i < 4; ++i) {
      particles[i].x = i + 0.5;
      particles[i].id = 100 + i;
      particles[i].tag[0] = 'a';
      particles[i].tag[1] = (char)('b' + i);
      particles[i].tag[2] = 'z';
    }
    MPI_Send(particles, 4, particle, 1, 5, MPI_COMM_WORLD);
    // Half of a struct: the double and the int, as a partial element.
    MPI_Datatype head;
    const int head_lengths[2] = {1, 1};
    const MPI_Datatype head_types[2] = {MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(2, head_lengths, displacements, head_types, &head);
    MPI_Type_commit(&head);
    MPI_Send(particles, 1, head, 1, 6, MPI_COMM_WORLD);
    MPI_Type_free(&head);
    // Too much data for the receiver: truncation.
    MPI_Send(particles, 4, particle, 1, 7, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(particles, 0, sizeof particles);
    MPI_Status status;
    MPI_Recv(particles, 4, particle, 0, 5, MPI_COMM_WORLD, &status);
    for (int i = 0; i < 4; ++i) {
      MT_CHECK(particles[i].x == i + 0.5 && particles[i].id == 100 + i &&
                   particles[i].tag[0] == 'a' &&
                   particles[i].tag[1] == 'b' + i && particles[i].tag[2] == 'z',
               "particle %d = {%g, %d, %.3s}", i, particles[i].x,
               particles[i].id, particles[i].tag);
    }
    int count = -2;
    MPI_Get_count(&status, particle, &count);
    MT_CHECK(count == 4, "MPI_Get_count(particle) = %d", count);
    MPI_Get_elements(&status, particle, &count);
    MT_CHECK(count == 4 * 5, "MPI_Get_elements(particle) = %d", count);

    MPI_Recv(particles, 4, particle, 0, 6, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, particle, &count);
    MT_CHECK(count == MPI_UNDEFINED, "MPI_Get_count(partial) = %d", count);
    MPI_Get_elements(&status, particle, &count);
    MT_CHECK(count == 2, "MPI_Get_elements(partial) = %d", count);
    MPI_Count elements_x = -2;
    MPI_Get_elements_x(&status, particle, &elements_x);
    MT_CHECK(elements_x == 2, "MPI_Get_elements_x(partial) = %lld",
             (long long)elements_x);
    MT_CHECK(particles[0].x == 0.5 && particles[0].id == 100,
             "partial particle = {%g, %d}", particles[0].x, particles[0].id);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int rc =
        MPI_Recv(particles, 3, particle, 0, 7, MPI_COMM_WORLD, &status);
    int error_class = -1;
    MPI_Error_class(rc, &error_class);
    MT_CHECK(error_class == MPI_ERR_TRUNCATE,
             "receiving 4 particles into 3: class %d, expected "
             "MPI_ERR_TRUNCATE",
             error_class);
  }
  MPI_Type_free(&particle);
  MPI_Type_free(&column_stride);
  MPI_Type_free(&column);
  free(matrix);
  free(flat);
  MPI_Finalize();
  return 0;
}
