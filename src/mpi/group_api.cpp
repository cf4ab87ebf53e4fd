// SPDX-License-Identifier: MIT
// The group entry points of MPI 4.0 chapter 7.3: accessors, constructors
// and MPI_Group_free, plus MPI_Comm_group and MPI_Comm_remote_group. The set
// algebra lives in lpid/group_ops.hpp; this file checks arguments in the
// standard's order and raises errors not tied to a communicator on
// MPI_COMM_WORLD's handler.
#include <mpi.h>

#include <new>
#include <span>
#include <utility>
#include <vector>

#include "lpid/group_ops.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/group.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

int check_not_null(Comm* comm, const void* pointer, const char* name,
                   const char* function) {
  if (pointer == nullptr) [[unlikely]] {
    return fail(comm, MPI_ERR_ARG, function, "%s is NULL", name);
  }
  return MPI_SUCCESS;
}

// n of a rank or range array: not negative, and the array present if n > 0.
int check_array(int n, const void* array, const char* name,
                const char* function) {
  if (n < 0) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "n must not be negative (got %d)", n);
  }
  if (n > 0 && array == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "%s is NULL with n = %d", name,
                n);
  }
  return MPI_SUCCESS;
}

// MPI_Group_incl/excl: "each of the n elements of ranks must be a valid rank
// in group and all elements must be distinct" (MPI 4.0 §7.3.2).
int check_distinct_ranks(const Group& group, std::span<const int> ranks,
                         const char* function) {
  std::vector<bool> seen(static_cast<std::size_t>(group.size()), false);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int rank = ranks[i];
    if (rank < 0 || rank >= group.size()) {
      return fail(nullptr, MPI_ERR_RANK, function,
                  "ranks[%zu] = %d is not a rank of the group (size %d)", i,
                  rank, group.size());
    }
    if (seen[static_cast<std::size_t>(rank)]) {
      return fail(nullptr, MPI_ERR_RANK, function,
                  "ranks[%zu] = %d appears twice", i, rank);
    }
    seen[static_cast<std::size_t>(rank)] = true;
  }
  return MPI_SUCCESS;
}

const char* describe(lpid::RangeFault fault) {
  switch (fault) {
    case lpid::RangeFault::kFirstOutOfRange:
      return "first is not a rank of the group";
    case lpid::RangeFault::kLastOutOfRange:
      return "last is not a rank of the group";
    case lpid::RangeFault::kZeroStride:
      return "stride is 0";
    case lpid::RangeFault::kWrongDirection:
      return "stride points away from last";
    case lpid::RangeFault::kNone:
      break;
  }
  return "valid";
}

// Expands range triplets into ranks. A bad triplet or a rank computed twice
// is MPI_ERR_ARG, as in MPICH: the standard names no class, and the whole
// triplet is the faulty argument.
int expand_ranges(const Group& group, int n, const int (*ranges)[3],
                  std::vector<int>& ranks, const char* function) {
  std::vector<bool> seen(static_cast<std::size_t>(group.size()), false);
  std::vector<int> expanded;
  for (int i = 0; i < n; ++i) {
    const lpid::RankRange range{ranges[i][0], ranges[i][1], ranges[i][2]};
    if (lpid::RangeFault fault = lpid::check_range(range, group.size());
        fault != lpid::RangeFault::kNone) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "ranges[%d] = (%d, %d, %d): %s (group size %d)", i,
                  range.first, range.last, range.stride, describe(fault),
                  group.size());
    }
    expanded.clear();
    lpid::expand_range(range, expanded);
    for (int rank : expanded) {
      if (seen[static_cast<std::size_t>(rank)]) {
        return fail(nullptr, MPI_ERR_ARG, function,
                    "ranges[%d] = (%d, %d, %d) names rank %d again", i,
                    range.first, range.last, range.stride, rank);
      }
      seen[static_cast<std::size_t>(rank)] = true;
      ranks.push_back(rank);
    }
  }
  return MPI_SUCCESS;
}

// Runs an entry point's body; a memory shortage there (member lists and
// rank bitmaps are sized by the arguments) is MPI_ERR_NO_MEM.
template <typename Body>
int guarded(Comm* comm, const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(comm, MPI_ERR_NO_MEM, function, "out of memory");
  }
}

// Makes the new group and stores its handle: every constructor ends here.
// A group made of a session's group keeps that session (Group::session).
int emit(Comm* comm, MPI_Group* out, lpid::Members members,
         const char* function, MPI_Session session = MPI_SESSION_NULL) {
  if (int rc = make_group(std::move(members), out); rc != MPI_SUCCESS) {
    return fail(comm, rc, function, "cannot make the new group");
  }
  if (Group* made = find_group(*out); made != nullptr && !is_predefined(made)) {
    made->session = session;
  }
  return MPI_SUCCESS;
}

// The checks shared by the two-group constructors (union, intersection,
// difference).
int check_two_groups(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup,
                     Group** g1, Group** g2, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group1, g1, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group2, g2, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_not_null(nullptr, newgroup, "newgroup", function);
}

// The checks shared by the one-group accessors: group, then the output.
int check_group_query(MPI_Group group, const void* out, const char* out_name,
                      Group** g, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group, g, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_not_null(nullptr, out, out_name, function);
}

}  // namespace

// ---- accessors (MPI 4.0 §7.3.1) ----

extern "C" int PMPI_Group_size(MPI_Group group, int* size) noexcept {
  constexpr const char* kFunction = "MPI_Group_size";
  Group* g = nullptr;
  if (int rc = check_group_query(group, size, "size", &g, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  *size = g->size();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Group_size);

extern "C" int PMPI_Group_rank(MPI_Group group, int* rank) noexcept {
  constexpr const char* kFunction = "MPI_Group_rank";
  Group* g = nullptr;
  if (int rc = check_group_query(group, rank, "rank", &g, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  *rank = g->rank;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Group_rank);

extern "C" int PMPI_Group_translate_ranks(MPI_Group group1, int n,
                                          const int ranks1[], MPI_Group group2,
                                          int ranks2[]) noexcept {
  constexpr const char* kFunction = "MPI_Group_translate_ranks";
  Group* g1 = nullptr;
  Group* g2 = nullptr;
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group1, &g1, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array(n, ranks1, "ranks1", kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group2, &g2, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (n > 0 && ranks2 == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "ranks2 is NULL with n = %d",
                n);
  }
  for (int i = 0; i < n; ++i) {
    if ((ranks1[i] < 0 || ranks1[i] >= g1->size()) &&
        ranks1[i] != MPI_PROC_NULL) {
      return fail(nullptr, MPI_ERR_RANK, kFunction,
                  "ranks1[%d] = %d is not a rank of group1 (size %d)", i,
                  ranks1[i], g1->size());
    }
  }
  return guarded(nullptr, kFunction, [&] {
    const lpid::RankIndex in_group2(g2->lpids);
    for (int i = 0; i < n; ++i) {
      if (ranks1[i] == MPI_PROC_NULL) {
        ranks2[i] = MPI_PROC_NULL;
        continue;
      }
      const auto rank =
          in_group2.rank_of(g1->lpids[static_cast<std::size_t>(ranks1[i])]);
      ranks2[i] = rank.value_or(MPI_UNDEFINED);
    }
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_translate_ranks);

extern "C" int PMPI_Group_compare(MPI_Group group1, MPI_Group group2,
                                  int* result) noexcept {
  constexpr const char* kFunction = "MPI_Group_compare";
  Group* g1 = nullptr;
  Group* g2 = nullptr;
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group1, &g1, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group2, &g2, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_not_null(nullptr, result, "result", kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return guarded(nullptr, kFunction, [&] {
    switch (lpid::compare(g1->lpids, g2->lpids)) {
      case lpid::Comparison::kIdent:
        *result = MPI_IDENT;
        break;
      case lpid::Comparison::kSimilar:
        *result = MPI_SIMILAR;
        break;
      case lpid::Comparison::kUnequal:
        *result = MPI_UNEQUAL;
        break;
    }
    return MPI_SUCCESS;
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_compare);

// ---- constructors (MPI 4.0 §7.3.2) ----

extern "C" int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) noexcept {
  constexpr const char* kFunction = "MPI_Comm_group";
  Comm* c = nullptr;
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, &c, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_not_null(c, group, "group", kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  // The local group, on an intercommunicator too.
  return guarded(c, kFunction,
                 [&] { return emit(c, group, c->lpids, kFunction); });
}
SHMPI_PMPI_ALIAS(MPI_Comm_group);

extern "C" int PMPI_Comm_remote_group(MPI_Comm comm,
                                      MPI_Group* group) noexcept {
  constexpr const char* kFunction = "MPI_Comm_remote_group";
  Comm* c = nullptr;
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, &c, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!c->is_inter) {
    return fail(c, MPI_ERR_COMM, kFunction,
                "%s is an intracommunicator: only an intercommunicator has a "
                "remote group",
                c->name.empty() ? "comm" : c->name.c_str());
  }
  if (int rc = check_not_null(c, group, "group", kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return guarded(c, kFunction,
                 [&] { return emit(c, group, c->remote_lpids, kFunction); });
}
SHMPI_PMPI_ALIAS(MPI_Comm_remote_group);

extern "C" int PMPI_Group_union(MPI_Group group1, MPI_Group group2,
                                MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_union";
  Group* g1 = nullptr;
  Group* g2 = nullptr;
  if (int rc = check_two_groups(group1, group2, newgroup, &g1, &g2, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return guarded(nullptr, kFunction, [&] {
    return emit(nullptr, newgroup, lpid::union_of(g1->lpids, g2->lpids),
                kFunction, g1->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_union);

extern "C" int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                                       MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_intersection";
  Group* g1 = nullptr;
  Group* g2 = nullptr;
  if (int rc = check_two_groups(group1, group2, newgroup, &g1, &g2, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return guarded(nullptr, kFunction, [&] {
    return emit(nullptr, newgroup, lpid::intersection_of(g1->lpids, g2->lpids),
                kFunction, g1->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_intersection);

extern "C" int PMPI_Group_difference(MPI_Group group1, MPI_Group group2,
                                     MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_difference";
  Group* g1 = nullptr;
  Group* g2 = nullptr;
  if (int rc = check_two_groups(group1, group2, newgroup, &g1, &g2, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return guarded(nullptr, kFunction, [&] {
    return emit(nullptr, newgroup, lpid::difference_of(g1->lpids, g2->lpids),
                kFunction, g1->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_difference);

namespace {

// The checks shared by incl, excl, range_incl and range_excl: group, the
// n-element array, newgroup. The array's contents are checked by the caller.
int check_subset_args(MPI_Group group, int n, const void* array,
                      const char* array_name, MPI_Group* newgroup, Group** g,
                      const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(group, g, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_array(n, array, array_name, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_not_null(nullptr, newgroup, "newgroup", function);
}

}  // namespace

extern "C" int PMPI_Group_incl(MPI_Group group, int n, const int ranks[],
                               MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_incl";
  Group* g = nullptr;
  if (int rc =
          check_subset_args(group, n, ranks, "ranks", newgroup, &g, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const std::span<const int> list(ranks, static_cast<std::size_t>(n));
  return guarded(nullptr, kFunction, [&] {
    if (int rc = check_distinct_ranks(*g, list, kFunction); rc != MPI_SUCCESS) {
      return rc;
    }
    return emit(nullptr, newgroup, lpid::select(g->lpids, list), kFunction,
                g->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_incl);

extern "C" int PMPI_Group_excl(MPI_Group group, int n, const int ranks[],
                               MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_excl";
  Group* g = nullptr;
  if (int rc =
          check_subset_args(group, n, ranks, "ranks", newgroup, &g, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const std::span<const int> list(ranks, static_cast<std::size_t>(n));
  return guarded(nullptr, kFunction, [&] {
    if (int rc = check_distinct_ranks(*g, list, kFunction); rc != MPI_SUCCESS) {
      return rc;
    }
    return emit(nullptr, newgroup, lpid::exclude(g->lpids, list), kFunction,
                g->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_excl);

extern "C" int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                                     MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_range_incl";
  Group* g = nullptr;
  if (int rc = check_subset_args(group, n, ranges, "ranges", newgroup, &g,
                                 kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  // Equivalent to MPI_Group_incl of the expanded ranks (MPI 4.0 §7.3.2).
  return guarded(nullptr, kFunction, [&] {
    std::vector<int> ranks;
    if (int rc = expand_ranges(*g, n, ranges, ranks, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    return emit(nullptr, newgroup, lpid::select(g->lpids, ranks), kFunction,
                g->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_range_incl);

extern "C" int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                                     MPI_Group* newgroup) noexcept {
  constexpr const char* kFunction = "MPI_Group_range_excl";
  Group* g = nullptr;
  if (int rc = check_subset_args(group, n, ranges, "ranges", newgroup, &g,
                                 kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return guarded(nullptr, kFunction, [&] {
    std::vector<int> ranks;
    if (int rc = expand_ranges(*g, n, ranges, ranks, kFunction);
        rc != MPI_SUCCESS) {
      return rc;
    }
    return emit(nullptr, newgroup, lpid::exclude(g->lpids, ranks), kFunction,
                g->session);
  });
}
SHMPI_PMPI_ALIAS(MPI_Group_range_excl);

// ---- destructor (MPI 4.0 §7.3.3) ----

extern "C" int PMPI_Group_free(MPI_Group* group) noexcept {
  constexpr const char* kFunction = "MPI_Group_free";
  Group* g = nullptr;
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_not_null(nullptr, group, "group", kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_group(*group, &g, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // MPI_GROUP_EMPTY is what constructors return for an empty result, so
  // programs free it like any group they got; MPICH and Open MPI accept
  // that, and release_group leaves the predefined object alone.
  release_group(g);
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Group_free);
