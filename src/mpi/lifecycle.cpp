// SPDX-License-Identifier: MIT
// The runtime's users: the World Model (MPI_Init .. MPI_Finalize) and every
// open session. The first user starts the runtime, the last one ends it.
#include <mutex>

#include "mpi/bsend.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/session.hpp"
#include "partitioned/partitioned.hpp"
#include "runtime/runtime.hpp"

namespace shmpi::mpi {

namespace {

// MPI_Session_init and MPI_Session_finalize may run in several threads at
// once (MPI 4.0 §11.3.1), and with MPI_Init/MPI_Finalize in another.
std::mutex& users_mutex() {
  static std::mutex mutex;
  return mutex;
}
int users = 0;  // under users_mutex()

void release_orphan(p2p::Request* request) {
  if (request->user_object != nullptr) {
    bsend_release(request);
  }
  partitioned::release(*request);  // no-op for other requests
  state().requests.destroy(request);
}

// The MPI layer's part of the first start, once per process.
void set_up_state(runtime::Runtime* runtime, int level) {
  MpiState& s = state();
  s.runtime = runtime;
  s.engine = &s.runtime->engine();
  s.engine->set_orphan_handler(release_orphan);
  partitioned::install(*s.engine);
  const bool multiple = level == MPI_THREAD_MULTIPLE;
  s.requests.set_thread_safe(multiple);
  s.errhandlers.set_thread_safe(multiple);
  s.comms.set_thread_safe(multiple);
  s.thread_multiple = multiple;
  arbiter().set_thread_safe(multiple);
}

}  // namespace

int start_runtime(int required, int* provided, std::string* why) {
  std::lock_guard<std::mutex> guard(users_mutex());
  runtime::Runtime* runtime = runtime::Runtime::get();
  if (runtime == nullptr) {
    int level = required;
    if (level != MPI_THREAD_SINGLE && level != MPI_THREAD_FUNNELED &&
        level != MPI_THREAD_SERIALIZED && level != MPI_THREAD_MULTIPLE) {
      level = MPI_THREAD_SINGLE;
    }
    auto started =
        runtime::Runtime::initialize(level == MPI_THREAD_MULTIPLE, level);
    if (!started) {
      why->assign(started.error().what.data(), started.error().what.size());
      return MPI_ERR_OTHER;
    }
    runtime = started.value();
    set_up_state(runtime, level);
  } else if (users == 0) {
    runtime->resume();
  }
  ++users;
  // Release: pairs with initialized()'s acquire, so a thread that sees the
  // runtime running sees the state set up above.
  runtime::active().store(true, std::memory_order_release);
  if (provided != nullptr) {
    *provided = runtime->world().thread_level;
  }
  return MPI_SUCCESS;
}

void stop_runtime() {
  std::lock_guard<std::mutex> guard(users_mutex());
  if (--users > 0) {
    return;
  }
  bsend_flush();
  release_f90_types();
  // Relaxed: what a thread may do after seeing false is only to be told
  // MPI is not running; nothing it reads depends on this store's order.
  runtime::active().store(false, std::memory_order_relaxed);
  runtime::Runtime::get()->end();
}

}  // namespace shmpi::mpi
