// SPDX-License-Identifier: MIT
// MPI_Comm_spawn and MPI_Comm_spawn_multiple (MPI 4.0 §11.3;
// docs/design.md#spawn). The root writes a request into the shared heap
// and hands its offset to shmpirun down the job's spawn pipe; shmpirun
// forks the processes into free slots as a new process group and answers
// in the request. The root tells its group, and both groups build the
// intercommunicator as MPI_Comm_accept and MPI_Comm_connect do.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "mpi/coll_common.hpp"
#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/lpid_table.hpp"
#include "mpi/port_connect.hpp"
#include "mpi/spawn.hpp"
#include "runtime/world_barrier.hpp"
#include "scratch/block_pool.hpp"
#include "segment/shared_heap.hpp"
#include "segment/spawn_request.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
using segment::SpawnCommand;
using segment::SpawnRequest;

namespace shmpi::mpi::spawn {

std::string connection_tag(std::uint32_t pg) {
  return "shmpi-spawn:" + std::to_string(pg);
}

int connect_to_parents(MpiState& s, const char** why) {
  const runtime::WorldInfo& world = s.runtime->world();
  std::vector<lpid::Gpid> parents;
  parents.reserve(world.parent_gpids.size());
  for (std::uint64_t packed : world.parent_gpids) {
    parents.push_back(lpid::unpack(packed));
  }
  Comm* created = nullptr;
  if (int rc = ports::connect_groups(s.world, 0, parents, world.parent_root,
                                     connection_tag(world.pg), &created, why);
      rc != MPI_SUCCESS) {
    return rc;
  }
  created->name = "MPI_COMM_PARENT";  // as MPICH names it
  s.parent = created->handle;
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi::spawn

namespace {

// What the root learned and tells its group.
struct Outcome {
  std::int32_t status = MPI_SUCCESS;  // or the class every member raises
  std::int32_t commands = 0;          // entries of the counts that follow
  std::uint32_t procs = 0;            // processes started
  std::uint32_t pg = 0;               // their process group
  char message[SpawnRequest::kMessageBytes] = {};
};

// Per command: maxprocs and how many started (the errcodes' layout).
struct CommandCount {
  std::int32_t maxprocs;
  std::int32_t started;
};

void set_message(Outcome* out, int status, const std::string& text) {
  out->status = status;
  std::snprintf(out->message, sizeof out->message, "%s", text.c_str());
}

// The root's arguments (significant only there) as the launcher's
// commands; MPI_SUCCESS or a class with out->message set.
int build_commands(int count, const char* const commands[],
                   char** const argvs[], const int maxprocs[],
                   const MPI_Info infos[], std::vector<SpawnCommand>* built,
                   Outcome* out) {
  if (count <= 0) {
    set_message(out, MPI_ERR_ARG,
                "count must be positive (got " + std::to_string(count) + ")");
    return out->status;
  }
  if (commands == nullptr || maxprocs == nullptr) {
    set_message(out, MPI_ERR_ARG, "NULL array argument at the root");
    return out->status;
  }
  std::int64_t total = 0;
  for (int i = 0; i < count; ++i) {
    const std::string which =
        count == 1 ? std::string() : " (command " + std::to_string(i) + ")";
    SpawnCommand c;
    if (commands[i] == nullptr || commands[i][0] == '\0') {
      set_message(out, MPI_ERR_ARG, "the command is NULL or empty" + which);
      return out->status;
    }
    if (maxprocs[i] < 0 || (count == 1 && maxprocs[i] == 0)) {
      set_message(out, MPI_ERR_ARG,
                  "maxprocs must be positive (got " +
                      std::to_string(maxprocs[i]) + ")" + which);
      return out->status;
    }
    c.maxprocs = static_cast<std::uint32_t>(maxprocs[i]);
    total += maxprocs[i];
    c.argv.emplace_back(commands[i]);
    if (argvs != nullptr && argvs[i] != nullptr) {
      for (char** word = argvs[i]; *word != nullptr; ++word) {
        c.argv.emplace_back(*word);
      }
    }
    const MPI_Info info = infos != nullptr ? infos[i] : MPI_INFO_NULL;
    const Info* object = find_info(info);
    if (info != MPI_INFO_NULL && object == nullptr) {
      set_message(out, MPI_ERR_INFO, "invalid info handle" + which);
      return out->status;
    }
    // The reserved keys of §11.3.4 that mean something on one machine;
    // "host", "arch" and "file" are ignored, as the standard allows.
    if (object != nullptr) {
      if (const std::string* wdir = object->find("wdir")) {
        c.wdir = *wdir;
      }
      if (const std::string* path = object->find("path")) {
        c.path = *path;
      }
      if (const std::string* soft = object->find("soft")) {
        auto allowed = segment::parse_soft(*soft, c.maxprocs);
        if (!allowed) {
          set_message(out, MPI_ERR_INFO_VALUE,
                      "info key \"soft\": \"" + soft->substr(0, 64) +
                          "\" is not a list of counts from 0 to maxprocs" +
                          which);
          return out->status;
        }
        c.allowed = std::move(allowed.value());
      }
    }
    built->push_back(std::move(c));
  }
  if (total == 0) {
    set_message(out, MPI_ERR_ARG, "no process to spawn (maxprocs are all 0)");
    return out->status;
  }
  return MPI_SUCCESS;
}

// The root's part: ask shmpirun and wait for its answer.
void spawn_at_root(const Comm& c, int root,
                   const std::vector<SpawnCommand>& commands, Outcome* out,
                   std::vector<CommandCount>* counts) {
  const char* fd_text = std::getenv("SHMPI_SPAWN_FD");
  const segment::Segment& segment = state().runtime->segment();
  if (fd_text == nullptr || segment.header().launcher_pid == 0) {
    set_message(out, MPI_ERR_SPAWN,
                "this process was not started by shmpirun, which is what "
                "starts new processes");
    return;
  }
  const int spawn_fd = std::atoi(fd_text);
  // The fewest processes the request can start with ("soft" allows fewer
  // than maxprocs) must fit in the job, and the new world's block holds
  // at most the job's slots.
  const std::uint32_t capacity = segment.layout().config.capacity;
  std::uint64_t total = 0;
  std::uint64_t fewest = 0;
  for (const SpawnCommand& command : commands) {
    total += command.maxprocs;
    fewest +=
        command.allowed.empty() ? command.maxprocs : command.allowed.front();
  }
  if (fewest > capacity) {
    set_message(out, MPI_ERR_SPAWN,
                std::to_string(fewest) +
                    " process(es) asked for, more than the job's " +
                    std::to_string(capacity) +
                    " slots (shmpirun --universe-size sets them)");
    return;
  }
  const auto members =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(total, capacity));
  const std::vector<lpid::Gpid> parents = gpids_of(c.lpids).gpids;
  const std::vector<std::byte> encoded =
      segment::encode_spawn_commands(commands);
  segment::SharedHeap& heap = segment.heap();
  // The new world's collective block and start-up barrier: made here, so
  // the new processes find them ready; they live as long as that world.
  scratch::CommBlock* block = block_pool().acquire(members, members);
  void* barrier_memory = heap.allocate_aligned(
      sizeof(runtime::WorldBarrierBlock), kFalseSharingRange);
  void* memory = heap.allocate_aligned(
      SpawnRequest::bytes_for(parents.size(), encoded.size(), commands.size()),
      kFalseSharingRange);
  if (block == nullptr || barrier_memory == nullptr || memory == nullptr) {
    if (block != nullptr) {
      block_pool().release(block);
    }
    heap.deallocate(barrier_memory);
    heap.deallocate(memory);
    set_message(out, MPI_ERR_NO_MEM,
                "the shared heap has no room for the spawn request");
    return;
  }
  auto* barrier = new (barrier_memory) runtime::WorldBarrierBlock{};
  auto* request = new (memory) SpawnRequest{};
  request->magic = SpawnRequest::kMagic;
  request->commands_bytes = encoded.size();
  request->requester_slot = state().runtime->world().slot;
  request->parent_size = static_cast<std::uint32_t>(parents.size());
  request->parent_root = root;
  request->world_block = block_pool().offset_of(block);
  request->world_barrier = segment.offset_of(barrier);
  request->command_count = static_cast<std::uint32_t>(commands.size());
  for (std::size_t i = 0; i < parents.size(); ++i) {
    request->parent_gpids()[i] = lpid::pack(parents[i]);
  }
  std::memcpy(request->commands(), encoded.data(), encoded.size());
  // Relaxed: the pipe write below publishes the whole block to the
  // launcher (a system call), and the launcher's release to the others.
  request->references.store(1, std::memory_order_relaxed);
  const std::uint64_t offset = segment.offset_of(request);
  ssize_t written = 0;
  do {
    written = ::write(spawn_fd, &offset, sizeof offset);
  } while (written < 0 && errno == EINTR);
  if (written != static_cast<ssize_t>(sizeof offset)) {
    set_message(out, MPI_ERR_SPAWN,
                std::string("cannot reach shmpirun: ") + std::strerror(errno));
  } else {
    // Acquire: pairs with the launcher's release of the answer.
    state().engine->wait_until([request] {
      return request->state.load(std::memory_order_acquire) ==
             static_cast<std::uint32_t>(segment::SpawnState::kDone);
    });
    if (request->error !=
        static_cast<std::int32_t>(segment::SpawnError::kNone)) {
      set_message(out, MPI_ERR_SPAWN, request->message);
    } else {
      out->procs = request->procs;
      out->pg = request->pg;
      for (std::size_t i = 0; i < commands.size(); ++i) {
        (*counts)[i].started = static_cast<std::int32_t>(request->started()[i]);
      }
    }
  }
  if (out->status != MPI_SUCCESS) {
    block_pool().release(block);
    heap.deallocate(barrier_memory);
  }
  // acq_rel: as the new processes' drops (runtime.cpp); the last frees.
  if (request->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    request->~SpawnRequest();
    heap.deallocate(memory);
  }
}

int spawn_common(int count, const char* const commands[], char** const argvs[],
                 const int maxprocs[], const MPI_Info infos[], int root,
                 MPI_Comm comm, MPI_Comm* intercomm, int errcodes[],
                 const char* fn) {
  Comm* c = nullptr;
  if (int rc =
          ports::check_rooted_call(comm, root, intercomm, "intercomm", &c, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  Outcome out;
  std::vector<CommandCount> counts;
  if (c->rank == root) {
    std::vector<SpawnCommand> built;
    if (build_commands(count, commands, argvs, maxprocs, infos, &built, &out) ==
        MPI_SUCCESS) {
      for (const SpawnCommand& command : built) {
        counts.push_back({static_cast<std::int32_t>(command.maxprocs), 0});
      }
      spawn_at_root(*c, root, built, &out, &counts);
    }
    out.commands = static_cast<std::int32_t>(counts.size());
  }
  coll::bcast_tree(c, &out, sizeof out, root);
  counts.resize(static_cast<std::size_t>(out.commands));
  if (!counts.empty()) {  // none when the root's arguments were refused
    coll::bcast_tree(c, counts.data(), counts.size() * sizeof(CommandCount),
                     root);
  }
  if (errcodes != MPI_ERRCODES_IGNORE) {
    // One code per process asked for, command after command (§11.3.3).
    std::size_t at = 0;
    for (const CommandCount& command : counts) {
      for (std::int32_t k = 0; k < command.maxprocs; ++k) {
        errcodes[at++] = out.status == MPI_SUCCESS && k < command.started
                             ? MPI_SUCCESS
                             : MPI_ERR_SPAWN;
      }
    }
  }
  if (out.status != MPI_SUCCESS) {
    *intercomm = MPI_COMM_NULL;
    return fail(c, out.status, fn, "%s", out.message);
  }
  std::vector<lpid::Gpid> children(out.procs);
  for (std::uint32_t r = 0; r < out.procs; ++r) {
    children[r] = lpid::Gpid{out.pg, r};
  }
  Comm* created = nullptr;
  const char* why = "";
  if (int rc = ports::connect_groups(
          *c, root, children, 0, spawn::connection_tag(out.pg), &created, &why);
      rc != MPI_SUCCESS) {
    *intercomm = MPI_COMM_NULL;
    return fail_static(c, rc, fn, why);
  }
  *intercomm = created->handle;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Comm_spawn(const char* command, char* argv[], int maxprocs,
                               MPI_Info info, int root, MPI_Comm comm,
                               MPI_Comm* intercomm,
                               int array_of_errcodes[]) noexcept {
  char** const argvs[] = {argv};
  return spawn_common(1, &command, argvs, &maxprocs, &info, root, comm,
                      intercomm, array_of_errcodes, "MPI_Comm_spawn");
}
SHMPI_PMPI_ALIAS(MPI_Comm_spawn);

extern "C" int PMPI_Comm_spawn_multiple(
    int count, char* array_of_commands[], char** array_of_argv[],
    const int array_of_maxprocs[], const MPI_Info array_of_info[], int root,
    MPI_Comm comm, MPI_Comm* intercomm, int array_of_errcodes[]) noexcept {
  return spawn_common(count, array_of_commands, array_of_argv,
                      array_of_maxprocs, array_of_info, root, comm, intercomm,
                      array_of_errcodes, "MPI_Comm_spawn_multiple");
}
SHMPI_PMPI_ALIAS(MPI_Comm_spawn_multiple);
