// SPDX-License-Identifier: MIT
// shmpirun: parse the command line, create the job's segment, and run the job
// on an io_uring (or epoll) event loop. Prints nothing when the job succeeds.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "launcher/event_loop.hpp"
#include "launcher/job.hpp"
#include "launcher/options.hpp"
#include "launcher/signals.hpp"
#include "segment/segment.hpp"
#include "topo/topo.hpp"

namespace {

constexpr int kUsageExit = 2;

void print_error(const std::string& message) {
  std::fprintf(stderr, "shmpirun: %s\n", message.c_str());
}

bool debug_enabled() {
  const char* debug = std::getenv("SHMPI_LAUNCHER_DEBUG");
  return debug != nullptr && debug[0] != '\0' && debug[0] != '0';
}

}  // namespace

int main(int argc, char** argv) {
  using namespace shmpi;
  launcher::ParseResult parsed = launcher::parse_options(argc, argv);
  if (parsed.kind == launcher::ParseResult::Kind::kHelp) {
    std::fputs(launcher::usage_text().c_str(), stdout);
    return 0;
  }
  if (parsed.kind == launcher::ParseResult::Kind::kError) {
    print_error(parsed.error);
    std::fputs(launcher::usage_text().c_str(), stderr);
    return kUsageExit;
  }
  launcher::Options& options = parsed.options;
  if (options.heap_bytes == 0) {
    if (const char* text = std::getenv("SHMPI_HEAP_SIZE");
        text != nullptr && text[0] != '\0') {
      auto bytes = launcher::parse_heap_size(text);
      if (!bytes) {
        print_error(std::string("SHMPI_HEAP_SIZE needs a size from ") +
                    std::to_string(launcher::kMinHeapBytes >> 20) + "M to " +
                    std::to_string(launcher::kMaxHeapBytes >> 30) + "G (got '" +
                    text + "')");
        return kUsageExit;
      }
      options.heap_bytes = *bytes;
    }
  }

  launcher::ensure_standard_fds();
  const unsigned long original_fd_limit = launcher::raise_fd_limit();
  launcher::SignalSetup signals;
  std::string why;
  if (!launcher::setup_launcher_signals(signals, &why)) {
    print_error(why);
    return 1;
  }

  segment::SegmentConfig config;
  config.nranks = options.nranks;
  config.capacity = options.universe_size;
  if (options.heap_bytes != 0) {
    config.heap_bytes = options.heap_bytes;
  }
  auto segment =
      segment::Segment::create(config, static_cast<std::int32_t>(::getpid()));
  if (!segment) {
    print_error(std::string("cannot create the job segment: ") +
                std::string(segment.error().what));
    return 1;
  }

  std::optional<topo::Topology> topology;
  if (options.bind != topo::BindPolicy::kNone) {
    auto loaded = topo::Topology::load();
    if (loaded) {
      topology.emplace(std::move(loaded.value()));
      // HWLOC_SYNTHETIC or HWLOC_XMLFILE: ranks get the placement (and NUMA
      // node) of that machine, but hwloc binds nothing.
      if (debug_enabled() && topology->is_synthetic()) {
        std::fprintf(stderr,
                     "shmpirun: simulated topology (hwloc environment): %d "
                     "cores, %d NUMA nodes; ranks are not bound\n",
                     topology->core_count(), topology->numa_count());
      }
    } else {
      print_error(std::string("warning: ") + std::string(loaded.error().what) +
                  "; ranks run unbound");
    }
  }

  // The cache size collectives decide by: hwloc's, replaced by
  // SHMPI_L2_CACHE_BYTES when set (where hwloc sees no caches, and in tests
  // that reach the paths of large calls with small ones). Plain store:
  // ranks read it after exec.
  std::size_t l2_bytes = topology ? topology->l2_cache_bytes() : 0;
  if (const char* text = std::getenv("SHMPI_L2_CACHE_BYTES");
      text != nullptr && text[0] != '\0') {
    l2_bytes = std::strtoull(text, nullptr, 10);
  }
  segment->header().l2_cache_bytes =
      static_cast<std::uint32_t>(std::min<std::size_t>(l2_bytes, UINT32_MAX));

  // Each rank's region (its rings, pool and slots) lives on the rank's NUMA
  // node: a memory policy on the memfd, so it holds whoever touches a page
  // first. Best effort: where the kernel refuses (a container without
  // mbind), the rank's own first touch after binding places it instead.
  if (topology) {
    const segment::SegmentLayout& layout = segment->layout();
    for (std::uint32_t r = 0; r < options.nranks; ++r) {
      const int node =
          topology
              ->placement_for(static_cast<int>(r),
                              static_cast<int>(options.nranks), options.bind)
              .numa_node;
      if (node >= 0) {
        (void)topology->bind_memory(segment->base() + layout.region_offset(r),
                                    layout.region_bytes, node);
      }
    }
  }

  // Three sources per rank slot (stdout, stderr, pidfd) plus the signalfd,
  // three timers and the spawn pipe.
  auto loop = launcher::make_event_loop(3 * options.universe_size + 5, &why);
  if (!loop) {
    print_error("cannot create an event loop (neither io_uring nor epoll)");
    return 1;
  }
  if (debug_enabled()) {
    std::fprintf(stderr, "shmpirun: event loop: %s%s%s\n", loop->name(),
                 why.empty() ? "" : "; ", why.c_str());
  }

  launcher::Job job(options, segment.value(), topology ? &*topology : nullptr,
                    signals, original_fd_limit);
  int exit_code = job.run(*loop);
  std::fflush(stdout);
  return exit_code;
}
