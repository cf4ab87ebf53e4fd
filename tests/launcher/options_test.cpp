// SPDX-License-Identifier: MIT
// shmpirun's command line: every option, and one test per kind of bad input.
#include "launcher/options.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

namespace shmpi::launcher {
namespace {

ParseResult parse(std::initializer_list<const char*> words) {
  std::vector<const char*> argv{"shmpirun"};
  argv.insert(argv.end(), words.begin(), words.end());
  return parse_options(static_cast<int>(argv.size()), argv.data());
}

void expect_error(std::initializer_list<const char*> words,
                  const std::string& fragment) {
  ParseResult result = parse(words);
  EXPECT_EQ(result.kind, ParseResult::Kind::kError);
  EXPECT_NE(result.error.find(fragment), std::string::npos) << result.error;
}

TEST(ParseOptions, MinimalCommandLineUsesDefaults) {
  ParseResult result = parse({"-n", "4", "./ring"});
  ASSERT_EQ(result.kind, ParseResult::Kind::kRun) << result.error;
  const Options& options = result.options;
  EXPECT_EQ(options.nranks, 4U);
  EXPECT_EQ(options.universe_size, 4U + kDefaultSpareSlots);
  EXPECT_EQ(options.bind, topo::BindPolicy::kCore);
  EXPECT_FALSE(options.tag_output);
  EXPECT_FALSE(options.timeout_s.has_value());
  EXPECT_EQ(options.command, std::vector<std::string>{"./ring"});
}

TEST(ParseOptions, RankCountSpellings) {
  for (auto words : {std::initializer_list<const char*>{"-np", "3", "prog"},
                     std::initializer_list<const char*>{"-n3", "prog"},
                     std::initializer_list<const char*>{"--np=3", "prog"},
                     std::initializer_list<const char*>{"--n", "3", "prog"}}) {
    ParseResult result = parse(words);
    ASSERT_EQ(result.kind, ParseResult::Kind::kRun) << result.error;
    EXPECT_EQ(result.options.nranks, 3U);
  }
}

TEST(ParseOptions, AllOptionsTogether) {
  ParseResult result =
      parse({"--bind-to", "numa", "--tag-output", "--timeout=2.5",
             "--universe-size", "8", "-n", "2", "prog", "-n", "--x"});
  ASSERT_EQ(result.kind, ParseResult::Kind::kRun) << result.error;
  const Options& options = result.options;
  EXPECT_EQ(options.bind, topo::BindPolicy::kNuma);
  EXPECT_TRUE(options.tag_output);
  ASSERT_TRUE(options.timeout_s.has_value());
  EXPECT_DOUBLE_EQ(*options.timeout_s, 2.5);
  EXPECT_EQ(options.timeout_text, "2.5");
  EXPECT_EQ(options.universe_size, 8U);
  EXPECT_EQ(options.nranks, 2U);
  // Everything after the program belongs to it, options or not.
  EXPECT_EQ(options.command, (std::vector<std::string>{"prog", "-n", "--x"}));
}

TEST(ParseOptions, BindPolicies) {
  EXPECT_EQ(parse({"--bind-to=core", "-n", "1", "p"}).options.bind,
            topo::BindPolicy::kCore);
  EXPECT_EQ(parse({"--bind-to", "none", "-n", "1", "p"}).options.bind,
            topo::BindPolicy::kNone);
}

TEST(ParseOptions, DoubleDashEndsOptions) {
  ParseResult result = parse({"-n", "1", "--", "--weird-program-name"});
  ASSERT_EQ(result.kind, ParseResult::Kind::kRun) << result.error;
  EXPECT_EQ(result.options.command,
            std::vector<std::string>{"--weird-program-name"});
}

TEST(ParseOptions, LastRepeatedOptionWins) {
  ParseResult result = parse({"-n", "2", "-n", "5", "p"});
  ASSERT_EQ(result.kind, ParseResult::Kind::kRun);
  EXPECT_EQ(result.options.nranks, 5U);
}

TEST(ParseOptions, HelpWinsOverEverythingElse) {
  EXPECT_EQ(parse({"--help"}).kind, ParseResult::Kind::kHelp);
  EXPECT_EQ(parse({"-n", "2", "-h"}).kind, ParseResult::Kind::kHelp);
}

TEST(ParseOptions, NoArgumentsIsAnError) { expect_error({}, "missing -n"); }

TEST(ParseOptions, MissingRankCountIsAnError) {
  expect_error({"prog"}, "missing -n");
}

TEST(ParseOptions, MissingProgramIsAnError) {
  expect_error({"-n", "2"}, "missing the program");
}

TEST(ParseOptions, MissingOptionValueIsAnError) {
  expect_error({"-n"}, "-n needs");
  expect_error({"--timeout"}, "--timeout needs");
  expect_error({"--bind-to"}, "--bind-to needs");
  expect_error({"--universe-size"}, "--universe-size needs");
}

TEST(ParseOptions, ZeroRanksIsAnError) {
  expect_error({"-n", "0", "p"}, "got '0'");
}

TEST(ParseOptions, NonNumericRanksIsAnError) {
  expect_error({"-n", "four", "p"}, "got 'four'");
  expect_error({"-n", "-1", "p"}, "got '-1'");
  expect_error({"-n", "2x", "p"}, "got '2x'");
}

TEST(ParseOptions, TooManyRanksIsAnError) {
  EXPECT_EQ(parse({"-n", "1024", "p"}).kind, ParseResult::Kind::kRun);
  expect_error({"-n", "1025", "p"}, "from 1 to 1024");
  expect_error({"-n", "99999999999", "p"}, "from 1 to 1024");
}

TEST(ParseOptions, UniverseSmallerThanRanksIsAnError) {
  expect_error({"--universe-size", "2", "-n", "4", "p"},
               "at least the number of ranks");
}

TEST(ParseOptions, UnknownBindPolicyIsAnError) {
  expect_error({"--bind-to", "socket", "-n", "1", "p"}, "got 'socket'");
}

TEST(ParseOptions, BadTimeoutIsAnError) {
  expect_error({"--timeout", "0", "-n", "1", "p"}, "positive");
  expect_error({"--timeout", "-3", "-n", "1", "p"}, "positive");
  expect_error({"--timeout", "soon", "-n", "1", "p"}, "got 'soon'");
  expect_error({"--timeout=inf", "-n", "1", "p"}, "got 'inf'");
}

TEST(ParseOptions, UnknownOptionIsAnError) {
  expect_error({"--frobnicate", "-n", "1", "p"},
               "unknown option '--frobnicate'");
  expect_error({"-x", "-n", "1", "p"}, "unknown option '-x'");
}

TEST(ParseOptions, FlagWithValueIsAnError) {
  expect_error({"--tag-output=yes", "-n", "1", "p"}, "takes no value");
}

TEST(ParseOptions, HeapSize) {
  ParseResult result = parse({"--heap-size", "1G", "-n", "2", "p"});
  ASSERT_EQ(result.kind, ParseResult::Kind::kRun) << result.error;
  EXPECT_EQ(result.options.heap_bytes, 1ULL << 30);
  EXPECT_EQ(parse({"-n", "2", "p"}).options.heap_bytes, 0U);
  EXPECT_EQ(parse({"--heap-size=64m", "-n", "2", "p"}).options.heap_bytes,
            64ULL << 20);
  EXPECT_EQ(parse_heap_size("4194304"), kMinHeapBytes);
  EXPECT_EQ(parse_heap_size("4096k"), kMinHeapBytes);
  EXPECT_EQ(parse_heap_size("1024G"), kMaxHeapBytes);
  for (const char* bad : {"", "G", "3M", "1025G", "1.5G", "-1G", "1T", "12x",
                          "99999999999999G", "4194303"}) {
    EXPECT_FALSE(parse_heap_size(bad).has_value()) << bad;
  }
  expect_error({"--heap-size"}, "--heap-size needs");
  expect_error({"--heap-size", "1M", "-n", "2", "p"}, "got '1M'");
  expect_error({"--heap-size", "lots", "-n", "2", "p"}, "from 4M to 1024G");
}

TEST(UsageText, NamesEveryOption) {
  std::string usage = usage_text();
  for (const char* option :
       {"-n", "-np", "--bind-to", "--tag-output", "--timeout",
        "--universe-size", "--heap-size", "SHMPI_HEAP_SIZE", "--help"}) {
    EXPECT_NE(usage.find(option), std::string::npos) << option;
  }
  EXPECT_EQ(usage.back(), '\n');
}

}  // namespace
}  // namespace shmpi::launcher
