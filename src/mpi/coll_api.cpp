// SPDX-License-Identifier: MIT
// The collective entry points: argument checks in the standard's order,
// then the algorithm of src/coll as a coroutine, run to the end here
// (blocking forms) or from the progress engine (nonblocking forms, one
// request each). Collectives on one communicator run in the order they
// were called, with MPI_Comm_idup in the same queue (tickets).
//
// Intercommunicators: every collective but scan and exscan, blocking and
// nonblocking, runs the coroutines of coll_inter.hpp (point-to-point
// between and within the groups); MPI_IN_PLACE is MPI_ERR_BUFFER there,
// as in MPICH.
#include <mpi.h>

#include <cstring>
#include <memory>
#include <vector>

#include "coll/intra.hpp"
#include "coll/numa.hpp"
#include "coll/rounds.hpp"
#include "coll/task.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/coll_inter.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/engine.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
namespace algo = shmpi::coll;  // the scratch-block algorithms

namespace {

using datatype::Layout;

int check_coll(MPI_Comm comm, const char* function, Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

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

// (buffer, count, datatype): the checks and the layout.
int check_data(Comm* c, const void* buffer, MPI_Count count, MPI_Datatype type,
               TypeArg* arg, const char* function) {
  if (int rc = check_count(c, count, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datatype(c, type, arg, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_buffer(c, buffer, count, function);
}

int check_counts(Comm* c, const int* counts, int n, const char* what,
                 const char* function) {
  if (counts == nullptr && n > 0) {
    return fail(c, MPI_ERR_ARG, function, "%s is NULL", what);
  }
  for (int i = 0; i < n; ++i) {
    if (counts[i] < 0) {
      return fail(c, MPI_ERR_COUNT, function, "%s[%d] = %d is negative", what,
                  i, counts[i]);
    }
  }
  return MPI_SUCCESS;
}

int check_in_place(Comm* c, const void* buffer, const char* function) {
  if (buffer == MPI_IN_PLACE) {
    return fail(c, MPI_ERR_BUFFER, function,
                "MPI_IN_PLACE is not valid for this buffer");
  }
  return MPI_SUCCESS;
}

Layout layout(const TypeArg& type, const void* buffer, MPI_Count count) {
  return type.layout(buffer, static_cast<std::size_t>(count));
}

// Block i of a v-collective: counts[i] elements at displs[i] extents.
Layout block(const TypeArg& type, const void* buffer, int count, int displ) {
  return type.layout(static_cast<const std::byte*>(buffer) +
                         static_cast<std::ptrdiff_t>(displ) * type.extent,
                     static_cast<std::size_t>(count));
}

// The n blocks of a v-collective (buffer, counts, displs, datatype): the
// checks in the standard's order, then (if `blocks`) their layouts.
int check_blocks(Comm* c, const void* buffer, const int* counts,
                 const int* displs, MPI_Datatype type, int n,
                 const char* counts_name, TypeArg* arg,
                 std::vector<Layout>* blocks, const char* function) {
  if (int rc = check_counts(c, counts, n, counts_name, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (displs == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "displs is NULL");
  }
  if (int rc = check_datatype(c, type, arg, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (blocks != nullptr) {
    blocks->reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      blocks->push_back(block(*arg, buffer, counts[i], displs[i]));
    }
  }
  return MPI_SUCCESS;
}

int size_mismatch(Comm* c, std::size_t sent, std::size_t expected,
                  const char* function) {
  return fail(c, MPI_ERR_TRUNCATE, function,
              "%zu bytes sent per process but %zu expected", sent, expected);
}

// ---- the operations, shared by blocking (request == nullptr) and
// nonblocking forms ----

int do_barrier(MPI_Comm comm, MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    return run_collective(c, inter::barrier(*c), {}, request, fn);
  }
  if (request == nullptr && c == &state().world) {
    state().runtime->world_barrier();
    return MPI_SUCCESS;
  }
  const bool hierarchy = algo::spans_numa_nodes(*c);
  if (request == nullptr && !hierarchy) {
    if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
      return rc;
    }
    algo::barrier_now(*c);
    return MPI_SUCCESS;
  }
  return run_collective(c,
                        hierarchy ? algo::numa_barrier(*c) : algo::barrier(*c),
                        Holds{}, request, fn);
}

int do_bcast(void* buffer, MPI_Count count, MPI_Datatype datatype, int root,
             MPI_Comm comm, MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg type;
  if (int rc = check_data(c, buffer, count, datatype, &type, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout data = layout(type, buffer, count);
  if (c->is_inter) {
    return run_collective(c, inter::bcast(*c, data, root), {{type}, {}, false},
                          request, fn);
  }
  const bool hierarchy = algo::spans_numa_nodes(*c);
  if (request == nullptr && !hierarchy) {
    if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::bcast_now(*c, data, root)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(c,
                        hierarchy ? algo::numa_bcast(*c, data, root)
                                  : algo::bcast(*c, data, root),
                        Holds{{type}, {}, false}, request, fn);
}

int check_reduction(Comm* c, const void* sendbuf, const void* recvbuf,
                    MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    bool needs_recvbuf, TypeArg* type, OpArg* oparg,
                    const char* fn) {
  if (int rc = check_count(c, count, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datatype(c, datatype, type, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_op(c, op, *type, oparg, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (oparg->user != nullptr && type->packed > algo::kBulk) {
    return fail(c, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                "user operations on datatypes over %zu bytes per element",
                algo::kBulk);
  }
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_buffer(c, sendbuf, count, fn); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (needs_recvbuf) {
    if (int rc = check_buffer(c, recvbuf, count, fn); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}

int do_reduce(const void* sendbuf, void* recvbuf, MPI_Count count,
              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
              MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool receives = c->is_inter ? root == MPI_ROOT : c->rank == root;
  // Intercommunicator: the root only receives, the remote group only sends
  // (its sendbuf is not checked at the root's group), no MPI_IN_PLACE.
  const bool sends = !c->is_inter || root >= 0;
  if (c->is_inter) {
    if (receives && recvbuf == MPI_IN_PLACE) {
      return check_in_place(c, recvbuf, fn);
    }
    if (sends && sendbuf == MPI_IN_PLACE) {
      return check_in_place(c, sendbuf, fn);
    }
  }
  TypeArg type;
  OpArg oparg;
  if (int rc =
          check_reduction(c, sends ? sendbuf : MPI_IN_PLACE, recvbuf, count,
                          datatype, op, receives, &type, &oparg, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    const Layout recv = receives ? layout(type, recvbuf, count) : Layout{};
    const Layout send = sends ? layout(type, sendbuf, count) : Layout{};
    return run_collective(c,
                          inter::reduce(*c, send, recv, type, oparg,
                                        static_cast<std::size_t>(count), root),
                          {{type}, oparg, true}, request, fn);
  }
  if (sendbuf == MPI_IN_PLACE && c->rank != root) {
    return fail(c, MPI_ERR_BUFFER, fn,
                "MPI_IN_PLACE is only valid at the root");
  }
  const Layout recv = layout(type, recvbuf, c->rank == root ? count : 0);
  const Layout send =
      sendbuf == MPI_IN_PLACE ? recv : layout(type, sendbuf, count);
  const auto n = static_cast<std::size_t>(count);
  const bool hierarchy = oparg.commutative && algo::spans_numa_nodes(*c);
  if (request == nullptr && !hierarchy) {
    if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::reduce_now(*c, send, recv, type, oparg, n, root)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(
      c,
      hierarchy ? algo::numa_reduce(*c, send, recv, type, oparg, n, root)
                : algo::reduce(*c, send, recv, type, oparg, n, root),
      Holds{{type}, oparg, true}, request, fn);
}

int do_allreduce(const void* sendbuf, void* recvbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, fn);
  }
  TypeArg type;
  OpArg oparg;
  if (int rc = check_reduction(c, sendbuf, recvbuf, count, datatype, op, true,
                               &type, &oparg, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout recv = layout(type, recvbuf, count);
  if (c->is_inter) {
    return run_collective(
        c,
        inter::allreduce(*c, layout(type, sendbuf, count), recv, type, oparg,
                         static_cast<std::size_t>(count)),
        {{type}, oparg, true}, request, fn);
  }
  const Layout send =
      sendbuf == MPI_IN_PLACE ? recv : layout(type, sendbuf, count);
  const auto n = static_cast<std::size_t>(count);
  const bool hierarchy = oparg.commutative && algo::spans_numa_nodes(*c);
  if (request == nullptr && !hierarchy) {
    if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (algo::allreduce_now(*c, send, recv, type, oparg, n)) {
      return MPI_SUCCESS;
    }
  }
  return run_collective(
      c,
      hierarchy ? algo::numa_allreduce(*c, send, recv, type, oparg, n)
                : algo::allreduce(*c, send, recv, type, oparg, n),
      Holds{{type}, oparg, true}, request, fn);
}

int do_gather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int root, MPI_Comm comm, MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    // The root receives a block from every remote member; the remote
    // members send.
    TypeArg stype;
    TypeArg rtype;
    Layout send{};
    std::vector<Layout> blocks;
    if (root == MPI_ROOT) {
      if (recvbuf == MPI_IN_PLACE) {
        return check_in_place(c, recvbuf, fn);
      }
      if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      for (int r = 0; r < c->remote_size; ++r) {
        blocks.push_back(rtype.layout(
            static_cast<std::byte*>(recvbuf) + r * recvcount * rtype.extent,
            static_cast<std::size_t>(recvcount)));
      }
    } else if (root != MPI_PROC_NULL) {
      if (sendbuf == MPI_IN_PLACE) {
        return check_in_place(c, sendbuf, fn);
      }
      if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      send = layout(stype, sendbuf, sendcount);
    }
    return run_collective(c, inter::gatherv(*c, send, std::move(blocks), root),
                          {{stype, rtype}, {}, false}, request, fn);
  }
  const bool is_root = c->rank == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  if (!is_root && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, fn);
  }
  TypeArg stype;
  TypeArg rtype;
  if (!in_place) {
    if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  Layout recv{};
  if (is_root) {
    if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    recv = layout(rtype, recvbuf, recvcount * c->size);
    const std::size_t each = rtype.bytes(static_cast<std::size_t>(recvcount));
    if (!in_place && stype.bytes(static_cast<std::size_t>(sendcount)) != each) {
      return size_mismatch(c, stype.bytes(static_cast<std::size_t>(sendcount)),
                           each, fn);
    }
  }
  const Layout send =
      in_place
          ? Layout{nullptr, rtype.bytes(static_cast<std::size_t>(recvcount)),
                   nullptr}
          : layout(stype, sendbuf, sendcount);
  return run_collective(c, algo::gather(*c, send, recv, root, in_place),
                        Holds{{stype, rtype}, {}, false}, request, fn);
}

int do_gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, const int* recvcounts, const int* displs,
               MPI_Datatype recvtype, int root, MPI_Comm comm,
               MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    TypeArg stype;
    TypeArg rtype;
    Layout send{};
    std::vector<Layout> blocks;
    if (root == MPI_ROOT) {
      if (recvbuf == MPI_IN_PLACE) {
        return check_in_place(c, recvbuf, fn);
      }
      if (int rc =
              check_blocks(c, recvbuf, recvcounts, displs, recvtype,
                           c->remote_size, "recvcounts", &rtype, &blocks, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
    } else if (root != MPI_PROC_NULL) {
      if (sendbuf == MPI_IN_PLACE) {
        return check_in_place(c, sendbuf, fn);
      }
      if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      send = layout(stype, sendbuf, sendcount);
    }
    return run_collective(c, inter::gatherv(*c, send, std::move(blocks), root),
                          {{stype, rtype}, {}, false}, request, fn);
  }
  const bool is_root = c->rank == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  if (!is_root && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, fn);
  }
  TypeArg stype;
  TypeArg rtype;
  if (!in_place) {
    if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  std::vector<Layout> blocks;
  if (is_root) {
    if (int rc = check_blocks(c, recvbuf, recvcounts, displs, recvtype, c->size,
                              "recvcounts", &rtype, &blocks, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    const std::size_t mine = blocks[static_cast<std::size_t>(root)].bytes;
    if (!in_place && stype.bytes(static_cast<std::size_t>(sendcount)) != mine) {
      return size_mismatch(c, stype.bytes(static_cast<std::size_t>(sendcount)),
                           mine, fn);
    }
  }
  const Layout send = in_place ? Layout{} : layout(stype, sendbuf, sendcount);
  return run_collective(
      c, algo::gatherv(*c, send, std::move(blocks), root, in_place),
      Holds{{stype, rtype}, {}, false}, request, fn);
}

int do_scatter(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
               int root, MPI_Comm comm, MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    // The root sends a block to every remote member; they receive.
    TypeArg stype;
    TypeArg rtype;
    Layout recv{};
    std::vector<Layout> blocks;
    if (root == MPI_ROOT) {
      if (sendbuf == MPI_IN_PLACE) {
        return check_in_place(c, sendbuf, fn);
      }
      if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      for (int r = 0; r < c->remote_size; ++r) {
        blocks.push_back(stype.layout(static_cast<const std::byte*>(sendbuf) +
                                          r * sendcount * stype.extent,
                                      static_cast<std::size_t>(sendcount)));
      }
    } else if (root != MPI_PROC_NULL) {
      if (recvbuf == MPI_IN_PLACE) {
        return check_in_place(c, recvbuf, fn);
      }
      if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      recv = layout(rtype, recvbuf, recvcount);
    }
    return run_collective(c, inter::scatterv(*c, std::move(blocks), recv, root),
                          {{stype, rtype}, {}, false}, request, fn);
  }
  const bool is_root = c->rank == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  if (!is_root && recvbuf == MPI_IN_PLACE) {
    return check_in_place(c, recvbuf, fn);
  }
  TypeArg stype;
  TypeArg rtype;
  Layout send{};
  std::size_t each = 0;
  if (is_root) {
    if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    send = layout(stype, sendbuf, sendcount * c->size);
    each = stype.bytes(static_cast<std::size_t>(sendcount));
  }
  Layout recv{nullptr, each, nullptr};
  if (!in_place) {
    if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    recv = layout(rtype, recvbuf, recvcount);
    if (is_root && recv.bytes != each) {
      return size_mismatch(c, each, recv.bytes, fn);
    }
  }
  return run_collective(c, algo::scatter(*c, send, recv, root, in_place),
                        Holds{{stype, rtype}, {}, false}, request, fn);
}

int do_scatterv(const void* sendbuf, const int* sendcounts, const int* displs,
                MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_root(c, root, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    TypeArg stype;
    TypeArg rtype;
    Layout recv{};
    std::vector<Layout> blocks;
    if (root == MPI_ROOT) {
      if (sendbuf == MPI_IN_PLACE) {
        return check_in_place(c, sendbuf, fn);
      }
      if (int rc =
              check_blocks(c, sendbuf, sendcounts, displs, sendtype,
                           c->remote_size, "sendcounts", &stype, &blocks, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
    } else if (root != MPI_PROC_NULL) {
      if (recvbuf == MPI_IN_PLACE) {
        return check_in_place(c, recvbuf, fn);
      }
      if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
          rc != MPI_SUCCESS) {
        return rc;
      }
      recv = layout(rtype, recvbuf, recvcount);
    }
    return run_collective(c, inter::scatterv(*c, std::move(blocks), recv, root),
                          {{stype, rtype}, {}, false}, request, fn);
  }
  const bool is_root = c->rank == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  if (!is_root && recvbuf == MPI_IN_PLACE) {
    return check_in_place(c, recvbuf, fn);
  }
  TypeArg stype;
  TypeArg rtype;
  std::vector<Layout> blocks;
  if (is_root) {
    if (int rc = check_blocks(c, sendbuf, sendcounts, displs, sendtype, c->size,
                              "sendcounts", &stype, &blocks, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  Layout recv{};
  if (!in_place) {
    if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    recv = layout(rtype, recvbuf, recvcount);
    if (is_root && recv.bytes != blocks[static_cast<std::size_t>(root)].bytes) {
      return size_mismatch(c, blocks[static_cast<std::size_t>(root)].bytes,
                           recv.bytes, fn);
    }
  }
  return run_collective(
      c, algo::scatterv(*c, std::move(blocks), recv, root, in_place),
      Holds{{stype, rtype}, {}, false}, request, fn);
}

int do_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, const int* recvcounts, const int* displs,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request,
                  const char* fn, bool uniform, int recvcount) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool in_place = sendbuf == MPI_IN_PLACE;
  TypeArg stype;
  TypeArg rtype;
  if (!in_place) {
    if (int rc = check_data(c, sendbuf, sendcount, sendtype, &stype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (uniform) {
    if (int rc = check_data(c, recvbuf, recvcount, recvtype, &rtype, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  } else {
    if (int rc =
            check_blocks(c, recvbuf, recvcounts, displs, recvtype,
                         c->remote_size, "recvcounts", &rtype, nullptr, fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (c->is_inter) {
    // Every member sends its block to every remote member and gets theirs.
    if (in_place) {
      return check_in_place(c, sendbuf, fn);
    }
    std::vector<Layout> blocks;
    for (int r = 0; r < c->remote_size; ++r) {
      blocks.push_back(uniform
                           ? rtype.layout(static_cast<std::byte*>(recvbuf) +
                                              static_cast<std::ptrdiff_t>(r) *
                                                  recvcount * rtype.extent,
                                          static_cast<std::size_t>(recvcount))
                           : block(rtype, recvbuf, recvcounts[r], displs[r]));
    }
    return run_collective(
        c,
        inter::allgatherv(*c, layout(stype, sendbuf, sendcount),
                          std::move(blocks)),
        {{stype, rtype}, {}, false}, request, fn);
  }
  std::vector<Layout> blocks;
  for (int m = 0; m < c->size; ++m) {
    blocks.push_back(uniform ? block(rtype, recvbuf, recvcount, m * recvcount)
                             : block(rtype, recvbuf, recvcounts[m], displs[m]));
  }
  const Layout& own = blocks[static_cast<std::size_t>(c->rank)];
  if (!in_place &&
      stype.bytes(static_cast<std::size_t>(sendcount)) != own.bytes) {
    return size_mismatch(c, stype.bytes(static_cast<std::size_t>(sendcount)),
                         own.bytes, fn);
  }
  const Layout send = in_place ? own : layout(stype, sendbuf, sendcount);
  return run_collective(c,
                        algo::allgatherv(*c, send, std::move(blocks), in_place),
                        Holds{{stype, rtype}, {}, false}, request, fn);
}

// Alltoall, alltoallv and alltoallw: per-peer counts, displacements
// (elements of the type for v, bytes for w) and types.
struct AlltoallArgs {
  const void* sendbuf;
  const int* sendcounts;
  const int* sdispls;
  const MPI_Datatype* sendtypes;
  void* recvbuf;
  const int* recvcounts;
  const int* rdispls;
  const MPI_Datatype* recvtypes;
  bool byte_displs;  // alltoallw
  bool uniform;      // MPI_Alltoall: every block the same size everywhere
};

int do_alltoall_any(Comm* c, const AlltoallArgs& a, MPI_Request* request,
                    const char* fn) {
  const int n = c->peer_count();  // the remote group's size on an intercomm
  const bool in_place = a.sendbuf == MPI_IN_PLACE;
  if (c->is_inter && in_place) {
    return check_in_place(c, a.sendbuf, fn);
  }
  Holds holds;
  std::vector<Layout> sends(static_cast<std::size_t>(n));
  std::vector<Layout> recvs(static_cast<std::size_t>(n));
  auto place = [&](const TypeArg& t, const void* buf, int count, int displ) {
    if (!a.byte_displs) {
      return block(t, buf, count, displ);
    }
    return t.layout(static_cast<const std::byte*>(buf) + displ,
                    static_cast<std::size_t>(count));
  };
  for (int side = 0; side < 2; ++side) {
    const bool is_send = side == 0;
    if (is_send && in_place) {
      continue;
    }
    const int* counts = is_send ? a.sendcounts : a.recvcounts;
    const int* displs = is_send ? a.sdispls : a.rdispls;
    const MPI_Datatype* types = is_send ? a.sendtypes : a.recvtypes;
    const void* buf = is_send ? a.sendbuf : a.recvbuf;
    if (int rc = check_counts(c, counts, n,
                              is_send ? "sendcounts" : "recvcounts", fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    if (displs == nullptr || types == nullptr) {
      return fail(c, MPI_ERR_ARG, fn, "displacements or types are NULL");
    }
    for (int j = 0; j < n; ++j) {
      TypeArg t;
      if (int rc = check_datatype(c, types[j], &t, fn); rc != MPI_SUCCESS) {
        return rc;
      }
      if (counts[j] > 0 && buf == nullptr) {
        return check_buffer(c, buf, counts[j], fn);
      }
      (is_send ? sends : recvs)[static_cast<std::size_t>(j)] =
          place(t, buf, counts[j], displs[j]);
      holds.types.push_back(t);
    }
  }
  if (c->is_inter) {
    return run_collective(
        c, inter::alltoallv(*c, std::move(sends), std::move(recvs)),
        std::move(holds), request, fn);
  }
  if (in_place) {
    // Sent with the receive arguments, from where the data comes back to:
    // every round packs a piece before it unpacks the same piece's reply.
    sends = recvs;
  }
  if (sends[static_cast<std::size_t>(c->rank)].bytes !=
      recvs[static_cast<std::size_t>(c->rank)].bytes) {
    return size_mismatch(c, sends[static_cast<std::size_t>(c->rank)].bytes,
                         recvs[static_cast<std::size_t>(c->rank)].bytes, fn);
  }
  return run_collective(
      c, algo::alltoallv(*c, std::move(sends), std::move(recvs), a.uniform),
      std::move(holds), request, fn);
}

// A blocking MPI_Alltoall of predefined types on an intracommunicator whose
// blocks fit one inline round: that round straight through (algo::
// alltoall_now), without building the per-member arguments of alltoallv
// and its coroutine. *done false, having done nothing, when it does not
// apply or an argument is wrong; the general path then runs (and reports
// the error).
int alltoall_now(Comm* c, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, const char* fn, bool* done) {
  *done = false;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const datatype::BasicType* rtype = find_type(recvtype);
  const datatype::BasicType* stype = in_place ? rtype : find_type(sendtype);
  const int scount = in_place ? recvcount : sendcount;
  const void* sbuf = in_place ? recvbuf : sendbuf;
  if (rtype == nullptr || stype == nullptr || scount < 0 || recvcount < 0 ||
      (scount > 0 && sbuf == nullptr) ||
      (recvcount > 0 && recvbuf == nullptr)) {
    return MPI_SUCCESS;
  }
  const auto block = static_cast<std::size_t>(scount) *
                     static_cast<std::size_t>(stype->extent);
  if (block != static_cast<std::size_t>(recvcount) *
                   static_cast<std::size_t>(rtype->extent) ||
      block * static_cast<std::size_t>(c->size - 1) > algo::kInline) {
    return MPI_SUCCESS;
  }
  if (int rc = enter_blocking(c, fn); rc != MPI_SUCCESS) {
    *done = true;
    return rc;
  }
  *done = algo::alltoall_now(*c, static_cast<const std::byte*>(sbuf),
                             static_cast<std::byte*>(recvbuf), block);
  return MPI_SUCCESS;
}

int do_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                void* recvbuf, int recvcount, MPI_Datatype recvtype,
                MPI_Comm comm, MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (request == nullptr && !c->is_inter) {
    bool done = false;
    int rc = alltoall_now(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, fn, &done);
    if (done) {
      return rc;
    }
  }
  const auto n = static_cast<std::size_t>(c->peer_count());
  std::vector<int> scounts(n, sendcount);
  std::vector<int> rcounts(n, recvcount);
  std::vector<int> sdispls(n);
  std::vector<int> rdispls(n);
  for (std::size_t j = 0; j < n; ++j) {
    sdispls[j] = static_cast<int>(j) * sendcount;
    rdispls[j] = static_cast<int>(j) * recvcount;
  }
  std::vector<MPI_Datatype> stypes(n, sendtype);
  std::vector<MPI_Datatype> rtypes(n, recvtype);
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_count(c, sendcount, fn); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (int rc = check_count(c, recvcount, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  return do_alltoall_any(
      c,
      AlltoallArgs{sendbuf, scounts.data(), sdispls.data(), stypes.data(),
                   recvbuf, rcounts.data(), rdispls.data(), rtypes.data(),
                   false, true},
      request, fn);
}

int do_alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                 const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                 MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  const auto n = static_cast<std::size_t>(c->peer_count());
  std::vector<MPI_Datatype> stypes(n, sendtype);
  std::vector<MPI_Datatype> rtypes(n, recvtype);
  return do_alltoall_any(
      c,
      AlltoallArgs{sendbuf, sendcounts, sdispls, stypes.data(), recvbuf,
                   recvcounts, rdispls, rtypes.data(), false, false},
      request, fn);
}

int do_alltoallw(const void* sendbuf, const int* sendcounts, const int* sdispls,
                 const MPI_Datatype* sendtypes, void* recvbuf,
                 const int* recvcounts, const int* rdispls,
                 const MPI_Datatype* recvtypes, MPI_Comm comm,
                 MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  return do_alltoall_any(
      c,
      AlltoallArgs{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, true, false},
      request, fn);
}

int do_reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts,
                      int uniform_count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request* request, const char* fn) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter && sendbuf == MPI_IN_PLACE) {
    return check_in_place(c, sendbuf, fn);
  }
  // On an intercommunicator too: one count per member of the local group,
  // which gets that block of the remote group's reduction.
  const auto n = static_cast<std::size_t>(c->size);
  std::vector<std::size_t> counts(n);
  if (recvcounts != nullptr || uniform_count < 0) {
    if (int rc = check_counts(c, recvcounts, c->size, "recvcounts", fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
    for (std::size_t j = 0; j < n; ++j) {
      counts[j] = static_cast<std::size_t>(recvcounts[j]);
    }
  } else {
    if (int rc = check_count(c, uniform_count, fn); rc != MPI_SUCCESS) {
      return rc;
    }
    std::fill(counts.begin(), counts.end(),
              static_cast<std::size_t>(uniform_count));
  }
  std::size_t total = 0;
  for (std::size_t j : counts) {
    total += j;
  }
  const std::size_t mine = counts[static_cast<std::size_t>(c->rank)];
  TypeArg type;
  OpArg oparg;
  if (int rc = check_count(c, static_cast<MPI_Count>(total), fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_datatype(c, datatype, &type, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_op(c, op, type, &oparg, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_buffer(c, sendbuf, static_cast<MPI_Count>(total), fn);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (int rc = check_buffer(c, recvbuf, static_cast<MPI_Count>(mine), fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout recv = layout(type, recvbuf, static_cast<MPI_Count>(mine));
  const Layout send = layout(type, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
                             static_cast<MPI_Count>(total));
  if (c->is_inter) {
    return run_collective(
        c,
        inter::reduce_scatter(*c, send, recv, type, oparg, std::move(counts)),
        {{type}, oparg, true}, request, fn);
  }
  return run_collective(
      c, algo::reduce_scatter(*c, send, recv, type, oparg, std::move(counts)),
      Holds{{type}, oparg, true}, request, fn);
}

int do_scan(const void* sendbuf, void* recvbuf, MPI_Count count,
            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
            MPI_Request* request, const char* fn, bool exclusive) {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, fn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    return fail(c, MPI_ERR_COMM, fn, "not defined on an intercommunicator");
  }
  TypeArg type;
  OpArg oparg;
  if (int rc = check_reduction(c, sendbuf, recvbuf, count, datatype, op, true,
                               &type, &oparg, fn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const Layout recv = layout(type, recvbuf, count);
  const Layout send =
      sendbuf == MPI_IN_PLACE ? recv : layout(type, sendbuf, count);
  return run_collective(c,
                        algo::scan(*c, send, recv, type, oparg,
                                   static_cast<std::size_t>(count), exclusive),
                        Holds{{type}, oparg, true}, request, fn);
}

}  // namespace

// ---- entry points ----

extern "C" int PMPI_Barrier(MPI_Comm comm) noexcept {
  return do_barrier(comm, nullptr, "MPI_Barrier");
}
SHMPI_PMPI_ALIAS(MPI_Barrier);

extern "C" int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) noexcept {
  if (request == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Ibarrier", "request is NULL");
  }
  return do_barrier(comm, request, "MPI_Ibarrier");
}
SHMPI_PMPI_ALIAS(MPI_Ibarrier);

extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype,
                          int root, MPI_Comm comm) noexcept {
  return do_bcast(buffer, count, datatype, root, comm, nullptr, "MPI_Bcast");
}
SHMPI_PMPI_ALIAS(MPI_Bcast);

extern "C" int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype,
                           int root, MPI_Comm comm,
                           MPI_Request* request) noexcept {
  return do_bcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast");
}
SHMPI_PMPI_ALIAS(MPI_Ibcast);

extern "C" int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm) noexcept {
  return do_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, nullptr,
                   "MPI_Reduce");
}
SHMPI_PMPI_ALIAS(MPI_Reduce);

extern "C" int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request* request) noexcept {
  return do_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                   "MPI_Ireduce");
}
SHMPI_PMPI_ALIAS(MPI_Ireduce);

extern "C" int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) noexcept {
  return do_allreduce(sendbuf, recvbuf, count, datatype, op, comm, nullptr,
                      "MPI_Allreduce");
}
SHMPI_PMPI_ALIAS(MPI_Allreduce);

extern "C" int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request* request) noexcept {
  return do_allreduce(sendbuf, recvbuf, count, datatype, op, comm, request,
                      "MPI_Iallreduce");
}
SHMPI_PMPI_ALIAS(MPI_Iallreduce);

extern "C" int PMPI_Gather(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root,
                           MPI_Comm comm) noexcept {
  return do_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, nullptr, "MPI_Gather");
}
SHMPI_PMPI_ALIAS(MPI_Gather);

extern "C" int PMPI_Igather(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request* request) noexcept {
  return do_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, request, "MPI_Igather");
}
SHMPI_PMPI_ALIAS(MPI_Igather);

extern "C" int PMPI_Gatherv(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root,
                            MPI_Comm comm) noexcept {
  return do_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, root, comm, nullptr, "MPI_Gatherv");
}
SHMPI_PMPI_ALIAS(MPI_Gatherv);

extern "C" int PMPI_Igatherv(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request* request) noexcept {
  return do_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, root, comm, request, "MPI_Igatherv");
}
SHMPI_PMPI_ALIAS(MPI_Igatherv);

extern "C" int PMPI_Scatter(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root,
                            MPI_Comm comm) noexcept {
  return do_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm, nullptr, "MPI_Scatter");
}
SHMPI_PMPI_ALIAS(MPI_Scatter);

extern "C" int PMPI_Iscatter(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request* request) noexcept {
  return do_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm, request, "MPI_Iscatter");
}
SHMPI_PMPI_ALIAS(MPI_Iscatter);

extern "C" int PMPI_Scatterv(const void* sendbuf, const int sendcounts[],
                             const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root,
                             MPI_Comm comm) noexcept {
  return do_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                     recvtype, root, comm, nullptr, "MPI_Scatterv");
}
SHMPI_PMPI_ALIAS(MPI_Scatterv);

extern "C" int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[],
                              const int displs[], MPI_Datatype sendtype,
                              void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request* request) noexcept {
  return do_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                     recvtype, root, comm, request, "MPI_Iscatterv");
}
SHMPI_PMPI_ALIAS(MPI_Iscatterv);

extern "C" int PMPI_Allgather(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) noexcept {
  return do_allgatherv(sendbuf, sendcount, sendtype, recvbuf, nullptr, nullptr,
                       recvtype, comm, nullptr, "MPI_Allgather", true,
                       recvcount);
}
SHMPI_PMPI_ALIAS(MPI_Allgather);

extern "C" int PMPI_Iallgather(const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request* request) noexcept {
  return do_allgatherv(sendbuf, sendcount, sendtype, recvbuf, nullptr, nullptr,
                       recvtype, comm, request, "MPI_Iallgather", true,
                       recvcount);
}
SHMPI_PMPI_ALIAS(MPI_Iallgather);

extern "C" int PMPI_Allgatherv(const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm) noexcept {
  return do_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, comm, nullptr, "MPI_Allgatherv", false,
                       0);
}
SHMPI_PMPI_ALIAS(MPI_Allgatherv);

extern "C" int PMPI_Iallgatherv(const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request* request) noexcept {
  return do_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, comm, request, "MPI_Iallgatherv",
                       false, 0);
}
SHMPI_PMPI_ALIAS(MPI_Iallgatherv);

extern "C" int PMPI_Alltoall(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) noexcept {
  return do_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm, nullptr, "MPI_Alltoall");
}
SHMPI_PMPI_ALIAS(MPI_Alltoall);

extern "C" int PMPI_Ialltoall(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request* request) noexcept {
  return do_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm, request, "MPI_Ialltoall");
}
SHMPI_PMPI_ALIAS(MPI_Ialltoall);

extern "C" int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm) noexcept {
  return do_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                      recvcounts, rdispls, recvtype, comm, nullptr,
                      "MPI_Alltoallv");
}
SHMPI_PMPI_ALIAS(MPI_Alltoallv);

extern "C" int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[],
                               const int sdispls[], MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request* request) noexcept {
  return do_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                      recvcounts, rdispls, recvtype, comm, request,
                      "MPI_Ialltoallv");
}
SHMPI_PMPI_ALIAS(MPI_Ialltoallv);

extern "C" int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[],
                              const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[],
                              MPI_Comm comm) noexcept {
  return do_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                      recvcounts, rdispls, recvtypes, comm, nullptr,
                      "MPI_Alltoallw");
}
SHMPI_PMPI_ALIAS(MPI_Alltoallw);

extern "C" int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[],
                               const int sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf,
                               const int recvcounts[], const int rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request* request) noexcept {
  return do_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                      recvcounts, rdispls, recvtypes, comm, request,
                      "MPI_Ialltoallw");
}
SHMPI_PMPI_ALIAS(MPI_Ialltoallw);

extern "C" int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf,
                                   const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm) noexcept {
  return do_reduce_scatter(sendbuf, recvbuf, recvcounts, -1, datatype, op, comm,
                           nullptr, "MPI_Reduce_scatter");
}
SHMPI_PMPI_ALIAS(MPI_Reduce_scatter);

extern "C" int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf,
                                    const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm,
                                    MPI_Request* request) noexcept {
  return do_reduce_scatter(sendbuf, recvbuf, recvcounts, -1, datatype, op, comm,
                           request, "MPI_Ireduce_scatter");
}
SHMPI_PMPI_ALIAS(MPI_Ireduce_scatter);

extern "C" int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf,
                                         int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm) noexcept {
  return do_reduce_scatter(sendbuf, recvbuf, nullptr, recvcount, datatype, op,
                           comm, nullptr, "MPI_Reduce_scatter_block");
}
SHMPI_PMPI_ALIAS(MPI_Reduce_scatter_block);

extern "C" int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf,
                                          int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm,
                                          MPI_Request* request) noexcept {
  return do_reduce_scatter(sendbuf, recvbuf, nullptr, recvcount, datatype, op,
                           comm, request, "MPI_Ireduce_scatter_block");
}
SHMPI_PMPI_ALIAS(MPI_Ireduce_scatter_block);

extern "C" int PMPI_Scan(const void* sendbuf, void* recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) noexcept {
  return do_scan(sendbuf, recvbuf, count, datatype, op, comm, nullptr,
                 "MPI_Scan", false);
}
SHMPI_PMPI_ALIAS(MPI_Scan);

extern "C" int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Request* request) noexcept {
  return do_scan(sendbuf, recvbuf, count, datatype, op, comm, request,
                 "MPI_Iscan", false);
}
SHMPI_PMPI_ALIAS(MPI_Iscan);

extern "C" int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm) noexcept {
  return do_scan(sendbuf, recvbuf, count, datatype, op, comm, nullptr,
                 "MPI_Exscan", true);
}
SHMPI_PMPI_ALIAS(MPI_Exscan);

extern "C" int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            MPI_Request* request) noexcept {
  return do_scan(sendbuf, recvbuf, count, datatype, op, comm, request,
                 "MPI_Iexscan", true);
}
SHMPI_PMPI_ALIAS(MPI_Iexscan);
