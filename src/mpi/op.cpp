// SPDX-License-Identifier: MIT
// Reduction operations: the checks and the apply step every reduction goes
// through (predefined kernels or the program's function), MPI_Op_create,
// MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local.
#include "mpi/op.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "mpi/detail/pmpi.hpp"

namespace shmpi::mpi {

HandleArena<UserOp>& user_ops() {
  static auto* arena = new HandleArena<UserOp>(1u << 16);  // process lifetime
  return *arena;
}

namespace {

bool is_predefined_handle(MPI_Op op) {
  return reinterpret_cast<std::uintptr_t>(op) < kPredefinedLimit;
}

// Calls the program's function on `count` elements laid out as in a user
// buffer (the pointers are buffer addresses, true_lb not added), in pieces
// when `count` does not fit the function's int length.
void call_user(const UserOp& op, MPI_Datatype type, std::int64_t extent,
               const void* in, void* inout, std::size_t count) {
  auto* in_bytes = static_cast<std::byte*>(const_cast<void*>(in));
  auto* inout_bytes = static_cast<std::byte*>(inout);
  if (op.function_c != nullptr) {
    auto len = static_cast<MPI_Count>(count);
    op.function_c(in_bytes, inout_bytes, &len, &type);
    return;
  }
  // Even a zero count calls the function: the standard does not exempt it
  // and MPICH does the same.
  do {
    const std::size_t piece = std::min<std::size_t>(count, INT_MAX);
    int len = static_cast<int>(piece);
    op.function(in_bytes, inout_bytes, &len, &type);
    // On the integer address: the buffers may be MPI_BOTTOM.
    in_bytes = datatype::offset_address(
        in_bytes, static_cast<std::int64_t>(piece) * extent);
    inout_bytes = datatype::offset_address(
        inout_bytes, static_cast<std::int64_t>(piece) * extent);
    count -= piece;
  } while (count > 0);
}

// Memory laid out like a user buffer of `count` elements of `type`, for
// unpacking a non-contiguous type's packed data: `buffer` is the address
// the program would have passed.
struct UserImage {
  std::unique_ptr<std::byte[]> memory;
  std::byte* buffer = nullptr;

  UserImage(const TypeArg& type, std::size_t count) {
    // The span of the data is [true_lb, true_lb + true_extent) per element;
    // TypeArg does not carry the true extent, so ask the datatype.
    MPI_Count true_lb = type.true_lb;
    MPI_Count true_extent = type.extent;
    if (PMPI_Type_get_true_extent_c(type.handle, &true_lb, &true_extent) !=
        MPI_SUCCESS) {
      true_lb = type.true_lb;
      true_extent = std::max<std::int64_t>(type.extent, 0);
    }
    const std::int64_t last =
        static_cast<std::int64_t>(count == 0 ? 0 : count - 1) * type.extent;
    const std::int64_t low = true_lb + std::min<std::int64_t>(0, last);
    const std::int64_t high =
        true_lb + true_extent + std::max<std::int64_t>(0, last);
    // The user function reads elements through the buffer's address, so
    // that address gets the alignment of an allocation (malloc's), as a
    // program's own buffer would, even when the data start at a true lower
    // bound that is not a multiple of it (a struct type whose first field
    // is not at 0): allocate kAlign bytes more and round the address up.
    constexpr std::uintptr_t kAlign = alignof(std::max_align_t);
    const auto span =
        static_cast<std::size_t>(std::max<std::int64_t>(high - low, 1));
    memory = std::make_unique<std::byte[]>(span + kAlign);
    const std::uintptr_t at =
        reinterpret_cast<std::uintptr_t>(memory.get()) -
        static_cast<std::uintptr_t>(low);  // NOLINT: address arithmetic
    const std::uintptr_t aligned = (at + kAlign - 1) & ~(kAlign - 1);
    buffer = memory.get() + (aligned - at) - low;
  }
};

// inout = in op inout on user buffers of a non-contiguous type with a
// predefined op: through packed copies, which the kernels work on.
void apply_predefined_to_user(const OpArg& op, const TypeArg& type,
                              const void* in, void* inout, std::size_t count) {
  const std::size_t bytes = type.bytes(count);
  auto packed_in =
      std::make_unique<std::byte[]>(std::max<std::size_t>(bytes, 1));
  auto packed_inout =
      std::make_unique<std::byte[]>(std::max<std::size_t>(bytes, 1));
  datatype::pack(type.layout(in, count), 0, packed_in.get(), bytes);
  datatype::pack(type.layout(inout, count), 0, packed_inout.get(), bytes);
  apply_op(op, type, packed_in.get(), packed_inout.get(), count);
  datatype::unpack(type.layout(inout, count), 0, packed_inout.get(), bytes);
}

}  // namespace

UserOp* find_user_op(MPI_Op op) noexcept { return user_ops().find(op); }

int check_op(Comm* comm, MPI_Op op, const TypeArg& type, OpArg* out,
             const char* function) noexcept {
  out->handle = op;
  out->user = nullptr;
  out->commutative = true;
  out->kind = datatype::OpKind::kInvalid;
  if (!is_predefined_handle(op)) {
    UserOp* user = find_user_op(op);
    if (user == nullptr) {
      return fail(comm, MPI_ERR_OP, function, "invalid reduction operation %p",
                  static_cast<void*>(op));
    }
    // A user function takes any datatype: it receives the handle and decides.
    out->user = user;
    out->commutative = user->commutative;
    return MPI_SUCCESS;
  }
  out->kind = datatype::op_from_handle(reinterpret_cast<std::uintptr_t>(op));
  if (out->kind == datatype::OpKind::kInvalid) {
    return fail(comm, MPI_ERR_OP, function, "invalid reduction operation %p",
                static_cast<void*>(op));
  }
  if (type.element == nullptr) {
    return fail(comm, MPI_ERR_OP, function,
                "%s needs a datatype made of one predefined type",
                datatype::op_name(out->kind));
  }
  if (datatype::check_op_type(out->kind, *type.element) != MPI_SUCCESS) {
    return fail(comm, MPI_ERR_OP, function, "%s is not defined for %s",
                datatype::op_name(out->kind), type.element->name);
  }
  return MPI_SUCCESS;
}

void apply_op(const OpArg& op, const TypeArg& type, const void* in, void* inout,
              std::size_t count) {
  if (op.user == nullptr) {
    datatype::reduce(op.kind, *type.element, in, inout,
                     count * type.element_count);
    return;
  }
  if (type.map == nullptr) {
    // Contiguous: the packed bytes are the user layout, which starts
    // true_lb before the first data byte.
    call_user(*op.user, type.handle, type.extent,
              static_cast<const std::byte*>(in) - type.true_lb,
              static_cast<std::byte*>(inout) - type.true_lb, count);
    return;
  }
  UserImage image_in(type, count);
  UserImage image_inout(type, count);
  const std::size_t bytes = type.bytes(count);
  datatype::unpack(type.layout(image_in.buffer, count), 0, in, bytes);
  datatype::unpack(type.layout(image_inout.buffer, count), 0, inout, bytes);
  call_user(*op.user, type.handle, type.extent, image_in.buffer,
            image_inout.buffer, count);
  datatype::pack(type.layout(image_inout.buffer, count), 0, inout, bytes);
}

void retain_op(const OpArg& op) noexcept {
  if (op.user != nullptr) {
    const_cast<UserOp*>(op.user)->references.fetch_add(
        1, std::memory_order_relaxed);
  }
}

void release_op(const OpArg& op) noexcept {
  if (op.user != nullptr) {
    auto* user = const_cast<UserOp*>(op.user);
    if (user->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      user_ops().destroy(user);
    }
  }
}

namespace {

int op_create(MPI_User_function* function, MPI_User_function_c* function_c,
              int commute, MPI_Op* op, const char* name) noexcept {
  if (int rc = check_initialized(name); rc != MPI_SUCCESS) {
    return rc;
  }
  if (function == nullptr && function_c == nullptr) {
    return fail_static(nullptr, MPI_ERR_ARG, name, "user_fn is NULL");
  }
  if (op == nullptr) {
    return fail_static(nullptr, MPI_ERR_ARG, name, "op is NULL");
  }
  UserOp* created = user_ops().create();
  if (created == nullptr) {
    return fail_static(nullptr, MPI_ERR_NO_MEM, name, "out of op handles");
  }
  created->function = function;
  created->function_c = function_c;
  created->commutative = commute != 0;
  *op = reinterpret_cast<MPI_Op>(created);  // NOLINT: handle is the object
  return MPI_SUCCESS;
}

int reduce_local(const void* inbuf, void* inoutbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, const char* name) noexcept {
  if (int rc = check_initialized(name); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(nullptr, count, name); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg type;
  if (int rc = check_reduction_datatype(nullptr, datatype, &type, name);
      rc != MPI_SUCCESS) {
    return rc;
  }
  OpArg checked;
  if (int rc = check_op(nullptr, op, type, &checked, name); rc != MPI_SUCCESS) {
    return rc;
  }
  if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE) {
    return fail_static(nullptr, MPI_ERR_BUFFER, name,
                       "MPI_IN_PLACE is not allowed here");
  }
  if (int rc = check_buffer(nullptr, inbuf, count, type, name);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_buffer(nullptr, inoutbuf, count, type, name);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const auto n = static_cast<std::size_t>(count);
  if (checked.user != nullptr) {
    // The program's buffers are already in the layout its function expects.
    call_user(*checked.user, datatype, type.extent, inbuf, inoutbuf, n);
  } else if (type.map == nullptr) {
    apply_op(checked, type, datatype::offset_address(inbuf, type.true_lb),
             datatype::offset_address(inoutbuf, type.true_lb), n);
  } else {
    apply_predefined_to_user(checked, type, inbuf, inoutbuf, n);
  }
  return MPI_SUCCESS;
}

}  // namespace

}  // namespace shmpi::mpi

using namespace shmpi::mpi;  // NOLINT: entry points below

extern "C" int PMPI_Op_create(MPI_User_function* user_fn, int commute,
                              MPI_Op* op) noexcept {
  return op_create(user_fn, nullptr, commute, op, "MPI_Op_create");
}
SHMPI_PMPI_ALIAS(MPI_Op_create);

extern "C" int PMPI_Op_create_c(MPI_User_function_c* user_fn, int commute,
                                MPI_Op* op) noexcept {
  return op_create(nullptr, user_fn, commute, op, "MPI_Op_create_c");
}
SHMPI_PMPI_ALIAS(MPI_Op_create_c);

extern "C" int PMPI_Op_free(MPI_Op* op) noexcept {
  if (int rc = check_initialized("MPI_Op_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (op == nullptr) {
    return fail_static(nullptr, MPI_ERR_ARG, "MPI_Op_free", "op is NULL");
  }
  if (is_predefined_handle(*op)) {
    return fail_static(nullptr, MPI_ERR_OP, "MPI_Op_free",
                       "predefined operations cannot be freed");
  }
  UserOp* user = find_user_op(*op);
  if (user == nullptr) {
    return fail_static(nullptr, MPI_ERR_OP, "MPI_Op_free",
                       "invalid reduction operation");
  }
  OpArg arg;
  arg.user = user;
  release_op(arg);  // operations in flight hold their own references
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Op_free);

extern "C" int PMPI_Op_commutative(MPI_Op op, int* commute) noexcept {
  if (int rc = check_initialized("MPI_Op_commutative"); rc != MPI_SUCCESS) {
    return rc;
  }
  bool commutative = true;
  if (UserOp* user = find_user_op(op)) {
    commutative = user->commutative;
  } else if (!is_predefined_handle(op) ||
             shmpi::datatype::op_from_handle(reinterpret_cast<std::uintptr_t>(
                 op)) == shmpi::datatype::OpKind::kInvalid) {
    return fail_static(nullptr, MPI_ERR_OP, "MPI_Op_commutative",
                       "invalid reduction operation");
  }
  if (commute == nullptr) {
    return fail_static(nullptr, MPI_ERR_ARG, "MPI_Op_commutative",
                       "commute is NULL");
  }
  // MPI_REPLACE (the new value) and MPI_NO_OP (the old one) are the
  // predefined operations that do not commute; they exist for one-sided
  // accumulates, where the order of the operands is fixed.
  if (op == MPI_REPLACE || op == MPI_NO_OP) {
    commutative = false;
  }
  *commute = commutative ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Op_commutative);

extern "C" int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op) noexcept {
  return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local");
}
SHMPI_PMPI_ALIAS(MPI_Reduce_local);

extern "C" int PMPI_Reduce_local_c(const void* inbuf, void* inoutbuf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op) noexcept {
  return reduce_local(inbuf, inoutbuf, count, datatype, op,
                      "MPI_Reduce_local_c");
}
SHMPI_PMPI_ALIAS(MPI_Reduce_local_c);
