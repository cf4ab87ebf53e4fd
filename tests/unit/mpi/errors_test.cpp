// SPDX-License-Identifier: MIT
// Error-code encoding and the message registry (src/mpi/errors.hpp).
#include "mpi/errors.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace shmpi::mpi {
namespace {

constexpr int kTestClasses[] = {MPI_ERR_ARG, MPI_ERR_UNSUPPORTED_OPERATION,
                                MPI_ERR_SESSION, MPI_ERR_BUFFER};

TEST(ErrorCode, EveryPredefinedClassIsItsOwnCode) {
  for (int mpi_class = MPI_SUCCESS; mpi_class <= MPI_ERR_SESSION; ++mpi_class) {
    EXPECT_TRUE(is_predefined_class(mpi_class)) << mpi_class;
    EXPECT_EQ(error_class_of(mpi_class), mpi_class);
  }
  for (int mpi_class = MPI_T_ERR_CANNOT_INIT;
       mpi_class <= MPI_T_ERR_PVAR_NO_ATOMIC; ++mpi_class) {
    EXPECT_TRUE(is_predefined_class(mpi_class)) << mpi_class;
    EXPECT_EQ(error_class_of(mpi_class), mpi_class);
  }
}

TEST(ErrorCode, ClassStringsAreDistinctAndFit) {
  std::set<std::string_view> seen;
  std::vector<int> classes;
  for (int c = MPI_SUCCESS; c <= MPI_ERR_SESSION; ++c) {
    classes.push_back(c);
  }
  for (int c = MPI_T_ERR_CANNOT_INIT; c <= MPI_T_ERR_PVAR_NO_ATOMIC; ++c) {
    classes.push_back(c);
  }
  for (const int c : classes) {
    const std::string_view text = error_string(c);
    EXPECT_FALSE(text.empty()) << c;
    EXPECT_LT(text.size(), std::size_t{MPI_MAX_ERROR_STRING}) << c;
    EXPECT_TRUE(seen.insert(text).second)
        << "duplicate string for class " << c << ": " << text;
  }
}

TEST(ErrorCode, UnknownCodesAreInvalid) {
  for (const int code : std::initializer_list<int>{
           -1, MPI_ERR_SESSION + 1, 255, 256, 1000,
           MPI_T_ERR_PVAR_NO_ATOMIC + 1, MPI_ERR_LASTCODE, MPI_ERR_LASTCODE + 1,
           0x7fffffff}) {
    EXPECT_EQ(error_class_of(code), -1) << code;
    EXPECT_TRUE(error_string(code).empty()) << code;
  }
}

TEST(ErrorCode, DetailCodeKeepsClassAndMessage) {
  const int code = make_error_code(MPI_ERR_UNSUPPORTED_OPERATION,
                                   "MPI_File_open is not supported by shmpi");
  EXPECT_GT(code, MPI_ERR_LASTCODE);
  EXPECT_EQ(error_class_of(code), MPI_ERR_UNSUPPORTED_OPERATION);
  EXPECT_EQ(error_string(code), "MPI_File_open is not supported by shmpi");
}

TEST(ErrorCode, SameMessageAndClassGiveSameCode) {
  const std::string message = "errors_test: interned once";
  const int first = make_error_code(MPI_ERR_ARG, message.c_str());
  const int second = make_error_code(MPI_ERR_ARG, std::string_view(message));
  EXPECT_EQ(first, second);
}

TEST(ErrorCode, SameMessageWithOtherClassKeepsEachClass) {
  for (const int mpi_class : kTestClasses) {
    const int code = make_error_code(mpi_class, "errors_test: shared message");
    EXPECT_EQ(error_class_of(code), mpi_class);
    EXPECT_EQ(error_string(code), "errors_test: shared message");
  }
}

TEST(ErrorCode, EmptyOrNullMessageGivesTheClass) {
  EXPECT_EQ(make_error_code(MPI_ERR_COMM, ""), MPI_ERR_COMM);
  EXPECT_EQ(make_error_code(MPI_ERR_COMM, static_cast<const char*>(nullptr)),
            MPI_ERR_COMM);
}

TEST(ErrorCode, SuccessAndToolClassesCarryNoMessage) {
  EXPECT_EQ(make_error_code(MPI_SUCCESS, "ignored"), MPI_SUCCESS);
  EXPECT_EQ(make_error_code(MPI_T_ERR_INVALID_INDEX, "ignored"),
            MPI_T_ERR_INVALID_INDEX);
}

TEST(ErrorCode, CodeWithUnusedDetailIndexIsInvalid) {
  // Index far beyond anything interned in this process.
  const int code =
      MPI_ERR_ARG + kDetailRadix * (kFirstDetailIndex + kMaxDetailMessages - 1);
  EXPECT_EQ(error_class_of(code), -1);
  EXPECT_TRUE(error_string(code).empty());
}

TEST(ErrorCode, ConcurrentInterningAgrees) {
  constexpr int kThreads = 4;
  constexpr int kMessages = 200;
  std::vector<std::vector<int>> codes(kThreads, std::vector<int>(kMessages));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &codes] {
      for (int i = 0; i < kMessages; ++i) {
        const std::string message =
            "errors_test: concurrent " + std::to_string(i);
        codes[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)] =
            make_error_code(MPI_ERR_OTHER, message.c_str());
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (int i = 0; i < kMessages; ++i) {
    const int code = codes[0][static_cast<std::size_t>(i)];
    EXPECT_EQ(error_string(code),
              "errors_test: concurrent " + std::to_string(i));
    for (int t = 1; t < kThreads; ++t) {
      EXPECT_EQ(codes[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)],
                code);
    }
  }
}

TEST(UserCodes, ClassesCodesAndStrings) {
  const int first_last = last_used_code();
  EXPECT_GE(first_last, kFirstUserCode - 1);
  int mpi_class = -1;
  ASSERT_EQ(add_error_class(&mpi_class), MPI_SUCCESS);
  EXPECT_GT(mpi_class, first_last);
  EXPECT_EQ(last_used_code(), mpi_class);
  EXPECT_EQ(error_class_of(mpi_class), mpi_class);
  EXPECT_FALSE(is_predefined_class(mpi_class));
  // No string yet: empty, but a valid class.
  EXPECT_EQ(error_string(mpi_class), "");

  int code = -1;
  ASSERT_EQ(add_error_code(mpi_class, &code), MPI_SUCCESS);
  EXPECT_EQ(last_used_code(), code);
  EXPECT_EQ(error_class_of(code), mpi_class);
  int of_predefined = -1;
  ASSERT_EQ(add_error_code(MPI_ERR_TAG, &of_predefined), MPI_SUCCESS);
  EXPECT_EQ(error_class_of(of_predefined), MPI_ERR_TAG);

  // Codes are not classes, and nothing else is.
  int unused = -1;
  EXPECT_EQ(add_error_code(code, &unused), MPI_ERR_ARG);
  EXPECT_EQ(add_error_code(last_used_code() + 1, &unused), MPI_ERR_ARG);
  EXPECT_EQ(add_error_code(-3, &unused), MPI_ERR_ARG);
  EXPECT_EQ(
      add_error_code(make_error_code(MPI_ERR_TAG, "errors_test: x"), &unused),
      MPI_ERR_ARG);
  EXPECT_EQ(unused, -1);
  EXPECT_EQ(error_class_of(last_used_code() + 1), -1);

  // Strings: set, replaced; an earlier view stays readable.
  ASSERT_EQ(add_error_string(code, "first"), MPI_SUCCESS);
  const std::string_view first = error_string(code);
  ASSERT_EQ(add_error_string(code, "second"), MPI_SUCCESS);
  EXPECT_EQ(first, "first");
  EXPECT_EQ(error_string(code), "second");
  EXPECT_EQ(error_string(mpi_class), "");
  ASSERT_EQ(add_error_string(mpi_class, "the class"), MPI_SUCCESS);
  EXPECT_EQ(error_string(mpi_class), "the class");
  EXPECT_EQ(add_error_string(last_used_code() + 1, "none"), MPI_ERR_ARG);
  EXPECT_EQ(add_error_string(MPI_ERR_TAG, "predefined"), MPI_ERR_ARG);
}

TEST(UserCodes, AboveEveryCodeWithAMessage) {
  // The largest code make_error_code can return, message index and class
  // both at their maximum, lies below the first added one.
  static_assert((kFirstDetailIndex + kMaxDetailMessages - 1) * kDetailRadix +
                    kDetailRadix - 1 <
                kFirstUserCode);
  EXPECT_EQ(error_class_of(kFirstUserCode - 1), -1);
}

TEST(CopyString, CutsAndTerminates) {
  char buffer[6];
  EXPECT_EQ(copy_string("hello world", buffer, sizeof buffer), 5);
  EXPECT_STREQ(buffer, "hello");
  EXPECT_EQ(copy_string("hi", buffer, sizeof buffer), 2);
  EXPECT_STREQ(buffer, "hi");
  EXPECT_EQ(copy_string("", buffer, sizeof buffer), 0);
  EXPECT_STREQ(buffer, "");
  // The string of an added code without one: a view with no data pointer
  // (UndefinedBehaviorSanitizer flags memcpy from it).
  EXPECT_EQ(copy_string(std::string_view(), buffer, sizeof buffer), 0);
  EXPECT_STREQ(buffer, "");
}

}  // namespace
}  // namespace shmpi::mpi
