// SPDX-License-Identifier: MIT
// The predefined attribute copy and delete callbacks of mpi.h
// (MPI_COMM_DUP_FN and friends, MPI 4.0 section 7.7.2). They are ordinary
// functions, so attribute code calls them like user callbacks.
#include <mpi.h>

namespace {

// *_NULL_COPY_FN: the attribute is not copied to the new object.
int null_copy(void* /*attribute_val_out*/, int* flag) noexcept {
  *flag = 0;
  return MPI_SUCCESS;
}

// *_DUP_FN: the new object gets the same attribute value.
int dup_copy(void* attribute_val_in, void* attribute_val_out,
             int* flag) noexcept {
  // attribute_val_out is really a void**: the standard's C binding passes the
  // address of the new attribute value as a void*.
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_COMM_NULL_COPY_FN(MPI_Comm /*oldcomm*/, int /*comm_keyval*/,
                          void* /*extra_state*/, void* /*attribute_val_in*/,
                          void* attribute_val_out, int* flag) noexcept {
  return null_copy(attribute_val_out, flag);
}

int MPI_COMM_DUP_FN(MPI_Comm /*oldcomm*/, int /*comm_keyval*/,
                    void* /*extra_state*/, void* attribute_val_in,
                    void* attribute_val_out, int* flag) noexcept {
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm /*comm*/, int /*comm_keyval*/,
                            void* /*attribute_val*/,
                            void* /*extra_state*/) noexcept {
  return MPI_SUCCESS;
}

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype /*oldtype*/, int /*type_keyval*/,
                          void* /*extra_state*/, void* /*attribute_val_in*/,
                          void* attribute_val_out, int* flag) noexcept {
  return null_copy(attribute_val_out, flag);
}

int MPI_TYPE_DUP_FN(MPI_Datatype /*oldtype*/, int /*type_keyval*/,
                    void* /*extra_state*/, void* attribute_val_in,
                    void* attribute_val_out, int* flag) noexcept {
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype /*datatype*/, int /*type_keyval*/,
                            void* /*attribute_val*/,
                            void* /*extra_state*/) noexcept {
  return MPI_SUCCESS;
}

int MPI_WIN_NULL_COPY_FN(MPI_Win /*oldwin*/, int /*win_keyval*/,
                         void* /*extra_state*/, void* /*attribute_val_in*/,
                         void* attribute_val_out, int* flag) noexcept {
  return null_copy(attribute_val_out, flag);
}

int MPI_WIN_DUP_FN(MPI_Win /*oldwin*/, int /*win_keyval*/,
                   void* /*extra_state*/, void* attribute_val_in,
                   void* attribute_val_out, int* flag) noexcept {
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win /*win*/, int /*win_keyval*/,
                           void* /*attribute_val*/,
                           void* /*extra_state*/) noexcept {
  return MPI_SUCCESS;
}

int MPI_NULL_COPY_FN(MPI_Comm /*oldcomm*/, int /*keyval*/,
                     void* /*extra_state*/, void* /*attribute_val_in*/,
                     void* attribute_val_out, int* flag) noexcept {
  return null_copy(attribute_val_out, flag);
}

int MPI_DUP_FN(MPI_Comm /*oldcomm*/, int /*keyval*/, void* /*extra_state*/,
               void* attribute_val_in, void* attribute_val_out,
               int* flag) noexcept {
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int MPI_NULL_DELETE_FN(MPI_Comm /*comm*/, int /*keyval*/,
                       void* /*attribute_val*/,
                       void* /*extra_state*/) noexcept {
  return MPI_SUCCESS;
}

}  // extern "C"
