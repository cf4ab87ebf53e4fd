// SPDX-License-Identifier: MIT
// Core and NUMA placement of rank processes. The only user of hwloc: callers
// see logical core and NUMA-node indexes (hwloc's logical order, which keeps
// the cores of one NUMA node together), never hwloc objects.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/result.hpp"

namespace shmpi::topo {

enum class BindPolicy { kCore, kNuma, kNone };

// Where a process was bound. -1 means "not bound at that level": kNuma
// placement has core == -1, kNone has both -1.
struct Placement {
  int core = -1;
  int numa_node = -1;
};

// A loaded machine topology. Loading reads sysfs (a few milliseconds), so
// load once and keep it; a fork()ed child may use its parent's copy.
//
// Honours hwloc's own environment: with HWLOC_SYNTHETIC set (for example
// "package:2 numa:1 core:4 pu:1"), load() builds that synthetic machine
// instead, and binding calls succeed without binding anything. That is how
// multi-NUMA placement is unit-tested on a one-node machine.
//
// Not thread-safe: one thread at a time per Topology.
class Topology {
 public:
  // The machine this process may run on (cgroup/affinity restrictions
  // applied), or the HWLOC_SYNTHETIC machine.
  static Result<Topology> load();
  // A synthetic machine in hwloc's synthetic syntax, whatever the env says.
  static Result<Topology> load_synthetic(const std::string& description);

  Topology(Topology&& other) noexcept;
  Topology& operator=(Topology&& other) noexcept;
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;
  ~Topology();

  // At least 1 each. Where hwloc reports no cores, each PU counts as a core.
  int core_count() const noexcept;
  int numa_count() const noexcept;
  // Logical NUMA node holding `core`, or -1 if core is out of range.
  int numa_node_of_core(int core) const noexcept;
  // Where rank `rank` of `nranks` goes under `policy`, without binding:
  // kCore picks core rank mod core_count() (wrapping when ranks outnumber
  // cores), kNuma the NUMA node of that same core.
  Placement placement_for(int rank, int nranks,
                          BindPolicy policy) const noexcept;
  // Binds the calling process (all its threads) to placement_for(...).
  // Returns the placement, or an error if the kernel refused the binding.
  Result<Placement> bind_current_process(int rank, int nranks,
                                         BindPolicy policy) const;
  // Places the pages of [address, address + bytes) (rounded out to whole
  // pages) on `numa_node` (hwloc_set_area_membind without STRICT: Linux
  // MPOL_PREFERRED, so a full node spills over instead of failing). On a shared
  // file mapping such as the job's memfd the policy belongs to the file, so
  // it holds for every process that maps it. No-op on a synthetic topology.
  Result<void> bind_memory(void* address, std::size_t bytes,
                           int numa_node) const;
  // Bytes of the smallest level-2 cache among the cores hwloc reports
  // (the cache one core writes through first), or 0 when it reports none
  // (or the machine is synthetic).
  std::size_t l2_cache_bytes() const noexcept;
  // NUMA node of the CPU the calling thread last ran on, or -1 if unknown
  // (always -1 for a synthetic topology).
  int current_numa_node() const noexcept;
  bool is_synthetic() const noexcept;

 private:
  struct Impl;
  explicit Topology(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Convenience functions over one process-wide Topology, loaded on first use
// (benchmarks pin with these). They return 1 / {-1,-1} / -1 if hwloc cannot
// load a topology.
int core_count();
int numa_count();
Placement bind_current_process(int rank, int nranks, BindPolicy policy);
int current_numa_node();

}  // namespace shmpi::topo
