// SPDX-License-Identifier: MIT
// Environment functions that need no runtime: versions, processor name,
// timers, addresses and their arithmetic, and MPI_Pcontrol. All of them may
// be called before MPI_Init and after MPI_Finalize (MPI 4.0 section 11.2.1
// lists the first ones; the others touch no MPI state).
#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <string_view>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/errors.hpp"

namespace {

#define SHMPI_STRINGIFY_(x) #x
#define SHMPI_STRINGIFY(x) SHMPI_STRINGIFY_(x)
#define SHMPI_DOTTED(a, b) SHMPI_STRINGIFY(a) "." SHMPI_STRINGIFY(b)
#if defined(__clang__)
#define SHMPI_COMPILER "clang " __clang_version__
#else
#define SHMPI_COMPILER "gcc " __VERSION__
#endif

// "shmpi 0.1.0 (MPI 4.0, ...)": what MPI_Get_library_version returns.
constexpr std::string_view kLibraryVersion =
    "shmpi " SHMPI_DOTTED(SHMPI_VERSION_MAJOR, SHMPI_VERSION_MINOR) "." SHMPI_STRINGIFY(
        SHMPI_VERSION_PATCH) " (MPI " SHMPI_DOTTED(MPI_VERSION, MPI_SUBVERSION) "; "
                             "shared-memory runtime; MPI 5.0 standard-ABI handle values; "
                             "built with " SHMPI_COMPILER ")";
static_assert(kLibraryVersion.size() < MPI_MAX_LIBRARY_VERSION_STRING);

}  // namespace

extern "C" double PMPI_Wtime() noexcept {
  timespec now{};
  // CLOCK_MONOTONIC: never jumps with settimeofday or NTP steps, and it is
  // the same clock in every process of the machine, so times taken by
  // different ranks compare (MPI_WTIME_IS_GLOBAL can be true).
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) +
         static_cast<double>(now.tv_nsec) * 1e-9;
}
SHMPI_PMPI_ALIAS(MPI_Wtime);

extern "C" double PMPI_Wtick() noexcept {
  timespec resolution{};
  if (clock_getres(CLOCK_MONOTONIC, &resolution) != 0) {
    return 1e-9;
  }
  return static_cast<double>(resolution.tv_sec) +
         static_cast<double>(resolution.tv_nsec) * 1e-9;
}
SHMPI_PMPI_ALIAS(MPI_Wtick);

extern "C" int PMPI_Get_processor_name(char* name, int* resultlen) noexcept {
  if (name == nullptr || resultlen == nullptr) {
    return MPI_ERR_ARG;
  }
  char host[MPI_MAX_PROCESSOR_NAME + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0) {
    return shmpi::mpi::make_error_code(
        MPI_ERR_OTHER, "MPI_Get_processor_name: gethostname failed");
  }
  *resultlen = shmpi::mpi::copy_string(host, name, MPI_MAX_PROCESSOR_NAME);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Get_processor_name);

extern "C" int PMPI_Get_version(int* version, int* subversion) noexcept {
  if (version == nullptr || subversion == nullptr) {
    return MPI_ERR_ARG;
  }
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Get_version);

extern "C" int PMPI_Get_library_version(char* version,
                                        int* resultlen) noexcept {
  if (version == nullptr || resultlen == nullptr) {
    return MPI_ERR_ARG;
  }
  *resultlen = shmpi::mpi::copy_string(kLibraryVersion, version,
                                       MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Get_library_version);

// Address arithmetic is done on unsigned integers: it wraps instead of
// overflowing, and MPI_BOTTOM-relative addresses need not point into any
// one object, so pointer arithmetic would not be defined.
extern "C" MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) noexcept {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) +
                               static_cast<std::uintptr_t>(disp));
}
SHMPI_PMPI_ALIAS(MPI_Aint_add);

extern "C" MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) noexcept {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) -
                               static_cast<std::uintptr_t>(addr2));
}
SHMPI_PMPI_ALIAS(MPI_Aint_diff);

// MPI 4.0 section 5.1.5: the address of `location`, for displacements
// relative to MPI_BOTTOM or to another address (MPI_Type_create_struct).
// Addresses are flat here, so it is the pointer's value.
extern "C" int PMPI_Get_address(const void* location,
                                MPI_Aint* address) noexcept {
  if (address == nullptr) {
    return shmpi::mpi::fail(nullptr, MPI_ERR_ARG, "MPI_Get_address",
                            "address is NULL");
  }
  *address = static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(location));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Get_address);

// Profiling control: shmpi has no internal profiling to switch, and a
// profiling library interposes MPI_Pcontrol itself.
extern "C" int PMPI_Pcontrol(const int /*level*/, ...) noexcept {
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Pcontrol);
