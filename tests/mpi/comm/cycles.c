// SPDX-License-Identifier: MIT
// Communicators made and freed over and over. MPI 4.0 §7.4.3: MPI_COMM_FREE
// marks the communicator for deallocation; an implementation reuses what it
// frees (contexts, handles), and a reused context must never make a message
// match on another communicator.
//
// All along, MPI_COMM_WORLD and a long-lived dup of it each hold a pending
// MPI_ANY_SOURCE/MPI_ANY_TAG receive, which nothing may complete until the
// end.
//  1. 5000 MPI_Comm_dup + MPI_Comm_free cycles, parents alternating
//     between MPI_COMM_WORLD and the long-lived dup; on every 100th dup a
//     ring and a gather (same tag as the pending receives).
//  2. 1000 MPI_Comm_split + MPI_Comm_free cycles, colors and key order
//     changing each time; rank and size checked every time, a ring and a
//     gather on every 100th.
#include "mt_comm.h"

static int rank;
static int size;
static int world_members[kMtMaxMembers];

enum { kTag = 0 };

typedef struct {
  MPI_Comm comm;
  int in[3];
  MPI_Request req;
} PendingReceive;

static void check_still_pending(PendingReceive* p, const char* what,
                                long cycle) {
  int flag = 1;
  MPI_Status status;
  MPI_Test(&p->req, &flag, &status);
  MT_CHECK(!flag,
           "cycle %ld: the wildcard receive pending on %s completed (source "
           "%d tag %d, {%d, %d, %d}) though nothing was sent on it",
           cycle, what, status.MPI_SOURCE, status.MPI_TAG, p->in[0], p->in[1],
           p->in[2]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  for (int i = 0; i < size; ++i) {
    world_members[i] = i;
  }
  MPI_Comm base = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  PendingReceive pending[2] = {{MPI_COMM_WORLD, {-1, -1, -1}, MPI_REQUEST_NULL},
                               {base, {-1, -1, -1}, MPI_REQUEST_NULL}};
  const char* pending_names[2] = {"MPI_COMM_WORLD", "the long-lived dup"};
  for (int p = 0; p < 2; ++p) {
    MPI_Irecv(pending[p].in, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
              pending[p].comm, &pending[p].req);
  }

  // 1. dup + free.
  const long dups = 5000;
  for (long i = 0; i < dups; ++i) {
    MPI_Comm parent = i % 2 == 0 ? MPI_COMM_WORLD : base;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(parent, &comm);
    if (i % 100 == 99) {
      char what[64];
      snprintf(what, sizeof what, "dup number %ld", i + 1);
      MT_CHECK_P2P(comm, world_members, size, kTag, (int)i, what);
      for (int p = 0; p < 2; ++p) {
        check_still_pending(&pending[p], pending_names[p], i);
      }
    }
    MPI_Comm_free(&comm);
    MT_CHECK(comm == MPI_COMM_NULL, "cycle %ld: MPI_Comm_free left the handle",
             i);
  }

  // 2. split + free.
  const long splits = 1000;
  for (long i = 0; i < splits; ++i) {
    const int modulus = 1 + (int)(i % 3);  // one, two or three parts
    const int color = (rank + (int)i) % modulus;
    const int reversed = (i / 3) % 2;
    int members[kMtMaxMembers];
    int n = 0;
    for (int k = 0; k < size; ++k) {
      const int r = reversed ? size - 1 - k : k;
      if ((r + (int)i) % modulus == color) {
        members[n++] = r;
      }
    }
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(i % 2 == 0 ? MPI_COMM_WORLD : base, color,
                   reversed ? -rank : rank, &comm);
    int got_size = -1;
    int got_rank = -1;
    MPI_Comm_size(comm, &got_size);
    MPI_Comm_rank(comm, &got_rank);
    MT_CHECK(got_size == n && members[got_rank] == rank,
             "split %ld (%d parts, color %d%s): size %d rank %d, expected size "
             "%d and the rank of world rank %d in [%s]",
             i, modulus, color, reversed ? ", reversed" : "", got_size,
             got_rank, n, rank, mt_rank_list(members, n));
    if (i % 100 == 99) {
      char what[64];
      snprintf(what, sizeof what, "split number %ld", i + 1);
      MT_CHECK_MEMBERS(comm, members, n, what);
      MT_CHECK_P2P(comm, members, n, kTag, (int)i * 10 + color, what);
      for (int p = 0; p < 2; ++p) {
        check_still_pending(&pending[p], pending_names[p], dups + i);
      }
    }
    MPI_Comm_free(&comm);
  }

  // The pending receives take the first messages sent on their
  // communicators, once everyone is done checking them.
  MPI_Barrier(MPI_COMM_WORLD);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  for (int p = 1; p >= 0; --p) {
    const int out[3] = {p, 77, rank};
    MPI_Send(out, 3, MPI_INT, right, kTag, pending[p].comm);
  }
  for (int p = 0; p < 2; ++p) {
    MPI_Status status;
    MPI_Wait(&pending[p].req, &status);
    MT_CHECK(pending[p].in[0] == p && pending[p].in[1] == 77 &&
                 pending[p].in[2] == left && status.MPI_SOURCE == left &&
                 status.MPI_TAG == kTag,
             "the receive pending on %s got {%d, %d, %d} from source %d tag %d",
             pending_names[p], pending[p].in[0], pending[p].in[1],
             pending[p].in[2], status.MPI_SOURCE, status.MPI_TAG);
  }
  MPI_Comm_free(&base);
  MPI_Finalize();
  return 0;
}
