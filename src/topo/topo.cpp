// SPDX-License-Identifier: MIT
#include "topo/topo.hpp"

#include <hwloc.h>
#include <unistd.h>

#include <utility>
#include <vector>

namespace shmpi::topo {

namespace {

constexpr int kErrOther = 16;  // MPI_ERR_OTHER (mpi_abi.h)

struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* bitmap) const noexcept {
    hwloc_bitmap_free(bitmap);
  }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

}  // namespace

// Cores and NUMA nodes are copied out of hwloc once at load, so the queries
// below are plain vector lookups.
struct Topology::Impl {
  hwloc_topology_t topology = nullptr;
  bool synthetic = false;
  std::vector<Bitmap> core_cpusets;   // by logical core index
  std::vector<int> core_numa;         // logical NUMA node of each core
  std::vector<Bitmap> numa_cpusets;   // by logical NUMA index
  std::vector<Bitmap> numa_nodesets;  // the same nodes as memory nodesets

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  Impl(Impl&&) = delete;
  Impl& operator=(Impl&&) = delete;

  ~Impl() {
    core_cpusets.clear();
    numa_cpusets.clear();
    numa_nodesets.clear();
    if (topology != nullptr) {
      hwloc_topology_destroy(topology);
    }
  }

  int numa_of_cpuset(hwloc_const_cpuset_t cpuset) const noexcept {
    for (std::size_t node = 0; node < numa_cpusets.size(); ++node) {
      if (hwloc_bitmap_intersects(cpuset, numa_cpusets[node].get()) != 0) {
        return static_cast<int>(node);
      }
    }
    return -1;
  }

  Result<void> load_and_index();
};

// Loads the topology `topology` was configured for and indexes it.
Result<void> Topology::Impl::load_and_index() {
  if (hwloc_topology_load(topology) != 0) {
    return Err{kErrOther, "hwloc cannot load the machine topology"};
  }
  synthetic = hwloc_topology_is_thissystem(topology) == 0;
  int numa_nodes = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
  for (int node = 0; node < numa_nodes; ++node) {
    hwloc_obj_t object = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE,
                                               static_cast<unsigned>(node));
    numa_cpusets.emplace_back(hwloc_bitmap_dup(object->cpuset));
    numa_nodesets.emplace_back(hwloc_bitmap_dup(object->nodeset));
  }
  hwloc_obj_type_t core_type = HWLOC_OBJ_CORE;
  if (hwloc_get_nbobjs_by_type(topology, core_type) <= 0) {
    core_type = HWLOC_OBJ_PU;  // some virtual machines report PUs only
  }
  int cores = hwloc_get_nbobjs_by_type(topology, core_type);
  for (int core = 0; core < cores; ++core) {
    hwloc_obj_t object =
        hwloc_get_obj_by_type(topology, core_type, static_cast<unsigned>(core));
    core_cpusets.emplace_back(hwloc_bitmap_dup(object->cpuset));
    int node = numa_of_cpuset(object->cpuset);
    core_numa.push_back(node < 0 ? 0 : node);
  }
  if (core_cpusets.empty() || numa_cpusets.empty()) {
    return Err{kErrOther, "hwloc reports no cores or no NUMA nodes"};
  }
  return {};
}

Topology::Topology(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Topology::Topology(Topology&& other) noexcept = default;
Topology& Topology::operator=(Topology&& other) noexcept = default;
Topology::~Topology() = default;

Result<Topology> Topology::load() {
  auto impl = std::make_unique<Impl>();
  if (hwloc_topology_init(&impl->topology) != 0) {
    return Err{kErrOther, "hwloc cannot initialize a topology"};
  }
  // hwloc_topology_load() itself honours HWLOC_SYNTHETIC and HWLOC_XMLFILE.
  if (auto indexed = impl->load_and_index(); !indexed) {
    return indexed.error();
  }
  return Topology(std::move(impl));
}

Result<Topology> Topology::load_synthetic(const std::string& description) {
  auto impl = std::make_unique<Impl>();
  if (hwloc_topology_init(&impl->topology) != 0) {
    return Err{kErrOther, "hwloc cannot initialize a topology"};
  }
  if (hwloc_topology_set_synthetic(impl->topology, description.c_str()) != 0) {
    return Err{kErrOther, "hwloc rejects the synthetic topology description"};
  }
  if (auto indexed = impl->load_and_index(); !indexed) {
    return indexed.error();
  }
  return Topology(std::move(impl));
}

int Topology::core_count() const noexcept {
  return static_cast<int>(impl_->core_cpusets.size());
}

int Topology::numa_count() const noexcept {
  return static_cast<int>(impl_->numa_cpusets.size());
}

std::size_t Topology::l2_cache_bytes() const noexcept {
  if (impl_->synthetic) {
    return 0;
  }
  std::size_t smallest = 0;
  const int caches =
      hwloc_get_nbobjs_by_type(impl_->topology, HWLOC_OBJ_L2CACHE);
  for (int i = 0; i < caches; ++i) {
    hwloc_obj_t cache = hwloc_get_obj_by_type(
        impl_->topology, HWLOC_OBJ_L2CACHE, static_cast<unsigned>(i));
    const auto bytes = static_cast<std::size_t>(cache->attr->cache.size);
    if (bytes != 0 && (smallest == 0 || bytes < smallest)) {
      smallest = bytes;
    }
  }
  return smallest;
}

bool Topology::is_synthetic() const noexcept { return impl_->synthetic; }

int Topology::numa_node_of_core(int core) const noexcept {
  if (core < 0 || core >= core_count()) {
    return -1;
  }
  return impl_->core_numa[static_cast<std::size_t>(core)];
}

Placement Topology::placement_for(int rank, int nranks,
                                  BindPolicy policy) const noexcept {
  (void)nranks;  // placement is round-robin; nranks is kept for future policies
  if (policy == BindPolicy::kNone || rank < 0) {
    return {};
  }
  int core = rank % core_count();
  int node = numa_node_of_core(core);
  if (policy == BindPolicy::kNuma) {
    return Placement{-1, node};
  }
  return Placement{core, node};
}

Result<Placement> Topology::bind_current_process(int rank, int nranks,
                                                 BindPolicy policy) const {
  Placement placement = placement_for(rank, nranks, policy);
  hwloc_const_cpuset_t cpuset = nullptr;
  if (placement.core >= 0) {
    cpuset =
        impl_->core_cpusets[static_cast<std::size_t>(placement.core)].get();
  } else if (placement.numa_node >= 0) {
    cpuset = impl_->numa_cpusets[static_cast<std::size_t>(placement.numa_node)]
                 .get();
  } else {
    return placement;
  }
  if (hwloc_set_cpubind(impl_->topology, cpuset, HWLOC_CPUBIND_PROCESS) != 0) {
    return Err{kErrOther, "cannot bind the process to its core or NUMA node"};
  }
  return placement;
}

Result<void> Topology::bind_memory(void* address, std::size_t bytes,
                                   int numa_node) const {
  if (numa_node < 0 || numa_node >= numa_count()) {
    return Err{kErrOther, "no such NUMA node"};
  }
  if (impl_->synthetic || bytes == 0) {
    return {};
  }
  // mbind works on whole pages: round the range out to them.
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(address) / page * page;
  const std::uintptr_t end =
      (reinterpret_cast<std::uintptr_t>(address) + bytes + page - 1) / page *
      page;
  if (hwloc_set_area_membind(
          impl_->topology, reinterpret_cast<const void*>(begin), end - begin,
          impl_->numa_nodesets[static_cast<std::size_t>(numa_node)].get(),
          HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET) != 0) {
    return Err{kErrOther, "cannot bind the memory to its NUMA node"};
  }
  return {};
}

int Topology::current_numa_node() const noexcept {
  if (impl_->synthetic) {
    return -1;
  }
  Bitmap where(hwloc_bitmap_alloc());
  if (!where || hwloc_get_last_cpu_location(impl_->topology, where.get(),
                                            HWLOC_CPUBIND_THREAD) != 0) {
    return -1;
  }
  return impl_->numa_of_cpuset(where.get());
}

namespace {

// The process-wide topology for the convenience functions: loaded on first
// use (never at static-initialization time), nullptr if hwloc failed.
const Topology* process_topology() {
  static const std::unique_ptr<Topology> topology =
      []() -> std::unique_ptr<Topology> {
    auto loaded = Topology::load();
    if (!loaded) {
      return nullptr;
    }
    return std::make_unique<Topology>(std::move(loaded.value()));
  }();
  return topology.get();
}

}  // namespace

int core_count() {
  const Topology* topology = process_topology();
  return topology != nullptr ? topology->core_count() : 1;
}

int numa_count() {
  const Topology* topology = process_topology();
  return topology != nullptr ? topology->numa_count() : 1;
}

Placement bind_current_process(int rank, int nranks, BindPolicy policy) {
  const Topology* topology = process_topology();
  if (topology == nullptr) {
    return {};
  }
  auto bound = topology->bind_current_process(rank, nranks, policy);
  return bound ? bound.value() : Placement{};
}

int current_numa_node() {
  const Topology* topology = process_topology();
  return topology != nullptr ? topology->current_numa_node() : -1;
}

}  // namespace shmpi::topo
