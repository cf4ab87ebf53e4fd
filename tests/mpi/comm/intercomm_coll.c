// SPDX-License-Identifier: MIT
// Collectives on intercommunicators (MPI 4.0 §6.2.2, §6.3, §6.4, §6.7,
// §6.9.6):
//  - MPI_BARRIER returns in one group only after every process of the other
//    group has entered it (not necessarily every one of its own group);
//  - MPI_BCAST: the root passes MPI_ROOT, the rest of its group
//    MPI_PROC_NULL, and the other group the root's rank in the root's group;
//    the data goes to the other group only;
//  - MPI_ALLREDUCE: each process of one group gets the reduction of the
//    data of the other group, and vice versa;
//  - MPI_ALLGATHER: each process gets the data of the other group, in rank
//    order; the two groups may send different counts.
//
// On two intercommunicators: the even/odd one of MPI_COMM_WORLD, and one
// between the first quarter of MPI_COMM_WORLD and the rest in reverse order
// (unequal sizes). The barrier check compares CLOCK_MONOTONIC readings
// taken by different processes, which works on one machine: every process
// leaves only after every process of the other group has entered, one of
// them late on purpose. Intracommunicator collectives on the local
// communicators are interleaved, to show the two kinds of traffic apart.
#include <time.h>

#include "mt_comm.h"

static int rank;
static int size;

typedef struct {
  const char* name;
  MPI_Comm inter;
  MPI_Comm local;
  int side;  // 0 or 1; the intercommunicator is between sides 0 and 1
  int members[2][kMtMaxMembers];  // world ranks of each side, in rank order
  int count[2];
} Setup;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void check_local_allreduce(const Setup* s) {
  long sum = -1;
  const long mine = rank + 1;
  long expected = 0;
  for (int i = 0; i < s->count[s->side]; ++i) {
    expected += s->members[s->side][i] + 1;
  }
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, s->local);
  MT_CHECK(sum == expected,
           "%s: MPI_Allreduce on the local communicator between "
           "intercommunicator collectives gave %ld, expected %ld",
           s->name, sum, expected);
}

static void barrier(const Setup* s) {
  const int other = 1 - s->side;
  int local_rank = -1;
  MPI_Comm_rank(s->inter, &local_rank);
  for (int late = 0; late < 2; ++late) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (s->side == late && local_rank == s->count[late] - 1) {
      mt_sleep_ms(100);
    }
    const double entered = now();
    MPI_Barrier(s->inter);
    const double left = now();
    double latest[2] = {-1.0, -1.0};  // latest entry of each side
    latest[s->side] = entered;
    MPI_Allreduce(MPI_IN_PLACE, latest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK(left >= latest[other],
             "%s: MPI_Barrier returned %.6f s before the last process of the "
             "other group entered it (side %d late)",
             s->name, latest[other] - left, late);
  }
  check_local_allreduce(s);
}

static void bcast(const Setup* s) {
  int local_rank = -1;
  MPI_Comm_rank(s->inter, &local_rank);
  static const size_t kLens[] = {4, 70000};
  const size_t max_len = 70000;
  char* buf = mt_malloc(max_len + MT_GUARD_LEN);
  for (int root_side = 0; root_side < 2; ++root_side) {
    const int n_roots = s->count[root_side] > 1 ? 2 : 1;
    const int roots[2] = {s->count[root_side] - 1, 0};
    for (int r = 0; r < n_roots; ++r) {
      const int root = roots[r];
      for (size_t l = 0; l < sizeof kLens / sizeof kLens[0]; ++l) {
        const size_t len = kLens[l];
        const uint32_t seed =
            mt_seed((uint32_t)root_side, (uint32_t)root, (uint32_t)len, 41);
        char what[128];
        snprintf(what, sizeof what,
                 "%s: MPI_Bcast of %zu bytes from rank %d of side %d", s->name,
                 len, root, root_side);
        if (s->side == root_side) {
          const int is_root = local_rank == root;
          if (is_root) {
            mt_fill(buf, len, seed);
          } else {
            memset(buf, 0x5A, len);
          }
          MPI_Bcast(buf, (int)len, MPI_BYTE, is_root ? MPI_ROOT : MPI_PROC_NULL,
                    s->inter);
          if (is_root) {
            MT_CHECK_PATTERN(buf, len, seed, what);
          } else {
            for (size_t i = 0; i < len; ++i) {
              MT_CHECK(buf[i] == 0x5A,
                       "%s: the buffer of a process that passed "
                       "MPI_PROC_NULL changed at byte %zu",
                       what, i);
            }
          }
        } else {
          mt_fill_guard(buf, len);
          MPI_Bcast(buf, (int)len, MPI_BYTE, root, s->inter);
          MT_CHECK_PATTERN(buf, len, seed, what);
          MT_CHECK_GUARD(buf, len, what);
        }
      }
    }
  }
  free(buf);
  check_local_allreduce(s);
}

static long contribution(int world_rank, long i) {
  return (long)world_rank * 1000 + (i * 7 + world_rank * 3) % 101;
}

static void allreduce(const Setup* s) {
  const int other = 1 - s->side;
  enum { kMaxCount = 1000 };
  long* in = mt_malloc(sizeof(long) * kMaxCount);
  long* out = mt_malloc(sizeof(long) * kMaxCount);
  const int counts[2] = {1, kMaxCount};
  for (int c = 0; c < 2; ++c) {
    const int count = counts[c];
    for (long i = 0; i < count; ++i) {
      in[i] = contribution(rank, i);
    }
    for (int o = 0; o < 2; ++o) {
      const MPI_Op op = o == 0 ? MPI_SUM : MPI_MAX;
      for (long i = 0; i < count; ++i) {
        out[i] = -7;
      }
      MPI_Allreduce(in, out, count, MPI_LONG, op, s->inter);
      for (long i = 0; i < count; ++i) {
        long expected = o == 0 ? 0 : -1;
        for (int j = 0; j < s->count[other]; ++j) {
          const long v = contribution(s->members[other][j], i);
          expected = o == 0 ? expected + v : (v > expected ? v : expected);
        }
        MT_CHECK(out[i] == expected,
                 "%s: MPI_Allreduce (%s, count %d) element %ld is %ld, "
                 "expected %ld, the reduction over the other group",
                 s->name, o == 0 ? "MPI_SUM" : "MPI_MAX", count, i, out[i],
                 expected);
      }
      check_local_allreduce(s);
    }
  }
  free(out);
  free(in);
}

static void allgather(const Setup* s) {
  const int other = 1 - s->side;
  // Side 0 sends 2 ints per process, side 1 sends 3.
  const int send_count = s->side == 0 ? 2 : 3;
  const int recv_count = s->side == 0 ? 3 : 2;
  int send[3];
  for (int k = 0; k < send_count; ++k) {
    send[k] = rank * 100 + k;
  }
  const int n = s->count[other] * recv_count;
  int* recv = mt_malloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i <= n; ++i) {
    recv[i] = -1;
  }
  MPI_Allgather(send, send_count, MPI_INT, recv, recv_count, MPI_INT, s->inter);
  for (int j = 0; j < s->count[other]; ++j) {
    for (int k = 0; k < recv_count; ++k) {
      const int got = recv[j * recv_count + k];
      const int expected = s->members[other][j] * 100 + k;
      MT_CHECK(got == expected,
               "%s: MPI_Allgather block %d element %d is %d, expected %d "
               "(from world rank %d of the other group)",
               s->name, j, k, got, expected, s->members[other][j]);
    }
  }
  MT_CHECK(recv[n] == -1, "%s: MPI_Allgather wrote past %d ints", s->name, n);
  free(recv);
  check_local_allreduce(s);
}

static void run(Setup* s) {
  int local_members[kMtMaxMembers];
  const int nl = s->count[s->side];
  memcpy(local_members, s->members[s->side], sizeof(int) * (size_t)nl);
  MT_CHECK_INTER(s->inter, local_members, nl, s->members[1 - s->side],
                 s->count[1 - s->side], s->name);
  barrier(s);
  bcast(s);
  allreduce(s);
  allgather(s);
  // Back to back, no checks in between but the last.
  int value = s->side == 0 ? 11 : 22;
  for (int round = 0; round < 3; ++round) {
    int sum = -1;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, s->inter);
    MPI_Barrier(s->inter);
    MT_CHECK(sum == (s->side == 0 ? 22 : 11) * s->count[1 - s->side],
             "%s: back-to-back MPI_Allreduce %d gave %d", s->name, round, sum);
  }
  MPI_Comm_free(&s->inter);
  MPI_Comm_free(&s->local);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size >= 2 && size <= kMtMaxMembers, "needs 2 to %d ranks",
           kMtMaxMembers);

  Setup even_odd = {.name = "even/odd"};
  even_odd.side = rank % 2;
  for (int r = 0; r < size; ++r) {
    even_odd.members[r % 2][even_odd.count[r % 2]++] = r;
  }
  MPI_Comm_split(MPI_COMM_WORLD, even_odd.side, rank, &even_odd.local);
  MPI_Intercomm_create(even_odd.local, 0, MPI_COMM_WORLD,
                       even_odd.side == 0 ? 1 : 0, 1, &even_odd.inter);
  run(&even_odd);

  Setup unequal = {.name = "first quarter/rest reversed"};
  const int a_size = size / 4 > 0 ? size / 4 : 1;
  unequal.side = rank < a_size ? 0 : 1;
  for (int r = 0; r < a_size; ++r) {
    unequal.members[0][unequal.count[0]++] = r;
  }
  for (int r = size - 1; r >= a_size; --r) {
    unequal.members[1][unequal.count[1]++] = r;
  }
  MPI_Comm_split(MPI_COMM_WORLD, unequal.side,
                 unequal.side == 0 ? rank : size - rank, &unequal.local);
  MPI_Intercomm_create(unequal.local, 0, MPI_COMM_WORLD,
                       unequal.side == 0 ? size - 1 : 0, 2, &unequal.inter);
  run(&unequal);

  MPI_Finalize();
  return 0;
}
