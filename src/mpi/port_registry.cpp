// SPDX-License-Identifier: MIT
// The port and name registry's making and lookups (mpi/port_registry.hpp).
#include "mpi/port_registry.hpp"

#include <cstring>
#include <new>

#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::mpi::ports {

Registry* registry() {
  const segment::Segment& segment = state().runtime->segment();
  auto* root = segment.at<RegistryRoot>(segment.layout().scratch_offset +
                                        kRootInScratch);
  // Acquire: pairs with the release of the compare-exchange below, so the
  // registry it names is seen constructed.
  std::uint64_t offset = root->registry_offset.load(std::memory_order_acquire);
  if (offset != 0) {
    return at<Registry>(offset);
  }
  // Unpopulated: the name table is mostly untouched.
  void* memory =
      segment.heap().allocate_aligned(sizeof(Registry), kFalseSharingRange);
  if (memory == nullptr) {
    return nullptr;
  }
  std::memset(memory, 0, sizeof(Registry));
  auto* fresh = new (memory) Registry;
  fresh->next_port_serial = 1;
  fresh->next_connection = 1;
  for (PortEntry& port : fresh->ports) {
    port.accept_waiter = -1;
  }
  std::uint64_t expected = 0;
  // Release on success: publishes the constructed registry (pairs with the
  // acquire load above in other processes). Acquire on failure: the
  // winner's registry is then seen constructed.
  if (root->registry_offset.compare_exchange_strong(
          expected, offset_of(fresh), std::memory_order_acq_rel,
          std::memory_order_acquire)) {
    return fresh;
  }
  fresh->~Registry();
  segment.heap().deallocate(memory);
  return at<Registry>(expected);
}

PortEntry* find_port(Registry& r, const char* name) {
  // Longer names were never made here (strnlen stops at the terminator).
  if (name == nullptr || name[0] == '\0' ||
      ::strnlen(name, kPortNameBytes) == kPortNameBytes) {
    return nullptr;
  }
  for (PortEntry& port : r.ports) {
    if (std::strcmp(port.name, name) == 0) {
      return &port;
    }
  }
  return nullptr;
}

void wake_slot(std::uint32_t slot) {
  segment::wake_if_sleeping(state().engine->control(slot));
}

}  // namespace shmpi::mpi::ports
