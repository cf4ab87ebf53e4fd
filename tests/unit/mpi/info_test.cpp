// SPDX-License-Identifier: MIT
// Info objects (src/mpi/info.hpp) without the runtime: entry order and
// MPI_INFO_ENV.
#include "mpi/info.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace shmpi::mpi {
namespace {

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

}  // namespace
}  // namespace shmpi::mpi
