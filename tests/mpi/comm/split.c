// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_SPLIT partitions comm's group into one subgroup
// per color, ranked by key with ties broken by the rank in comm; a process
// passing MPI_UNDEFINED gets MPI_COMM_NULL. §7.4.1: MPI_COMM_COMPARE gives
// MPI_IDENT, MPI_CONGRUENT (same group, same order, other context),
// MPI_SIMILAR (same members, other order) or MPI_UNEQUAL.
//
// A table of splits of MPI_COMM_WORLD (by parity, modulo 3 with reversed
// keys, one color with equal keys, ties on some keys, MPI_UNDEFINED for some
// ranks, one color in reverse order, large colors, one rank alone) and a
// split of a split. Each rank computes the expected members of its part and
// checks rank, size, members, MPI_Comm_compare against the parent and
// against another split with the same grouping, point-to-point (all parts
// at once on the same tag, each message naming its part) and Barrier,
// Bcast, Allreduce, Allgather inside each part.
#include "mt_comm.h"

typedef struct {
  const char* name;
  // Color and key of the process with this world rank and parent rank.
  int (*color)(int world_rank, int parent_rank, int parent_size);
  int (*key)(int world_rank, int parent_rank, int parent_size);
} SplitCase;

static int color_parity(int w, int p, int n) {
  (void)w, (void)n;
  return p % 2;
}
static int color_mod3(int w, int p, int n) {
  (void)w, (void)n;
  return p % 3;
}
static int color_zero(int w, int p, int n) {
  (void)w, (void)p, (void)n;
  return 0;
}
static int color_some_undefined(int w, int p, int n) {
  (void)w, (void)n;
  return p % 3 == 1 ? MPI_UNDEFINED : p % 2;
}
static int color_seven(int w, int p, int n) {
  (void)w, (void)p, (void)n;
  return 7;
}
static int color_large(int w, int p, int n) {
  (void)w, (void)n;
  return 1000000 + (p % 2) * 12345;
}
static int color_first_alone(int w, int p, int n) {
  (void)w, (void)n;
  return p == 0 ? 3 : MPI_UNDEFINED;
}
static int key_rank(int w, int p, int n) {
  (void)w, (void)n;
  return p;
}
static int key_reversed(int w, int p, int n) {
  (void)w;
  return n - p;
}
static int key_zero(int w, int p, int n) {
  (void)w, (void)p, (void)n;
  return 0;
}
static int key_ties(int w, int p, int n) {
  (void)w;
  return (n - p) / 3;  // descending in steps of three ranks, ties inside
}
static int key_negative(int w, int p, int n) {
  (void)w, (void)n;
  return -p;
}

static const SplitCase kCases[] = {
    {"parity, keys in rank order", color_parity, key_rank},
    {"modulo 3, reversed keys", color_mod3, key_reversed},
    {"one color, equal keys", color_zero, key_zero},
    {"parity, tied keys", color_parity, key_ties},
    {"MPI_UNDEFINED for some", color_some_undefined, key_rank},
    {"one color, negative keys (reverse order)", color_seven, key_negative},
    {"large colors", color_large, key_rank},
    {"first rank alone, others MPI_UNDEFINED", color_first_alone, key_rank},
};
enum { kCaseCount = sizeof kCases / sizeof kCases[0] };

// Expected members (world ranks) of the part of parent rank me; returns
// their number, 0 for MPI_UNDEFINED.
static int expected_part(const SplitCase* c, const int* parent_members,
                         int parent_size, int me, int* out) {
  const int my_color = c->color(parent_members[me], me, parent_size);
  if (my_color == MPI_UNDEFINED) {
    return 0;
  }
  int n = 0;
  int keys[kMtMaxMembers];
  int parent_ranks[kMtMaxMembers];
  for (int p = 0; p < parent_size; ++p) {
    if (c->color(parent_members[p], p, parent_size) != my_color) {
      continue;
    }
    // Insertion sort by (key, parent rank): p grows, so a new entry goes
    // after every entry with the same key.
    const int key = c->key(parent_members[p], p, parent_size);
    int at = n;
    while (at > 0 && keys[at - 1] > key) {
      keys[at] = keys[at - 1];
      parent_ranks[at] = parent_ranks[at - 1];
      --at;
    }
    keys[at] = key;
    parent_ranks[at] = p;
    ++n;
  }
  for (int i = 0; i < n; ++i) {
    out[i] = parent_members[parent_ranks[i]];
  }
  return n;
}

// What MPI_Comm_compare must say of two intracommunicators with these
// members (distinct contexts).
static int expected_compare(const int* a, int na, const int* b, int nb) {
  if (na != nb) {
    return MPI_UNEQUAL;
  }
  int same_order = 1;
  for (int i = 0; i < na; ++i) {
    same_order = same_order && a[i] == b[i];
    int found = 0;
    for (int j = 0; j < nb; ++j) {
      found = found || a[i] == b[j];
    }
    if (!found) {
      return MPI_UNEQUAL;
    }
  }
  return same_order ? MPI_CONGRUENT : MPI_SIMILAR;
}

// Splits parent by case c and checks the result; returns the new
// communicator (MPI_COMM_NULL for MPI_UNDEFINED) and its members.
static MPI_Comm split_and_check(MPI_Comm parent, const int* parent_members,
                                int parent_size, const SplitCase* c, int token,
                                int* members, int* n) {
  int me = -1;
  MPI_Comm_rank(parent, &me);
  const int color = c->color(parent_members[me], me, parent_size);
  const int key = c->key(parent_members[me], me, parent_size);
  *n = expected_part(c, parent_members, parent_size, me, members);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(parent, color, key, &comm);
  if (*n == 0) {
    MT_CHECK(comm == MPI_COMM_NULL,
             "%s: color MPI_UNDEFINED did not give MPI_COMM_NULL", c->name);
    return comm;
  }
  MT_CHECK_MEMBERS(comm, members, *n, c->name);
  MT_CHECK_COMPARE(comm, comm, MPI_IDENT, c->name);
  MT_CHECK_COMPARE(parent, comm,
                   expected_compare(parent_members, parent_size, members, *n),
                   c->name);
  // All parts at once, on the same tag: the token names the part.
  MT_CHECK_P2P(comm, members, *n, 7, token * 1000 + color % 1000, c->name);
  MT_CHECK_COLLECTIVES(comm, members, *n, c->name);
  return comm;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  int world_members[kMtMaxMembers];
  for (int i = 0; i < size; ++i) {
    world_members[i] = i;
  }

  MPI_Comm comms[kCaseCount];
  int members[kCaseCount][kMtMaxMembers];
  int counts[kCaseCount];
  for (int c = 0; c < kCaseCount; ++c) {
    comms[c] = split_and_check(MPI_COMM_WORLD, world_members, size, &kCases[c],
                               c, members[c], &counts[c]);
  }

  // Two splits with the same grouping and order are congruent; the parity
  // parts differ from the modulo-3 parts as soon as there are 3 ranks.
  MT_CHECK_COMPARE(comms[0], comms[6], MPI_CONGRUENT,
                   "parity split against the large-color split");
  MT_CHECK_COMPARE(
      comms[0], comms[1],
      expected_compare(members[0], counts[0], members[1], counts[1]),
      "parity split against the modulo-3 split");
  MT_CHECK_COMPARE(comms[2], comms[5], size > 1 ? MPI_SIMILAR : MPI_CONGRUENT,
                   "one color in order against one color reversed");
  MT_CHECK_COMPARE(MPI_COMM_WORLD, comms[0],
                   size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT,
                   "world against a parity part");

  // A split of a split: each parity part split again modulo 3, reversed.
  int sub_members[kMtMaxMembers];
  int sub_count = 0;
  MPI_Comm sub = split_and_check(comms[0], members[0], counts[0], &kCases[1],
                                 kCaseCount, sub_members, &sub_count);

  // Traffic on a part after others were freed still lands there.
  MPI_Comm_free(&comms[1]);
  MPI_Comm_free(&comms[2]);
  MT_CHECK_P2P(comms[3], members[3], counts[3], 9, 3000, "after frees");
  MT_CHECK_P2P(sub, sub_members, sub_count, 9, 3001, "after frees");

  MPI_Comm_free(&sub);
  for (int c = 0; c < kCaseCount; ++c) {
    if (comms[c] != MPI_COMM_NULL) {
      MPI_Comm_free(&comms[c]);
    }
  }
  MPI_Finalize();
  return 0;
}
