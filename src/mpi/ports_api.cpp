// SPDX-License-Identifier: MIT
// MPI_Open_port, MPI_Close_port, MPI_Comm_accept and MPI_Comm_connect
// (MPI 4.0 §11.4.2) between groups of one shmpirun job
// (docs/design.md#ports): the connecting root queues a request on the
// port in the job's registry; an accepting root takes the oldest, writes
// its group's gpids into it and wakes the connecting root; each root tells
// its group; both groups then build the intercommunicator together.
#include <mpi.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/coll_common.hpp"
#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/lpid_table.hpp"
#include "mpi/port_connect.hpp"
#include "mpi/port_registry.hpp"
#include "segment/shared_heap.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
using namespace shmpi::mpi::ports;

namespace {

// What a root learned and tells its group.
struct Handshake {
  std::int32_t status;       // MPI_SUCCESS or the error class all raise
  std::int32_t remote_size;  // gpids that follow
  std::int32_t remote_root;  // the remote root's rank in its group
  std::int32_t pad;
  std::uint64_t connection;  // the job-wide serial of this connection
};

// What every member says about a failed handshake (a pointer to the
// root's own text would not be valid in the others: exec and ASLR).
const char* explain(int status) {
  switch (status) {
    case MPI_ERR_PORT:
      return "no port of that name is open in this job (or it was closed)";
    case MPI_ERR_INFO:
      return "invalid info handle at the root";
    case MPI_ERR_ARG:
      return "port_name is NULL at the root";
    case MPI_ERR_NO_MEM:
      return "the shared heap has no room for the port registry or request";
    default:
      return "the root failed";
  }
}

bool info_valid(MPI_Info info) {
  return info == MPI_INFO_NULL || find_info(info) != nullptr;
}

// The arguments only the root's are significant for; the result goes to
// every member through the handshake.
int check_root_args(const char* port_name, MPI_Info info) {
  if (port_name == nullptr) {
    return MPI_ERR_ARG;
  }
  if (!info_valid(info)) {
    return MPI_ERR_INFO;
  }
  return MPI_SUCCESS;
}

// The connecting root: queue a request on the port and wait for an
// accept. Fills `hs` and `remote` (the accepting group's gpids).
void connect_at_root(const Comm& lc, int root, const char* port_name,
                     Handshake* hs, std::vector<lpid::Gpid>* remote) {
  Registry* r = registry();
  const segment::Segment& segment = state().runtime->segment();
  const std::vector<lpid::Gpid> mine = gpids_of(lc.lpids).gpids;
  const std::size_t capacity = segment.layout().config.capacity;
  const std::size_t bytes =
      sizeof(ConnectRequest) + (mine.size() + capacity) * sizeof(lpid::Gpid);
  void* memory =
      r == nullptr ? nullptr
                   : segment.heap().allocate_aligned(bytes, kFalseSharingRange);
  if (memory == nullptr) {
    hs->status = MPI_ERR_NO_MEM;
    return;
  }
  auto* request = new (memory) ConnectRequest{};
  request->connector_slot = state().runtime->world().slot;
  request->connect_size = static_cast<std::int32_t>(mine.size());
  request->connect_root = root;
  std::memcpy(request->gpids(), mine.data(), mine.size() * sizeof(lpid::Gpid));
  std::int32_t waiter = -1;
  bool queued = false;
  {
    Lock lock(*r);
    if (PortEntry* port = find_port(*r, port_name)) {
      if (port->tail != 0) {
        at<ConnectRequest>(port->tail)->next = offset_of(request);
      } else {
        port->head = offset_of(request);
      }
      port->tail = offset_of(request);
      // Release: pairs with the waiting acceptor's acquire (it then takes
      // the mutex, which orders the queue itself).
      port->queued.fetch_add(1, std::memory_order_release);
      waiter = port->accept_waiter;
      queued = true;
    }
  }
  if (!queued) {
    segment.heap().deallocate(memory);
    hs->status = MPI_ERR_PORT;
    return;
  }
  if (waiter >= 0) {
    wake_slot(static_cast<std::uint32_t>(waiter));
  }
  // Acquire: pairs with the acceptor's (or MPI_Close_port's) release
  // store, after which the accept half is written.
  state().engine->wait_until([request] {
    return request->state.load(std::memory_order_acquire) != kQueued;
  });
  if (request->state.load(std::memory_order_acquire) == kRefused) {
    hs->status = MPI_ERR_PORT;
  } else {
    hs->remote_size = request->accept_size;
    hs->remote_root = request->accept_root;
    hs->connection = request->connection;
    const lpid::Gpid* theirs = request->gpids() + request->connect_size;
    remote->assign(theirs, theirs + request->accept_size);
  }
  request->~ConnectRequest();
  segment.heap().deallocate(memory);
}

// The accepting root: take the port's oldest connect, waiting for one.
void accept_at_root(const Comm& lc, int root, const char* port_name,
                    Handshake* hs, std::vector<lpid::Gpid>* remote) {
  Registry* r = registry();
  if (r == nullptr) {
    hs->status = MPI_ERR_NO_MEM;
    return;
  }
  const auto me = static_cast<std::int32_t>(state().runtime->world().slot);
  ConnectRequest* request = nullptr;
  for (;;) {
    PortEntry* port = nullptr;
    std::uint32_t closes = 0;
    {
      Lock lock(*r);
      port = find_port(*r, port_name);
      if (port == nullptr) {
        hs->status = MPI_ERR_PORT;
        return;
      }
      if (port->head != 0) {
        request = at<ConnectRequest>(port->head);
        port->head = request->next;
        if (port->head == 0) {
          port->tail = 0;
        }
        // Relaxed: under the mutex, which a later acceptor takes too.
        port->queued.fetch_sub(1, std::memory_order_relaxed);
        if (port->accept_waiter == me) {
          port->accept_waiter = -1;
        }
        hs->connection = r->next_connection++;
        break;
      }
      port->accept_waiter = me;
      // Relaxed: under the mutex, as every change of it.
      closes = port->closes.load(std::memory_order_relaxed);
    }
    // Port entries live as long as the registry, so reading one that was
    // closed meanwhile is safe. Acquire: pairs with the connecting root's
    // release increment (or the closer's); the mutex is taken again.
    state().engine->wait_until([port, closes] {
      return port->queued.load(std::memory_order_acquire) != 0 ||
             port->closes.load(std::memory_order_acquire) != closes;
    });
  }
  const std::vector<lpid::Gpid> mine = gpids_of(lc.lpids).gpids;
  const lpid::Gpid* theirs = request->gpids();
  remote->assign(theirs, theirs + request->connect_size);
  hs->remote_size = request->connect_size;
  hs->remote_root = request->connect_root;
  std::memcpy(request->gpids() + request->connect_size, mine.data(),
              mine.size() * sizeof(lpid::Gpid));
  request->accept_size = static_cast<std::int32_t>(mine.size());
  request->accept_root = root;
  request->connection = hs->connection;
  const std::uint32_t connector = request->connector_slot;
  // Release: pairs with the connecting root's acquire; publishes the
  // accept half. The request is the connector's to free from here on.
  request->state.store(kAccepted, std::memory_order_release);
  wake_slot(connector);
}

// Empties and frees a port entry (under the mutex): the queued requests
// go to `refused`, the waiting acceptor's slot to `waiter`.
void close_entry(PortEntry& port, std::vector<ConnectRequest*>* refused,
                 std::int32_t* waiter) {
  for (std::uint64_t o = port.head; o != 0;) {
    auto* request = at<ConnectRequest>(o);
    o = request->next;
    refused->push_back(request);
  }
  port.name[0] = '\0';
  port.head = port.tail = 0;
  // Relaxed: under the mutex; waiters look at `closes`.
  port.queued.store(0, std::memory_order_relaxed);
  // Release: pairs with a waiting acceptor's acquire.
  port.closes.fetch_add(1, std::memory_order_release);
  *waiter = port.accept_waiter;
  port.accept_waiter = -1;
}

using RootStep = void (*)(const Comm&, int, const char*, Handshake*,
                          std::vector<lpid::Gpid>*);

// MPI_Comm_accept and MPI_Comm_connect: the same but for the root's step.
int accept_or_connect(const char* port_name, MPI_Info info, int root,
                      MPI_Comm comm, MPI_Comm* newcomm, RootStep step,
                      const char* fn) {
  Comm* lc = nullptr;
  if (int rc = check_rooted_call(comm, root, newcomm, "newcomm", &lc, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  Handshake hs{MPI_SUCCESS, 0, 0, 0, 0};
  std::vector<lpid::Gpid> remote;
  if (lc->rank == root) {
    hs.status = check_root_args(port_name, info);
    if (hs.status == MPI_SUCCESS) {
      step(*lc, root, port_name, &hs, &remote);
    }
  }
  coll::bcast_tree(lc, &hs, sizeof hs, root);
  if (hs.status != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail_static(lc, hs.status, fn, explain(hs.status));
  }
  remote.resize(static_cast<std::size_t>(hs.remote_size));
  coll::bcast_tree(lc, remote.data(), remote.size() * sizeof(lpid::Gpid), root);
  const std::string tag = "shmpi-connect:" + std::to_string(hs.connection);
  Comm* created = nullptr;
  const char* why = "";
  if (int rc = connect_groups(*lc, root, remote, hs.remote_root, tag, &created,
                              &why);
      rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail_static(lc, rc, fn, why);
  }
  *newcomm = created->handle;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Open_port(MPI_Info info, char* port_name) noexcept {
  constexpr const char* kFn = "MPI_Open_port";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!info_valid(info)) {
    return fail(nullptr, MPI_ERR_INFO, kFn, "invalid info handle %p",
                static_cast<void*>(info));
  }
  if (port_name == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFn, "port_name is NULL");
  }
  Registry* r = registry();
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFn,
                "the shared heap has no room for the port registry");
  }
  const std::uint64_t job = state().runtime->segment().header().job_id;
  {
    Lock lock(*r);
    for (PortEntry& port : r->ports) {
      if (port.name[0] == '\0') {
        std::snprintf(port.name, sizeof port.name,
                      "shmpi-port:%016" PRIx64 ":%" PRIu64, job,
                      r->next_port_serial++);
        port.head = port.tail = 0;
        port.accept_waiter = -1;
        std::strcpy(port_name, port.name);  // shorter than MPI_MAX_PORT_NAME
        return MPI_SUCCESS;
      }
    }
  }
  return fail(nullptr, MPI_ERR_OTHER, kFn,
              "too many open ports in this job (at most %u)", kMaxPorts);
}
SHMPI_PMPI_ALIAS(MPI_Open_port);

extern "C" int PMPI_Close_port(const char* port_name) noexcept {
  constexpr const char* kFn = "MPI_Close_port";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (port_name == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFn, "port_name is NULL");
  }
  Registry* r = registry();
  std::vector<ConnectRequest*> refused;
  std::int32_t waiter = -1;
  bool found = false;
  if (r != nullptr) {
    Lock lock(*r);
    PortEntry* port = find_port(*r, port_name);
    found = port != nullptr;
    if (found) {
      close_entry(*port, &refused, &waiter);
    }
  }
  if (!found) {
    return fail(nullptr, MPI_ERR_PORT, kFn,
                "no port named \"%.64s\" is open in this job", port_name);
  }
  for (ConnectRequest* request : refused) {
    const std::uint32_t connector = request->connector_slot;
    // Release: pairs with the connecting root's acquire; from here on the
    // request is its to free.
    request->state.store(kRefused, std::memory_order_release);
    wake_slot(connector);
  }
  if (waiter >= 0) {
    wake_slot(static_cast<std::uint32_t>(waiter));
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Close_port);

extern "C" int PMPI_Comm_accept(const char* port_name, MPI_Info info, int root,
                                MPI_Comm comm, MPI_Comm* newcomm) noexcept {
  return accept_or_connect(port_name, info, root, comm, newcomm, accept_at_root,
                           "MPI_Comm_accept");
}
SHMPI_PMPI_ALIAS(MPI_Comm_accept);

extern "C" int PMPI_Comm_connect(const char* port_name, MPI_Info info, int root,
                                 MPI_Comm comm, MPI_Comm* newcomm) noexcept {
  return accept_or_connect(port_name, info, root, comm, newcomm,
                           connect_at_root, "MPI_Comm_connect");
}
SHMPI_PMPI_ALIAS(MPI_Comm_connect);
