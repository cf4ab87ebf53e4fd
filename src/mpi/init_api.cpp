// SPDX-License-Identifier: MIT
// Environment: init, finalize, abort, thread level, world/self queries,
// error handlers, shared-heap memory.
#include <mpi.h>
#include <pthread.h>

#include <cstring>
#include <string>

#include "base/log.hpp"
#include "mpi/bsend.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/errors.hpp"
#include "mpi/keyval.hpp"
#include "mpi/session.hpp"
#include "mpi/spawn.hpp"
#include "runtime/runtime.hpp"
#include "segment/shared_heap.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

pthread_t main_thread;

int init_common(int required, int* provided, const char* function) {
  if (runtime::lifecycle().load(std::memory_order_acquire) !=
      runtime::kNotInitialized) {
    base::log_error("%s: MPI is already %s", function,
                    runtime::lifecycle().load() == runtime::kFinalized
                        ? "finalized"
                        : "initialized");
    return MPI_ERR_OTHER;
  }
  std::string why;
  int level = MPI_THREAD_SINGLE;
  if (start_runtime(required, &level, &why) != MPI_SUCCESS) {
    base::log_error("%s: %s", function, why.c_str());
    ::_exit(1);
  }
  MpiState& s = state();
  init_predefined_comms(s, s.runtime->world());
  main_thread = pthread_self();
  // MPI_Init is collective over MPI_COMM_WORLD: every rank's engine is
  // prepared once it returns. Sessions never take part in this barrier, so
  // every rank calls it as often as the others.
  s.runtime->world_barrier();
  // Release: pairs with world_initialized()'s acquire; WORLD and SELF are
  // made.
  runtime::lifecycle().store(runtime::kInitialized, std::memory_order_release);
  if (!s.runtime->world().parent_gpids.empty()) {
    // Spawned: meet the parents, who wait in MPI_Comm_spawn (§11.3.2).
    const char* parent_why = "";
    if (spawn::connect_to_parents(s, &parent_why) != MPI_SUCCESS) {
      base::log_error("%s: cannot connect to the spawning processes: %s",
                      function, parent_why);
      ::_exit(1);
    }
  }
  if (provided != nullptr) {
    *provided = level;
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Init(int* /*argc*/, char*** /*argv*/) noexcept {
  return init_common(MPI_THREAD_SINGLE, nullptr, "MPI_Init");
}
SHMPI_PMPI_ALIAS(MPI_Init);

extern "C" int PMPI_Init_thread(int* /*argc*/, char*** /*argv*/, int required,
                                int* provided) noexcept {
  return init_common(required, provided, "MPI_Init_thread");
}
SHMPI_PMPI_ALIAS(MPI_Init_thread);

extern "C" int PMPI_Finalize(void) noexcept {
  if (!world_initialized()) {
    // With sessions open the runtime runs, but the World Model does not.
    base::log_error("MPI_Finalize called %s",
                    runtime::lifecycle().load() == runtime::kFinalized
                        ? "twice"
                        : "before MPI_Init");
    ::_exit(1);
  }
  // MPI 4.0: MPI_Finalize first frees MPI_COMM_SELF's attributes (delete
  // callbacks in reverse set order), before anything else is shut down.
  // MPI_COMM_WORLD's follow, as in MPICH. A failing callback is reported,
  // but the process still finalizes.
  int attributes_rc = delete_comm_attributes(state().self);
  if (int rc = delete_comm_attributes(state().world);
      attributes_rc == MPI_SUCCESS) {
    attributes_rc = rc;
  }
  if (attributes_rc != MPI_SUCCESS) {
    attributes_rc = raise_code(&state().self, attributes_rc, "MPI_Finalize");
  }
  bsend_flush();
  // Collective over MPI_COMM_WORLD, as MPI_Init.
  state().runtime->world_barrier();
  // Release: as in init_common (MPI_Finalized's readers).
  runtime::lifecycle().store(runtime::kFinalized, std::memory_order_release);
  // After the barrier, so no member still reads their blocks: the
  // sub-communicators the hierarchical collectives made of WORLD and SELF
  // give back their context IDs and blocks, and nothing of them is left
  // for a leak checker to report.
  destroy_numa_subcomms(state().world);
  destroy_numa_subcomms(state().self);
  // The runtime ends here unless a session is still open.
  stop_runtime();
  return attributes_rc;
}
SHMPI_PMPI_ALIAS(MPI_Finalize);

extern "C" int PMPI_Initialized(int* flag) noexcept {
  if (flag == nullptr) {
    return MPI_ERR_ARG;
  }
  *flag = runtime::lifecycle().load(std::memory_order_acquire) !=
          runtime::kNotInitialized;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Initialized);

extern "C" int PMPI_Finalized(int* flag) noexcept {
  if (flag == nullptr) {
    return MPI_ERR_ARG;
  }
  *flag = runtime::lifecycle().load(std::memory_order_acquire) ==
          runtime::kFinalized;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Finalized);

extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode) noexcept {
  runtime::Runtime* runtime = runtime::Runtime::get();
  const char* name = comm == MPI_COMM_WORLD  ? "MPI_COMM_WORLD"
                     : comm == MPI_COMM_SELF ? "MPI_COMM_SELF"
                                             : "comm";
  base::log_error(
      "rank %d called MPI_Abort(%s, %d): aborting the job",
      runtime != nullptr ? static_cast<int>(runtime->world().rank) : 0, name,
      errorcode);
  if (runtime != nullptr) {
    runtime->abort_job(errorcode);
  }
  ::_exit(errorcode & 0xff ? errorcode & 0xff : 1);
}
SHMPI_PMPI_ALIAS(MPI_Abort);

extern "C" int PMPI_Query_thread(int* provided) noexcept {
  if (int rc = check_initialized("MPI_Query_thread"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (provided == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Query_thread", "provided is NULL");
  }
  *provided = state().runtime->world().thread_level;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Query_thread);

extern "C" int PMPI_Is_thread_main(int* flag) noexcept {
  if (int rc = check_initialized("MPI_Is_thread_main"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Is_thread_main", "flag is NULL");
  }
  *flag = pthread_equal(pthread_self(), main_thread) != 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Is_thread_main);

extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, "MPI_Comm_rank"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (rank == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
  }
  *rank = c->rank;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_rank);

extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, "MPI_Comm_size"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
  }
  *size = c->size;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_size);

// ------------------------------------------------------------ error handlers

extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm,
                                        MPI_Errhandler errhandler) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, "MPI_Comm_set_errhandler");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (!is_errhandler(errhandler)) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_set_errhandler",
                "invalid error handler");
  }
  if (const Errhandler* user = state().errhandlers.find(errhandler);
      user != nullptr && user->function == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_set_errhandler",
                "the error handler was not made by "
                "MPI_Comm_create_errhandler");
  }
  retain_errhandler(errhandler);
  release_errhandler(c->errhandler);
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_set_errhandler);

extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm,
                                        MPI_Errhandler* errhandler) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, "MPI_Comm_get_errhandler");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (errhandler == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_get_errhandler",
                "errhandler is NULL");
  }
  retain_errhandler(c->errhandler);  // the program frees what it gets
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_get_errhandler);

extern "C" int PMPI_Comm_create_errhandler(
    MPI_Comm_errhandler_function* function,
    MPI_Errhandler* errhandler) noexcept {
  if (int rc = check_initialized("MPI_Comm_create_errhandler");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (function == nullptr || errhandler == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Comm_create_errhandler",
                "NULL argument");
  }
  Errhandler* created = state().errhandlers.create();
  if (created == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler",
                "out of handles");
  }
  created->function = function;
  *errhandler = reinterpret_cast<MPI_Errhandler>(
      created);  // NOLINT: handle is the object
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_create_errhandler);

extern "C" int PMPI_Errhandler_free(MPI_Errhandler* errhandler) noexcept {
  if (int rc = check_initialized("MPI_Errhandler_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (errhandler == nullptr || !is_errhandler(*errhandler)) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Errhandler_free",
                "invalid error handler");
  }
  release_errhandler(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Errhandler_free);

extern "C" int PMPI_Comm_call_errhandler(MPI_Comm comm,
                                         int errorcode) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, "MPI_Comm_call_errhandler");
      rc != MPI_SUCCESS) {
    return rc;
  }
  raise_code(c, errorcode, "MPI_Comm_call_errhandler");
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_call_errhandler);

// ------------------------------------------------------------ memory

extern "C" int PMPI_Alloc_mem(MPI_Aint size, MPI_Info /*info*/,
                              void* baseptr) noexcept {
  if (int rc = check_initialized("MPI_Alloc_mem"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (size < 0) {
    return fail(nullptr, MPI_ERR_SIZE, "MPI_Alloc_mem", "negative size %ld",
                static_cast<long>(size));
  }
  if (baseptr == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Alloc_mem", "baseptr is NULL");
  }
  const segment::Segment& segment = state().runtime->segment();
  void* memory = segment.heap().allocate(static_cast<std::size_t>(size));
  if (memory == nullptr) {
    return fail(
        nullptr, MPI_ERR_NO_MEM, "MPI_Alloc_mem",
        "the shared heap cannot hold %ld more bytes (shmpirun --heap-size)",
        static_cast<long>(size));
  }
  if (size > 0) {
    if (auto populated = segment.populate(segment.offset_of(memory),
                                          static_cast<std::size_t>(size));
        !populated) {
      segment.heap().deallocate(memory);
      return fail(nullptr, MPI_ERR_NO_MEM, "MPI_Alloc_mem", "out of memory");
    }
  }
  std::memcpy(baseptr, &memory, sizeof memory);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Alloc_mem);

extern "C" int PMPI_Free_mem(void* base) noexcept {
  if (int rc = check_initialized("MPI_Free_mem"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (base == nullptr) {
    return MPI_SUCCESS;
  }
  const segment::Segment& segment = state().runtime->segment();
  if (!segment.heap().owns(base)) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Free_mem",
                "%p was not allocated by MPI_Alloc_mem", base);
  }
  segment.heap().deallocate(base);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Free_mem);
