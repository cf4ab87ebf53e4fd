// SPDX-License-Identifier: MIT
// The collective entry points, with int and large (_c) counts: argument
// checks in the standard's order, then the algorithm of src/coll as a
// coroutine, run to the end here (blocking forms) or from the progress
// engine (nonblocking forms, one request each; persistent forms at every
// MPI_Start). Collectives on one communicator run in the order they were
// called or started, with MPI_Comm_idup in the same queue (tickets).
//
// Intercommunicators: every collective but scan and exscan, in every
// form, runs the coroutines of coll_inter.hpp (point-to-point
// between and within the groups); MPI_IN_PLACE is MPI_ERR_BUFFER there,
// as in MPICH.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "coll/intra.hpp"
#include "coll/numa.hpp"
#include "coll/rounds.hpp"
#include "coll/task.hpp"
#include "mpi/coll_args.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/coll_inter.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/count_forms.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/engine.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
namespace algo = shmpi::coll;  // the scratch-block algorithms

namespace {

using datatype::Blocks;
using datatype::Layout;
// Per-member argument arrays built for a call: inline up to 8 members.
template <typename T>
using ArgArray = boost::container::small_vector<T, 8>;

int check_root(Comm* c, int root, const char* function) {
  const bool valid = c->is_inter ? (root == MPI_ROOT || root == MPI_PROC_NULL ||
                                    (root >= 0 && root < c->remote_size))
                                 : (root >= 0 && root < c->size);
  if (!valid) {
    return fail(c, MPI_ERR_ROOT, function, "invalid root %d (%s size %d)", root,
                c->is_inter ? "remote group" : "communicator", c->peer_count());
  }
  return MPI_SUCCESS;
}

// n blocks of `count` elements each, back to back from `buffer`.
Blocks uniform_blocks(const TypeArg& type, const void* buffer, MPI_Count count,
                      int n) {
  Blocks blocks;
  blocks.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    blocks.push_back(block(type, buffer, count, i * count));
  }
  return blocks;
}

int size_mismatch(Comm* c, std::size_t sent, std::size_t expected,
                  const char* function) {
  return fail(c, MPI_ERR_TRUNCATE, function,
              "%zu bytes sent per process but %zu expected", sent, expected);
}

// ---- the operations, shared by every form of each collective ----

int do_barrier(MPI_Comm comm, const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    return run_collective(
        c, [c] { return inter::barrier(*c); }, {}, call);
  }
  const bool hierarchy = algo::spans_numa_nodes(*c);
  if (call.is_blocking() && !hierarchy) {
    if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    algo::barrier_now(*c);
    return MPI_SUCCESS;
  }
  return run_collective(
      c,
      [c, hierarchy] {
        return hierarchy ? algo::numa_barrier(*c) : algo::barrier(*c);
      },
      Holds{}, call);
}

int do_bcast(void* buffer, MPI_Count count, MPI_Datatype datatype, int root,
             MPI_Comm comm, const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg type;
  if (int rc = check_data(c, buffer, count, datatype, &type, "buffer", call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, call.fn); rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout data = layout(type, buffer, count);
  if (c->is_inter) {
    return run_collective(
        c, [=] { return inter::bcast(*c, data, root); }, {{type}, {}, false},
        call);
  }
  const bool hierarchy = algo::spans_numa_nodes(*c);
  if (call.is_blocking() && !hierarchy) {
    if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::bcast_now(*c, data, root)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(
      c,
      [=] {
        return hierarchy ? algo::numa_bcast(*c, data, root)
                         : algo::bcast(*c, data, root);
      },
      Holds{{type}, {}, false}, call);
}

int check_reduction(Comm* c, const void* sendbuf, const void* recvbuf,
                    MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    bool needs_recvbuf, TypeArg* type, OpArg* oparg,
                    const char* fn) {
  if (int rc = check_count(c, count, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_reduction_datatype(c, datatype, type, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_op(c, op, *type, oparg, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_buffer(c, sendbuf, count, *type, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (needs_recvbuf) {
    if (int rc = check_coll_buffer(c, recvbuf, count, *type, "recvbuf", fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}

int do_reduce(const void* sendbuf, void* recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
              const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, call.fn); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool receives = c->is_inter ? root == MPI_ROOT : c->rank == root;
  // Intercommunicator: the root only receives, the remote group only sends
  // (its sendbuf is not checked at the root's group), no MPI_IN_PLACE.
  const bool sends = !c->is_inter || root >= 0;
  if (c->is_inter) {
    if (receives && recvbuf == MPI_IN_PLACE) {
      return check_in_place(c, recvbuf, "recvbuf", call.fn);
    }
    if (sends && sendbuf == MPI_IN_PLACE) {
      return check_in_place(c, sendbuf, "sendbuf", call.fn);
    }
  }
  TypeArg type;
  OpArg oparg;
  if (int rc =
          check_reduction(c, sends ? sendbuf : MPI_IN_PLACE, recvbuf, count,
                          datatype, op, receives, &type, &oparg, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const auto n = static_cast<std::size_t>(count);
  if (c->is_inter) {
    const Layout recv = receives ? layout(type, recvbuf, count) : Layout{};
    const Layout send = sends ? layout(type, sendbuf, count) : Layout{};
    return run_collective(
        c, [=] { return inter::reduce(*c, send, recv, type, oparg, n, root); },
        {{type}, oparg, true}, call);
  }
  if (sendbuf == MPI_IN_PLACE && c->rank != root) {
    return fail(c, MPI_ERR_BUFFER, call.fn,
                "MPI_IN_PLACE is only valid at the root");
  }
  const Layout recv = layout(type, recvbuf, c->rank == root ? count : 0);
  const Layout send =
      sendbuf == MPI_IN_PLACE ? recv : layout(type, sendbuf, count);
  const bool hierarchy = oparg.commutative && algo::spans_numa_nodes(*c);
  if (call.is_blocking() && !hierarchy) {
    if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::reduce_now(*c, send, recv, type, oparg, n, root)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(
      c,
      [=] {
        return hierarchy
                   ? algo::numa_reduce(*c, send, recv, type, oparg, n, root)
                   : algo::reduce(*c, send, recv, type, oparg, n, root);
      },
      Holds{{type}, oparg, true}, call);
}

// MPI_Allreduce's common small case: a blocking call on an
// intracommunicator with data of a predefined type that fits inline in a
// slot, a predefined operation defined on it and non-null buffers, so
// every argument check passes by construction: allreduce()'s one round
// straight through (algo::allreduce_small_now). As alltoall_now(): *done
// false, having done nothing, when it does not apply or an argument is
// wrong; the general path then runs (and reports the error).
int allreduce_small(Comm* c, const void* sendbuf, void* recvbuf,
                    MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    const char* fn, bool* done) {
  *done = false;
  const datatype::BasicType* basic = find_type(datatype);
  if (basic == nullptr || count <= 0 ||
      count > static_cast<MPI_Count>(algo::kInline) || sendbuf == nullptr ||
      recvbuf == nullptr || recvbuf == MPI_IN_PLACE) {
    return MPI_SUCCESS;
  }
  const auto n = static_cast<std::size_t>(count);
  const std::size_t bytes = n * static_cast<std::size_t>(basic->extent);
  const datatype::ReduceFn reduce = datatype::reduction_kernel(
      datatype::op_from_handle(reinterpret_cast<std::uintptr_t>(op)), *basic);
  if (reduce == nullptr || !algo::allreduce_small_fits(*c, bytes)) {
    return MPI_SUCCESS;
  }
  *done = true;
  if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  algo::allreduce_small_now(*c, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
                            recvbuf, bytes, n, reduce);
  return MPI_SUCCESS;
}

int do_allreduce(const void* sendbuf, void* recvbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (call.is_blocking() && !c->is_inter) {
    bool done = false;
    int rc = allreduce_small(c, sendbuf, recvbuf, count, datatype, op, call.fn,
                             &done);
    if (done) {
      return rc;
    }
  }
  if (c->is_inter && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, "sendbuf", call.fn);
  }
  TypeArg type;
  OpArg oparg;
  if (int rc = check_reduction(c, sendbuf, recvbuf, count, datatype, op, true,
                               &type, &oparg, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout recv = layout(type, recvbuf, count);
  const Layout send =
      sendbuf == MPI_IN_PLACE ? recv : layout(type, sendbuf, count);
  const auto n = static_cast<std::size_t>(count);
  if (c->is_inter) {
    return run_collective(
        c, [=] { return inter::allreduce(*c, send, recv, type, oparg, n); },
        {{type}, oparg, true}, call);
  }
  const bool hierarchy = oparg.commutative && algo::spans_numa_nodes(*c);
  if (call.is_blocking() && !hierarchy) {
    if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::allreduce_now(*c, send, recv, type, oparg, n)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(
      c,
      [=] {
        return hierarchy ? algo::numa_allreduce(*c, send, recv, type, oparg, n)
                         : algo::allreduce(*c, send, recv, type, oparg, n);
      },
      Holds{{type}, oparg, true}, call);
}

// The root's side of gather(v) and scatter(v), and everyone's receive side
// of allgather(v): a block per member, either `count` elements each, back
// to back (the fixed-size forms), or counts[i] elements at displs[i]
// extents (the v forms).
struct PerMember {
  const void* buffer = nullptr;
  MPI_Count count = 0;  // fixed-size forms
  CountArray counts;    // v forms
  CountArray displs;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool uniform = true;
};

PerMember blocks_of(const void* buffer, MPI_Count count, MPI_Datatype type) {
  return PerMember{buffer, count, {}, {}, type, true};
}
PerMember blocks_of(const void* buffer, CountArray counts, CountArray displs,
                    MPI_Datatype type) {
  return PerMember{buffer, 0, counts, displs, type, false};
}

// The names of a side's buffer and counts, for error messages.
struct SideNames {
  const char* buffer;
  const char* counts;
};
constexpr SideNames kSendSide{"sendbuf", "sendcounts"};
constexpr SideNames kRecvSide{"recvbuf", "recvcounts"};

// Checks `side` in the standard's order and makes its n blocks, if
// `blocks`. The side is never in place (callers skip it when it is).
int check_per_member(Comm* c, const PerMember& side, int n,
                     const SideNames& names, TypeArg* arg, Blocks* blocks,
                     const char* fn) {
  if (!side.uniform) {
    return check_blocks(c, side.buffer, side.counts, side.displs, side.type, n,
                        names.buffer, names.counts, arg, blocks, fn);
  }
  if (int rc = check_data(c, side.buffer, side.count, side.type, arg,
                          names.buffer, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (blocks != nullptr) {
    *blocks = uniform_blocks(*arg, side.buffer, side.count, n);
  }
  return MPI_SUCCESS;
}

// The root's side of an intracommunicator gather or scatter: checked, and
// its blocks made only for the v forms. The fixed-size forms move one
// contiguous buffer, and building their blocks took a heap allocation per
// call on the root (8-byte MPI_Scatter at two ranks, medians of 7
// alternations: 0.551 -> 0.532 us, within the noise). Sets *root_bytes to
// the size of the root's own block.
int check_root_side(Comm* c, const PerMember& side, const SideNames& names,
                    int root, TypeArg* arg, Blocks* blocks,
                    std::size_t* root_bytes, const char* fn) {
  if (int rc = check_per_member(c, side, c->size, names, arg,
                                side.uniform ? nullptr : blocks, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  *root_bytes = side.uniform ? arg->bytes(static_cast<std::size_t>(side.count))
                             : (*blocks)[static_cast<std::size_t>(root)].bytes;
  return MPI_SUCCESS;
}

// Gather and gatherv. On an intercommunicator the root (MPI_ROOT) receives
// a block from every remote member, the remote group's members send.
int do_gather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              const PerMember& recv, int root, MPI_Comm comm,
              const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, call.fn); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg stype;
  TypeArg rtype;
  Blocks blocks;
  if (c->is_inter) {
    Layout send{};
    if (root == MPI_ROOT) {
      if (recv.buffer == MPI_IN_PLACE) {
        return check_in_place(c, recv.buffer, "recvbuf", call.fn);
      }
      if (int rc = check_per_member(c, recv, c->remote_size, kRecvSide, &rtype,
                                    &blocks, call.fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
    } else if (root != MPI_PROC_NULL) {
      if (sendbuf == MPI_IN_PLACE) {
        return check_in_place(c, sendbuf, "sendbuf", call.fn);
      }
      if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype,
                              "sendbuf", call.fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      send = layout(stype, sendbuf, sendcount);
    }
    return run_collective(
        c, [=] { return inter::gatherv(*c, send, blocks, root); },
        {{stype, rtype}, {}, false}, call);
  }
  const bool is_root = c->rank == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  if (!is_root && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, "sendbuf", call.fn);
  }
  if (!in_place) {
    if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, "sendbuf",
                            call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  std::size_t mine = 0;
  if (is_root) {
    if (int rc = check_root_side(c, recv, kRecvSide, root, &rtype, &blocks,
                                 &mine, call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    const std::size_t sent = stype.bytes(static_cast<std::size_t>(sendcount));
    if (!in_place && sent != mine) {
      return size_mismatch(c, sent, mine, call.fn);
    }
  }
  const Holds holds{{stype, rtype}, {}, false};
  if (recv.uniform) {
    // One contiguous receive buffer: no round agrees on block sizes.
    const Layout all =
        is_root ? layout(rtype, recv.buffer, recv.count * c->size) : Layout{};
    const Layout send = in_place ? Layout{nullptr, mine, nullptr}
                                 : layout(stype, sendbuf, sendcount);
    if (call.is_blocking()) {
      if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
        return rc;
      }
      if (algo::gather_now(*c, send, all, root, in_place)) {
        return MPI_SUCCESS;
      }
    }
    return run_collective(
        c, [=] { return algo::gather(*c, send, all, root, in_place); }, holds,
        call);
  }
  const Layout send = in_place ? Layout{} : layout(stype, sendbuf, sendcount);
  return run_collective(
      c, [=] { return algo::gatherv(*c, send, blocks, root, in_place); }, holds,
      call);
}

// Scatter and scatterv. On an intercommunicator the root (MPI_ROOT) sends
// a block to every remote member; they receive.
int do_scatter(const PerMember& send, void* recvbuf, MPI_Count recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm,
               const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, call.fn); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg stype;
  TypeArg rtype;
  Blocks blocks;
  if (c->is_inter) {
    Layout recv{};
    if (root == MPI_ROOT) {
      if (send.buffer == MPI_IN_PLACE) {
        return check_in_place(c, send.buffer, "sendbuf", call.fn);
      }
      if (int rc = check_per_member(c, send, c->remote_size, kSendSide, &stype,
                                    &blocks, call.fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
    } else if (root != MPI_PROC_NULL) {
      if (recvbuf == MPI_IN_PLACE) {
        return check_in_place(c, recvbuf, "recvbuf", call.fn);
      }
      if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype,
                              "recvbuf", call.fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      recv = layout(rtype, recvbuf, recvcount);
    }
    return run_collective(
        c, [=] { return inter::scatterv(*c, blocks, recv, root); },
        {{stype, rtype}, {}, false}, call);
  }
  const bool is_root = c->rank == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  if (!is_root && recvbuf == MPI_IN_PLACE) {
    return check_in_place(c, recvbuf, "recvbuf", call.fn);
  }
  std::size_t mine = 0;
  if (is_root) {
    if (int rc = check_root_side(c, send, kSendSide, root, &stype, &blocks,
                                 &mine, call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  Layout recv = send.uniform ? Layout{nullptr, mine, nullptr} : Layout{};
  if (!in_place) {
    if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, "recvbuf",
                            call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    recv = layout(rtype, recvbuf, recvcount);
    if (is_root && recv.bytes != mine) {
      return size_mismatch(c, mine, recv.bytes, call.fn);
    }
  }
  const Holds holds{{stype, rtype}, {}, false};
  if (send.uniform) {
    // One contiguous send buffer: no round agrees on block sizes.
    const Layout all =
        is_root ? layout(stype, send.buffer, send.count * c->size) : Layout{};
    if (call.is_blocking()) {
      if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
        return rc;
      }
      if (algo::scatter_now(*c, all, recv, root, in_place)) {
        return MPI_SUCCESS;
      }
    }
    return run_collective(
        c, [=] { return algo::scatter(*c, all, recv, root, in_place); }, holds,
        call);
  }
  return run_collective(
      c, [=] { return algo::scatterv(*c, blocks, recv, root, in_place); },
      holds, call);
}

// Allgather and allgatherv. On an intercommunicator every member sends its
// block to every remote member and gets theirs.
// A blocking MPI_Allgather of predefined types on an intracommunicator
// whose blocks fit one round: that round straight through (algo::
// allgather_now), without the per-member layouts of allgatherv and its
// coroutine. As alltoall_now(): *done false, having done nothing, when it
// does not apply or an argument is wrong (MPI_IN_PLACE as recvbuf too).
int allgather_now(Comm* c, const void* sendbuf, MPI_Count sendcount,
                  MPI_Datatype sendtype, const PerMember& recv, const char* fn,
                  bool* done) {
  *done = false;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const datatype::BasicType* rtype = find_type(recv.type);
  const datatype::BasicType* stype = in_place ? rtype : find_type(sendtype);
  // Blocks are copied as bytes of memory: not for a padded pair type, whose
  // packed form is not its memory.
  if (rtype == nullptr || stype == nullptr || datatype::padded(*rtype) ||
      datatype::padded(*stype) || recv.count < 0 ||
      (!in_place && sendcount < 0) ||
      (!in_place && sendcount > 0 && sendbuf == nullptr) ||
      (recv.count > 0 && recv.buffer == nullptr) ||
      recv.buffer == MPI_IN_PLACE) {
    return MPI_SUCCESS;
  }
  const auto block = static_cast<std::size_t>(recv.count) *
                     static_cast<std::size_t>(rtype->extent);
  if ((!in_place && block != static_cast<std::size_t>(sendcount) *
                                 static_cast<std::size_t>(stype->extent)) ||
      block > algo::kBulk) {
    return MPI_SUCCESS;
  }
  if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
    *done = true;
    return rc;
  }
  *done = algo::allgather_now(
      *c, in_place ? nullptr : static_cast<const std::byte*>(sendbuf),
      static_cast<std::byte*>(const_cast<void*>(recv.buffer)), block);
  return MPI_SUCCESS;
}

int do_allgather(const void* sendbuf, MPI_Count sendcount,
                 MPI_Datatype sendtype, const PerMember& recv, MPI_Comm comm,
                 const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (call.is_blocking() && !c->is_inter && recv.uniform) {
    bool done = false;
    int rc =
        allgather_now(c, sendbuf, sendcount, sendtype, recv, call.fn, &done);
    if (done) {
      return rc;
    }
  }
  const bool in_place = sendbuf == MPI_IN_PLACE;
  TypeArg stype;
  TypeArg rtype;
  if (!in_place) {
    if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, "sendbuf",
                            call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  Blocks blocks;
  if (int rc = check_per_member(c, recv, c->remote_size, kRecvSide, &rtype,
                                &blocks, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Holds holds{{stype, rtype}, {}, false};
  if (c->is_inter) {
    if (in_place) {
      return check_in_place(c, sendbuf, "sendbuf", call.fn);
    }
    const Layout send = layout(stype, sendbuf, sendcount);
    return run_collective(
        c, [=] { return inter::allgatherv(*c, send, blocks); }, holds, call);
  }
  const Layout& own = blocks[static_cast<std::size_t>(c->rank)];
  const std::size_t sent = stype.bytes(static_cast<std::size_t>(sendcount));
  if (!in_place && sent != own.bytes) {
    return size_mismatch(c, sent, own.bytes, call.fn);
  }
  const Layout send = in_place ? own : layout(stype, sendbuf, sendcount);
  return run_collective(
      c, [=] { return algo::allgatherv(*c, send, blocks, in_place); }, holds,
      call);
}

// Alltoall, alltoallv and alltoallw: per-peer counts, displacements
// (elements of the type for v, bytes for w) and types.
struct AlltoallArgs {
  const void* sendbuf;
  CountArray sendcounts;
  CountArray sdispls;
  const MPI_Datatype* sendtypes;
  void* recvbuf;
  CountArray recvcounts;
  CountArray rdispls;
  const MPI_Datatype* recvtypes;
  bool byte_displs;  // alltoallw
  bool uniform;      // MPI_Alltoall: every block the same size everywhere
};

int do_alltoall_any(Comm* c, const AlltoallArgs& a, const Call& call) {
  const int n = c->peer_count();  // the remote group's size on an intercomm
  const bool in_place = a.sendbuf == MPI_IN_PLACE;
  if (c->is_inter && in_place) {
    return check_in_place(c, a.sendbuf, "sendbuf", call.fn);
  }
  Holds holds;
  Blocks sends(static_cast<std::size_t>(n));
  Blocks recvs(static_cast<std::size_t>(n));
  for (int side = 0; side < 2; ++side) {
    const bool is_send = side == 0;
    if (is_send && in_place) {
      continue;
    }
    const CountArray counts = is_send ? a.sendcounts : a.recvcounts;
    const CountArray displs = is_send ? a.sdispls : a.rdispls;
    const MPI_Datatype* types = is_send ? a.sendtypes : a.recvtypes;
    const void* buf = is_send ? a.sendbuf : a.recvbuf;
    if (int rc = check_counts(c, counts, n,
                              is_send ? "sendcounts" : "recvcounts", call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (displs.is_null() || types == nullptr) {
      return fail(c, MPI_ERR_ARG, call.fn, "displacements or types are NULL");
    }
    for (int j = 0; j < n; ++j) {
      TypeArg t;
      if (int rc = check_datatype(c, types[j], &t, call.fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      if (int rc = check_coll_buffer(c, buf, counts[j], t,
                                     is_send ? "sendbuf" : "recvbuf", call.fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      (is_send ? sends : recvs)[static_cast<std::size_t>(j)] =
          a.byte_displs ? at_bytes(t, buf, displs[j], counts[j])
                        : block(t, buf, counts[j], displs[j]);
      if (holds.types.empty() || holds.types.back().handle != t.handle) {
        holds.types.push_back(t);  // once per run of the same type
      }
    }
  }
  if (c->is_inter) {
    return run_collective(
        c, [=] { return inter::alltoallv(*c, sends, recvs); }, std::move(holds),
        call);
  }
  if (in_place) {
    // Sent with the receive arguments, from where the data comes back to:
    // every round packs a piece before it unpacks the same piece's reply.
    sends = recvs;
  }
  const auto me = static_cast<std::size_t>(c->rank);
  if (sends[me].bytes != recvs[me].bytes) {
    return size_mismatch(c, sends[me].bytes, recvs[me].bytes, call.fn);
  }
  const bool uniform = a.uniform;
  return run_collective(
      c, [=] { return algo::alltoallv(*c, sends, recvs, uniform); },
      std::move(holds), call);
}

// A blocking MPI_Alltoall of predefined types on an intracommunicator whose
// blocks fit one round: that round straight through (algo::
// alltoall_now), without building the per-member arguments of alltoallv
// and its coroutine. *done false, having done nothing, when it does not
// apply or an argument is wrong (MPI_IN_PLACE as recvbuf too); the general
// path then runs (and reports the error).
int alltoall_now(Comm* c, const void* sendbuf, MPI_Count sendcount,
                 MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                 MPI_Datatype recvtype, const char* fn, bool* done) {
  *done = false;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const datatype::BasicType* rtype = find_type(recvtype);
  const datatype::BasicType* stype = in_place ? rtype : find_type(sendtype);
  const MPI_Count scount = in_place ? recvcount : sendcount;
  const void* sbuf = in_place ? recvbuf : sendbuf;
  // Blocks are copied as bytes of memory: not for a padded pair type, whose
  // packed form is not its memory.
  if (rtype == nullptr || stype == nullptr || datatype::padded(*rtype) ||
      datatype::padded(*stype) || scount < 0 || recvcount < 0 ||
      (scount > 0 && sbuf == nullptr) ||
      (recvcount > 0 && recvbuf == nullptr) || recvbuf == MPI_IN_PLACE) {
    return MPI_SUCCESS;
  }
  const auto block = static_cast<std::size_t>(scount) *
                     static_cast<std::size_t>(stype->extent);
  if (block != static_cast<std::size_t>(recvcount) *
                   static_cast<std::size_t>(rtype->extent) ||
      block * static_cast<std::size_t>(c->size - 1) > algo::kBulk) {
    return MPI_SUCCESS;  // more than one round (algo::alltoall_now decides)
  }
  if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
    *done = true;
    return rc;
  }
  *done = algo::alltoall_now(*c, static_cast<const std::byte*>(sbuf),
                             static_cast<std::byte*>(recvbuf), block);
  return MPI_SUCCESS;
}

int do_alltoall(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                MPI_Comm comm, const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (call.is_blocking() && !c->is_inter) {
    bool done = false;
    int rc = alltoall_now(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, call.fn, &done);
    if (done) {
      return rc;
    }
  }
  const auto n = static_cast<std::size_t>(c->peer_count());
  ArgArray<MPI_Count> scounts(n, sendcount);
  ArgArray<MPI_Count> rcounts(n, recvcount);
  ArgArray<MPI_Count> sdispls(n);
  ArgArray<MPI_Count> rdispls(n);
  for (std::size_t j = 0; j < n; ++j) {
    sdispls[j] = static_cast<MPI_Count>(j) * sendcount;
    rdispls[j] = static_cast<MPI_Count>(j) * recvcount;
  }
  ArgArray<MPI_Datatype> stypes(n, sendtype);
  ArgArray<MPI_Datatype> rtypes(n, recvtype);
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_count(c, sendcount, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (int rc = check_count(c, recvcount, call.fn); rc != MPI_SUCCESS) {
    return rc;
  }
  return do_alltoall_any(
      c,
      AlltoallArgs{sendbuf, scounts.data(), sdispls.data(), stypes.data(),
                   recvbuf, rcounts.data(), rdispls.data(), rtypes.data(),
                   false, true},
      call);
}

int do_alltoallv(const void* sendbuf, CountArray sendcounts, CountArray sdispls,
                 MPI_Datatype sendtype, void* recvbuf, CountArray recvcounts,
                 CountArray rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                 const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  const auto n = static_cast<std::size_t>(c->peer_count());
  ArgArray<MPI_Datatype> stypes(n, sendtype);
  ArgArray<MPI_Datatype> rtypes(n, recvtype);
  return do_alltoall_any(
      c,
      AlltoallArgs{sendbuf, sendcounts, sdispls, stypes.data(), recvbuf,
                   recvcounts, rdispls, rtypes.data(), false, false},
      call);
}

int do_alltoallw(const void* sendbuf, CountArray sendcounts, CountArray sdispls,
                 const MPI_Datatype* sendtypes, void* recvbuf,
                 CountArray recvcounts, CountArray rdispls,
                 const MPI_Datatype* recvtypes, MPI_Comm comm,
                 const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  return do_alltoall_any(
      c,
      AlltoallArgs{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, true, false},
      call);
}

// Reduce_scatter (recvcounts) and reduce_scatter_block (`block_form`: the
// same recvcount for every member).
int do_reduce_scatter(const void* sendbuf, void* recvbuf, CountArray recvcounts,
                      MPI_Count recvcount, bool block_form,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, "sendbuf", call.fn);
  }
  // On an intercommunicator too: one count per member of the local group,
  // which gets that block of the remote group's reduction.
  const auto n = static_cast<std::size_t>(c->size);
  std::size_t total = 0;
  std::size_t mine = 0;
  if (block_form) {
    if (int rc = check_count(c, recvcount, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    mine = static_cast<std::size_t>(recvcount);
    total = mine * n;
  } else {
    if (int rc = check_counts(c, recvcounts, c->size, "recvcounts", call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    for (std::size_t j = 0; j < n; ++j) {
      total += static_cast<std::size_t>(recvcounts[static_cast<int>(j)]);
    }
    mine = static_cast<std::size_t>(recvcounts[c->rank]);
  }
  TypeArg type;
  OpArg oparg;
  if (int rc = check_count(c, static_cast<MPI_Count>(total), call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_reduction_datatype(c, datatype, &type, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_op(c, op, type, &oparg, call.fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_buffer(c, sendbuf, static_cast<MPI_Count>(total), type,
                              call.fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (int rc = check_coll_buffer(c, recvbuf, static_cast<MPI_Count>(mine), type,
                                 "recvbuf", call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout recv = layout(type, recvbuf, static_cast<MPI_Count>(mine));
  const Layout send = layout(type, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
                             static_cast<MPI_Count>(total));
  if (block_form && call.is_blocking() && !c->is_inter) {
    if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::reduce_scatter_block_now(*c, send, recv, type, oparg, mine)) {
      return MPI_SUCCESS;
    }
  }
  datatype::Counts counts(n, mine);
  if (!block_form) {
    for (std::size_t j = 0; j < n; ++j) {
      counts[j] = static_cast<std::size_t>(recvcounts[static_cast<int>(j)]);
    }
  }
  if (c->is_inter) {
    return run_collective(
        c,
        [=] {
          return inter::reduce_scatter(*c, send, recv, type, oparg, counts);
        },
        {{type}, oparg, true}, call);
  }
  return run_collective(
      c,
      [=] { return algo::reduce_scatter(*c, send, recv, type, oparg, counts); },
      Holds{{type}, oparg, true}, call);
}

int do_scan(const void* sendbuf, void* recvbuf, MPI_Count count,
            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool exclusive,
            const Call& call) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, call.fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    return fail(c, MPI_ERR_COMM, call.fn,
                "not defined on an intercommunicator");
  }
  TypeArg type;
  OpArg oparg;
  if (int rc = check_reduction(c, sendbuf, recvbuf, count, datatype, op, true,
                               &type, &oparg, call.fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout recv = layout(type, recvbuf, count);
  const Layout send =
      sendbuf == MPI_IN_PLACE ? recv : layout(type, sendbuf, count);
  const auto n = static_cast<std::size_t>(count);
  if (call.is_blocking()) {
    if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::scan_now(*c, send, recv, type, oparg, n, exclusive)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(
      c, [=] { return algo::scan(*c, send, recv, type, oparg, n, exclusive); },
      Holds{{type}, oparg, true}, call);
}

}  // namespace

// ---- entry points (SHMPI_COLLECTIVE: coll_args.hpp) ----

SHMPI_COLLECTIVE_WITH(SHMPI_INT_FORM, Barrier, Ibarrier, (MPI_Comm comm),
                      do_barrier, (comm));

SHMPI_COLLECTIVE(Bcast, Ibcast,
                 (void* buffer, Count count, MPI_Datatype datatype, int root,
                  MPI_Comm comm),
                 do_bcast, (buffer, count, datatype, root, comm));

SHMPI_COLLECTIVE(Reduce, Ireduce,
                 (const void* sendbuf, void* recvbuf, Count count,
                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm),
                 do_reduce,
                 (sendbuf, recvbuf, count, datatype, op, root, comm));

SHMPI_COLLECTIVE(Allreduce, Iallreduce,
                 (const void* sendbuf, void* recvbuf, Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                 do_allreduce, (sendbuf, recvbuf, count, datatype, op, comm));

SHMPI_COLLECTIVE(Gather, Igather,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm),
                 do_gather,
                 (sendbuf, sendcount, sendtype,
                  blocks_of(recvbuf, recvcount, recvtype), root, comm));

SHMPI_COLLECTIVE(Gatherv, Igatherv,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, const Count recvcounts[], const Displ displs[],
                  MPI_Datatype recvtype, int root, MPI_Comm comm),
                 do_gather,
                 (sendbuf, sendcount, sendtype,
                  blocks_of(recvbuf, recvcounts, displs, recvtype), root,
                  comm));

SHMPI_COLLECTIVE(Scatter, Iscatter,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm),
                 do_scatter,
                 (blocks_of(sendbuf, sendcount, sendtype), recvbuf, recvcount,
                  recvtype, root, comm));

SHMPI_COLLECTIVE(Scatterv, Iscatterv,
                 (const void* sendbuf, const Count sendcounts[],
                  const Displ displs[], MPI_Datatype sendtype, void* recvbuf,
                  Count recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm),
                 do_scatter,
                 (blocks_of(sendbuf, sendcounts, displs, sendtype), recvbuf,
                  recvcount, recvtype, root, comm));

SHMPI_COLLECTIVE(Allgather, Iallgather,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm),
                 do_allgather,
                 (sendbuf, sendcount, sendtype,
                  blocks_of(recvbuf, recvcount, recvtype), comm));

SHMPI_COLLECTIVE(Allgatherv, Iallgatherv,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, const Count recvcounts[], const Displ displs[],
                  MPI_Datatype recvtype, MPI_Comm comm),
                 do_allgather,
                 (sendbuf, sendcount, sendtype,
                  blocks_of(recvbuf, recvcounts, displs, recvtype), comm));

SHMPI_COLLECTIVE(Alltoall, Ialltoall,
                 (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                  void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm),
                 do_alltoall,
                 (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm));

SHMPI_COLLECTIVE(Alltoallv, Ialltoallv,
                 (const void* sendbuf, const Count sendcounts[],
                  const Displ sdispls[], MPI_Datatype sendtype, void* recvbuf,
                  const Count recvcounts[], const Displ rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm),
                 do_alltoallv,
                 (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                  rdispls, recvtype, comm));

SHMPI_COLLECTIVE(Alltoallw, Ialltoallw,
                 (const void* sendbuf, const Count sendcounts[],
                  const Displ sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const Count recvcounts[],
                  const Displ rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm),
                 do_alltoallw,
                 (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                  rdispls, recvtypes, comm));

SHMPI_COLLECTIVE(Reduce_scatter, Ireduce_scatter,
                 (const void* sendbuf, void* recvbuf, const Count recvcounts[],
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                 do_reduce_scatter,
                 (sendbuf, recvbuf, recvcounts, 0, false, datatype, op, comm));

SHMPI_COLLECTIVE(Reduce_scatter_block, Ireduce_scatter_block,
                 (const void* sendbuf, void* recvbuf, Count recvcount,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                 do_reduce_scatter,
                 (sendbuf, recvbuf, {}, recvcount, true, datatype, op, comm));

SHMPI_COLLECTIVE(Scan, Iscan,
                 (const void* sendbuf, void* recvbuf, Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                 do_scan, (sendbuf, recvbuf, count, datatype, op, comm, false));

SHMPI_COLLECTIVE(Exscan, Iexscan,
                 (const void* sendbuf, void* recvbuf, Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                 do_scan, (sendbuf, recvbuf, count, datatype, op, comm, true));
