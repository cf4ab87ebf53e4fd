// SPDX-License-Identifier: MIT
// libshmpi exports every function of src/mpi/api/functions.txt twice: PMPI_X
// as a strong symbol and MPI_X as a weak alias of it (the profiling
// interface), plus the predefined attribute callbacks.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> listed_functions() {
  std::vector<std::string> names;
  std::ifstream file(SHMPI_FUNCTIONS_TXT);
  const std::regex declaration(
      R"(^[A-Za-z_][A-Za-z0-9_ ]*?\s+(MPI_[A-Za-z0-9_]+)\()");
  std::string line;
  while (std::getline(file, line)) {
    std::smatch match;
    if (std::regex_search(line, match, declaration)) {
      names.push_back(match[1]);
    }
  }
  return names;
}

// Symbol name -> nm type letter, for the dynamic symbols libshmpi defines.
std::map<std::string, char> exported_symbols() {
  std::map<std::string, char> symbols;
  const std::string command =
      "nm -D --defined-only '" SHMPI_LIBRARY_PATH "' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    return symbols;
  }
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    char type = 0;
    char name[400];
    if (std::sscanf(line, "%*s %c %399s", &type, name) == 2) {
      symbols[name] = type;
    }
  }
  pclose(pipe);
  return symbols;
}

TEST(Symbols, FunctionListIsComplete) {
  const std::vector<std::string> names = listed_functions();
  EXPECT_GE(names.size(), 600u) << "cannot read " << SHMPI_FUNCTIONS_TXT;
}

TEST(Symbols, EveryFunctionIsExportedAsWeakMpiAndStrongPmpi) {
  const std::map<std::string, char> symbols = exported_symbols();
  if (symbols.empty()) {
    GTEST_SKIP() << "nm -D gave no symbols for " << SHMPI_LIBRARY_PATH;
  }
  for (const std::string& name : listed_functions()) {
    const auto mpi = symbols.find(name);
    const auto pmpi = symbols.find("P" + name);
    ASSERT_NE(mpi, symbols.end()) << name << " is not exported";
    ASSERT_NE(pmpi, symbols.end()) << "P" << name << " is not exported";
    EXPECT_EQ(mpi->second, 'W')
        << name << " must be weak, so tools can interpose it";
    EXPECT_EQ(pmpi->second, 'T') << "P" << name;
  }
}

TEST(Symbols, PredefinedCallbacksAreExported) {
  const std::map<std::string, char> symbols = exported_symbols();
  if (symbols.empty()) {
    GTEST_SKIP() << "nm -D gave no symbols for " << SHMPI_LIBRARY_PATH;
  }
  for (const char* name :
       {"MPI_COMM_NULL_COPY_FN", "MPI_COMM_DUP_FN", "MPI_COMM_NULL_DELETE_FN",
        "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_DUP_FN", "MPI_TYPE_NULL_DELETE_FN",
        "MPI_WIN_NULL_COPY_FN", "MPI_WIN_DUP_FN", "MPI_WIN_NULL_DELETE_FN",
        "MPI_NULL_COPY_FN", "MPI_DUP_FN", "MPI_NULL_DELETE_FN"}) {
    EXPECT_EQ(symbols.count(name), 1u) << name;
  }
}

TEST(Symbols, MpiAndPmpiAreTheSameFunction) {
  for (const char* name :
       {"MPI_Wtime", "MPI_Error_string", "MPI_Send", "MPI_File_open"}) {
    void* mpi = dlsym(RTLD_DEFAULT, name);
    void* pmpi = dlsym(RTLD_DEFAULT, (std::string("P") + name).c_str());
    ASSERT_NE(mpi, nullptr) << name;
    EXPECT_EQ(mpi, pmpi) << name;
  }
}

}  // namespace
