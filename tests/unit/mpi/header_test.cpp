// SPDX-License-Identifier: MIT
// mpi.h seen from C++: types, the standard-ABI values of handles and
// constants, noexcept prototypes, and the C translation unit's checks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

extern "C" int shmpi_header_c_check(void);

namespace {

template <typename Handle>
std::intptr_t value_of(Handle handle) {
  return reinterpret_cast<std::intptr_t>(handle);
}

static_assert(std::is_same_v<MPI_Aint, std::intptr_t>);
static_assert(std::is_same_v<MPI_Offset, std::int64_t>);
static_assert(std::is_same_v<MPI_Count, std::int64_t>);
static_assert(std::is_pointer_v<MPI_Comm> && std::is_pointer_v<MPI_Datatype> &&
              std::is_pointer_v<MPI_Request> && std::is_pointer_v<MPI_Session>);
static_assert(!std::is_same_v<MPI_Comm, MPI_Group>,
              "handle kinds are distinct types");
static_assert(sizeof(MPI_Status) == 32 &&
              offsetof(MPI_Status, MPI_ERROR) == 8 &&
              offsetof(MPI_Status, MPI_internal) == 12);
static_assert(std::is_standard_layout_v<MPI_Status> &&
              std::is_trivial_v<MPI_Status>);
static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
static_assert(MPI_VERSION == 4 && MPI_SUBVERSION == 0);

// Every function is noexcept in C++, including the generated ones.
static_assert(noexcept(MPI_Send(nullptr, 0, MPI_INT, 0, 0, MPI_COMM_WORLD)));
static_assert(noexcept(PMPI_Win_create_c(nullptr, 0, 1, MPI_INFO_NULL,
                                         MPI_COMM_WORLD, nullptr)));
static_assert(noexcept(MPI_Wtime()) && noexcept(PMPI_Wtick()));
static_assert(std::is_same_v<decltype(MPI_Aint_add(0, 0)), MPI_Aint>);
static_assert(std::is_same_v<decltype(MPI_Comm_f2c(0)), MPI_Comm>);
static_assert(
    std::is_same_v<decltype(&MPI_Comm_c2f), decltype(&PMPI_Comm_c2f)>);

TEST(Header, PredefinedHandlesHaveAbiValues) {
  EXPECT_EQ(value_of(MPI_COMM_NULL), 0x100);
  EXPECT_EQ(value_of(MPI_COMM_WORLD), 0x101);
  EXPECT_EQ(value_of(MPI_COMM_SELF), 0x102);
  EXPECT_EQ(value_of(MPI_GROUP_EMPTY), 0x109);
  EXPECT_EQ(value_of(MPI_INFO_ENV), 0x131);
  EXPECT_EQ(value_of(MPI_ERRORS_RETURN), 0x142);
  EXPECT_EQ(value_of(MPI_REQUEST_NULL), 0x180);
  EXPECT_EQ(value_of(MPI_SUM), 0x21);
  EXPECT_EQ(value_of(MPI_NO_OP), 0x3d);
  EXPECT_EQ(value_of(MPI_DATATYPE_NULL), 0x200);
  EXPECT_EQ(value_of(MPI_INT), 0x209);
  EXPECT_EQ(value_of(MPI_DOUBLE), 0x214);
  EXPECT_EQ(value_of(MPI_BYTE), 0x247);
  EXPECT_EQ(value_of(MPI_UINT64_T), 0x259);
  EXPECT_EQ(MPI_LONG_LONG_INT, MPI_LONG_LONG);
  EXPECT_EQ(MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX);
}

TEST(Header, PredefinedHandlesAreBelow0x400) {
  // Implementations tell predefined handles from their own objects this way.
  for (const std::intptr_t value :
       {value_of(MPI_COMPLEX32), value_of(MPI_MESSAGE_NO_PROC),
        value_of(MPI_ERRORS_ABORT), value_of(MPI_SESSION_NULL),
        value_of(MPI_WIN_NULL), value_of(MPI_FILE_NULL)}) {
    EXPECT_GT(value, 0);
    EXPECT_LT(value, 0x400);
  }
}

TEST(Header, ConstantsHaveAbiValues) {
  EXPECT_EQ(MPI_SUCCESS, 0);
  EXPECT_EQ(MPI_ERR_BUFFER, 1);
  EXPECT_EQ(MPI_ERR_UNSUPPORTED_OPERATION, 55);
  EXPECT_EQ(MPI_ERR_SESSION, 60);
  EXPECT_EQ(MPI_ERR_LASTCODE, 0x3fff);
  EXPECT_EQ(MPI_ANY_SOURCE, -1);
  EXPECT_EQ(MPI_ANY_TAG, -2);
  EXPECT_EQ(MPI_PROC_NULL, -3);
  EXPECT_EQ(MPI_ROOT, -4);
  EXPECT_EQ(MPI_UNDEFINED, -32766);
  EXPECT_EQ(MPI_THREAD_MULTIPLE, 4096);
  EXPECT_EQ(MPI_TAG_UB, 501);
  EXPECT_EQ(MPI_IDENT, 201);
  EXPECT_EQ(MPI_MAX_ERROR_STRING, 512);
  EXPECT_EQ(MPI_MAX_PROCESSOR_NAME, 256);
  EXPECT_EQ(MPI_DISPLACEMENT_CURRENT, -1);
}

TEST(Header, AddressConstants) {
  EXPECT_EQ(MPI_BOTTOM, nullptr);
  EXPECT_EQ(MPI_STATUS_IGNORE, nullptr);
  EXPECT_NE(MPI_IN_PLACE, MPI_BOTTOM);
  EXPECT_NE(MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY);
  EXPECT_NE(MPI_UNWEIGHTED, nullptr);
}

TEST(Header, CompilesAndWorksAsC) { EXPECT_EQ(shmpi_header_c_check(), 0); }

}  // namespace
