// SPDX-License-Identifier: MIT
// Info objects and communicator hints (src/mpi/info.hpp) without the
// runtime: entry order, MPI_INFO_ENV, and the hints that
// MPI_Comm_set_info and MPI_Comm_dup_with_info keep.
#include "mpi/info.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace shmpi::mpi {
namespace {

using Hints = std::vector<std::pair<std::string, std::string>>;

TEST(Info, SetKeepsFirstSetOrderAndReplacesInPlace) {
  Info info;
  info.set("zeta", "1");
  info.set("alpha", "2");
  info.set("zeta", "3");
  EXPECT_EQ(info.entries, (InfoEntries{{"zeta", "3"}, {"alpha", "2"}}));
  ASSERT_NE(info.find("zeta"), nullptr);
  EXPECT_EQ(*info.find("zeta"), "3");
  EXPECT_EQ(info.find("ZETA"), nullptr) << "keys are case-sensitive";
  EXPECT_TRUE(info.erase("zeta"));
  EXPECT_FALSE(info.erase("zeta"));
  EXPECT_EQ(info.entries, (InfoEntries{{"alpha", "2"}}));
}

TEST(Info, HandlesRoundTripAndFreedObjectsAreInvalid) {
  Info* info = create_info();
  ASSERT_NE(info, nullptr);
  const MPI_Info handle = to_handle(info);
  EXPECT_EQ(find_info(handle), info);
  EXPECT_FALSE(is_env_info(info));
  destroy_info(info);
  EXPECT_EQ(find_info(handle), nullptr);
  EXPECT_EQ(find_info(MPI_INFO_NULL), nullptr);
}

TEST(Info, EnvIsPredefinedAndNeverDestroyed) {
  Info* env = find_info(MPI_INFO_ENV);
  ASSERT_NE(env, nullptr);
  EXPECT_TRUE(is_env_info(env));
  EXPECT_EQ(to_handle(env), MPI_INFO_ENV);
  destroy_info(env);  // a no-op
  EXPECT_EQ(find_info(MPI_INFO_ENV), env);
  EXPECT_NE(env->find("host"), nullptr);
}

TEST(Info, EnvironmentEntriesDescribeTheProcess) {
  char program[] = "/bin/prog";
  char first[] = "a";
  char second[] = "b c";
  char* argv[] = {program, first, second, nullptr};
  const InfoEntries entries = environment_entries(3, argv);
  Info info;
  info.entries = entries;
  ASSERT_NE(info.find("command"), nullptr);
  EXPECT_EQ(*info.find("command"), "/bin/prog");
  ASSERT_NE(info.find("argv"), nullptr);
  EXPECT_EQ(*info.find("argv"), "a b c");
  ASSERT_NE(info.find("maxprocs"), nullptr);
  EXPECT_EQ(*info.find("maxprocs"), "1") << "no launcher: a world of one";
  char host[HOST_NAME_MAX + 1] = {};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  ASSERT_NE(info.find("host"), nullptr);
  EXPECT_EQ(*info.find("host"), host);
  EXPECT_NE(info.find("arch"), nullptr);
  ASSERT_NE(info.find("wdir"), nullptr);
  char directory[PATH_MAX];
  ASSERT_NE(getcwd(directory, sizeof directory), nullptr);
  EXPECT_EQ(*info.find("wdir"), directory);
  EXPECT_EQ(info.find("soft"), nullptr);

  const InfoEntries no_arguments = environment_entries(1, argv);
  Info alone;
  alone.entries = no_arguments;
  EXPECT_EQ(alone.find("argv"), nullptr);
}

TEST(CommHints, OnlyTheFourAssertionsAreKept) {
  Info info;
  info.set("foo", "bar");
  info.set("mpi_assert_no_any_tag", "TRUE");
  info.set("mpi_assert_exact_length", "maybe");  // not a boolean: ignored
  info.set("mpi_assert_allow_overtaking", "false");
  Hints hints;
  merge_comm_hints(info, &hints);
  EXPECT_EQ(hints, (Hints{{"mpi_assert_no_any_tag", "true"},
                          {"mpi_assert_allow_overtaking", "false"}}));
}

TEST(CommHints, LaterSettingsReplaceEarlierOnes) {
  Hints hints{{"mpi_assert_no_any_tag", "true"}};
  Info info;
  info.set("mpi_assert_no_any_source", "true");
  info.set("mpi_assert_no_any_tag", "false");
  merge_comm_hints(info, &hints);
  EXPECT_EQ(hints, (Hints{{"mpi_assert_no_any_tag", "false"},
                          {"mpi_assert_no_any_source", "true"}}));
}

TEST(CommHints, InfoReportsAllFourWithFalseByDefault) {
  EXPECT_EQ(comm_info_entries({{"mpi_assert_exact_length", "true"}}),
            (InfoEntries{{"mpi_assert_no_any_tag", "false"},
                         {"mpi_assert_no_any_source", "false"},
                         {"mpi_assert_exact_length", "true"},
                         {"mpi_assert_allow_overtaking", "false"}}));
}

TEST(CommHints, FromInfoHandle) {
  Hints hints{{"stale", "x"}};
  EXPECT_EQ(hints_from_info(MPI_INFO_NULL, &hints), MPI_SUCCESS);
  EXPECT_TRUE(hints.empty());

  Info* info = create_info();
  ASSERT_NE(info, nullptr);
  info->set("mpi_assert_no_any_source", "true");
  info->set("unknown", "1");
  EXPECT_EQ(hints_from_info(to_handle(info), &hints), MPI_SUCCESS);
  EXPECT_EQ(hints, (Hints{{"mpi_assert_no_any_source", "true"}}));

  const MPI_Info freed = to_handle(info);
  destroy_info(info);
  EXPECT_EQ(hints_from_info(freed, &hints), MPI_ERR_INFO);
  EXPECT_EQ(hints, (Hints{{"mpi_assert_no_any_source", "true"}}))
      << "untouched on failure";
}

}  // namespace
}  // namespace shmpi::mpi
