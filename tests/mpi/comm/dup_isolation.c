// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_DUP returns a communicator with the same group
// but a new context; §7.1.2: "A message sent in one context cannot be
// received in another context." MPI_COMM_SPLIT also creates a new context,
// so a split or dup of a dup is isolated from both.
//
// Every rank talks to its ring neighbours on MPI_COMM_WORLD and on a dup of
// it with the same tag, and checks that each message lands on the
// communicator it was sent on:
//  1. blocking receives posted in the other order than the sends, small,
//     medium and large messages;
//  2. MPI_ANY_SOURCE/MPI_ANY_TAG receives posted on both before the
//     messages arrive, the message of the other communicator sent first;
//  3. messages arriving unexpected, then a wildcard receive on the dup
//     (must skip the world message that came first) and MPI_Iprobe on the
//     dup (must see nothing more);
//  4. 64 nonblocking receives per communicator, interleaved, some with
//     wildcards, against sends that come dup first;
//  5. collectives on both communicators while wildcard receives are pending
//     on both: none may complete them;
//  6. world, the dup, a dup of the dup and a split of the dup (same group):
//     wildcard receives on all four, sends in the reverse order, then
//     unexpected messages received in the reverse order.
#include "mt_comm.h"

enum { kTag = 5, kMaxLen = 100000 };
static const size_t kLens[] = {12, 3000, 20000, kMaxLen};  // >= the header
enum { kLenCount = sizeof kLens / sizeof kLens[0] };

static int rank;
static int size;
static int right;
static int left;

// A message: {communicator id, sequence, world rank of the sender} and a
// pattern that depends on all three.
static uint32_t seed_of(int comm_id, int seq, int sender) {
  return mt_seed((uint32_t)comm_id, (uint32_t)seq, (uint32_t)sender, 31);
}

static void fill_message(char* buf, size_t len, int comm_id, int seq) {
  const int header[3] = {comm_id, seq, rank};
  memcpy(buf, header, sizeof header);
  mt_fill(buf + sizeof header, len - sizeof header,
          seed_of(comm_id, seq, rank));
}

// Checks a message received from the left neighbour.
static void check_message(const char* buf, const MPI_Status* status, size_t len,
                          int comm_id, int seq, int tag, const char* what) {
  int header[3];
  memcpy(header, buf, sizeof header);
  int count = -1;
  MPI_Get_count(status, MPI_BYTE, &count);
  MT_CHECK(header[0] == comm_id && header[1] == seq && header[2] == left,
           "%s: got the message of communicator %d, sequence %d, from world "
           "rank %d; expected communicator %d sequence %d from %d",
           what, header[0], header[1], header[2], comm_id, seq, left);
  MT_CHECK(
      status->MPI_SOURCE == left && status->MPI_TAG == tag && count == (int)len,
      "%s: status source %d tag %d count %d, expected %d %d %zu", what,
      status->MPI_SOURCE, status->MPI_TAG, count, left, tag, len);
  MT_CHECK_PATTERN(buf + sizeof header, len - sizeof header,
                   seed_of(comm_id, seq, left), what);
}

// 1. Blocking receives in the other order than the sends.
static void blocking_other_order(MPI_Comm dup, char* send[2], char* recv[2]) {
  for (int s = 0; s < kLenCount; ++s) {
    const size_t len = kLens[s];
    MPI_Request reqs[2];
    MPI_Status status;
    fill_message(send[0], len, 0, s);
    fill_message(send[1], len, 1, s);
    MPI_Isend(send[0], (int)len, MPI_BYTE, right, kTag, MPI_COMM_WORLD,
              &reqs[0]);
    MPI_Isend(send[1], (int)len, MPI_BYTE, right, kTag, dup, &reqs[1]);
    MPI_Recv(recv[1], (int)len, MPI_BYTE, left, kTag, dup, &status);
    check_message(recv[1], &status, len, 1, s, kTag, "dup, received first");
    MPI_Recv(recv[0], (int)len, MPI_BYTE, left, kTag, MPI_COMM_WORLD, &status);
    check_message(recv[0], &status, len, 0, s, kTag, "world, received second");
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  }
}

// 2. Wildcard receives posted before the messages arrive.
static void wildcards_posted_first(MPI_Comm dup, char* send[2], char* recv[2]) {
  MPI_Comm comms[2] = {MPI_COMM_WORLD, dup};
  for (int s = 0; s < kLenCount; ++s) {
    const size_t len = kLens[s];
    const int first = s % 2;  // the communicator whose receive is posted first
    MPI_Request rreqs[2];
    MPI_Request sreqs[2];
    MPI_Status statuses[2];
    MPI_Irecv(recv[first], kMaxLen, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
              comms[first], &rreqs[first]);
    MPI_Irecv(recv[1 - first], kMaxLen, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
              comms[1 - first], &rreqs[1 - first]);
    // Posted everywhere before anything is sent; the barrier's own traffic
    // must not match the world wildcard receive either.
    MPI_Barrier(MPI_COMM_WORLD);
    // The message for the receive posted second goes first.
    fill_message(send[1 - first], len, 1 - first, 100 + s);
    fill_message(send[first], len, first, 100 + s);
    MPI_Isend(send[1 - first], (int)len, MPI_BYTE, right, kTag,
              comms[1 - first], &sreqs[0]);
    MPI_Isend(send[first], (int)len, MPI_BYTE, right, kTag, comms[first],
              &sreqs[1]);
    MPI_Waitall(2, rreqs, statuses);
    check_message(recv[0], &statuses[0], len, 0, 100 + s, kTag,
                  "world wildcard receive posted early");
    check_message(recv[1], &statuses[1], len, 1, 100 + s, kTag,
                  "dup wildcard receive posted early");
    MPI_Waitall(2, sreqs, MPI_STATUSES_IGNORE);
  }
}

// 3. Unexpected messages, then a wildcard receive and a probe on the dup.
static void unexpected_then_wildcard(MPI_Comm dup, char* send[2],
                                     char* recv[2]) {
  for (int s = 0; s < kLenCount; ++s) {
    const size_t len = kLens[s];
    MPI_Request sreqs[2];
    MPI_Status status;
    fill_message(send[0], len, 0, 200 + s);
    fill_message(send[1], len, 1, 200 + s);
    MPI_Isend(send[0], (int)len, MPI_BYTE, right, kTag, MPI_COMM_WORLD,
              &sreqs[0]);
    MPI_Isend(send[1], (int)len, MPI_BYTE, right, kTag, dup, &sreqs[1]);
    MPI_Recv(recv[1], kMaxLen, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, dup,
             &status);
    check_message(recv[1], &status, len, 1, 200 + s, kTag,
                  "dup wildcard receive after the world message was sent");
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &status);
    MT_CHECK(!flag,
             "MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) on the dup found a "
             "message (source %d tag %d) though its only one was received",
             status.MPI_SOURCE, status.MPI_TAG);
    MPI_Recv(recv[0], kMaxLen, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
             MPI_COMM_WORLD, &status);
    check_message(recv[0], &status, len, 0, 200 + s, kTag,
                  "world wildcard receive after the dup's");
    MPI_Waitall(2, sreqs, MPI_STATUSES_IGNORE);
    // Nobody sends the next round's messages before everyone has probed.
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// 4. Many nonblocking receives, interleaved across the two communicators.
static void nonblocking_interleaved(MPI_Comm dup) {
  enum { kPer = 64 };
  MPI_Comm comms[2] = {MPI_COMM_WORLD, dup};
  const size_t stride = 20000;
  char* sbufs = mt_malloc(2 * kPer * stride);
  char* rbufs = mt_malloc(2 * kPer * stride);
  MPI_Request rreqs[2 * kPer];
  MPI_Request sreqs[2 * kPer];
  MPI_Status statuses[2 * kPer];
  for (int i = 0; i < kPer; ++i) {
    for (int c = 0; c < 2; ++c) {
      const int source = (i + c) % 3 == 0 ? MPI_ANY_SOURCE : left;
      const int tag = (i + c) % 2 == 0 ? MPI_ANY_TAG : kTag;
      MPI_Irecv(rbufs + (size_t)(2 * i + c) * stride, (int)stride, MPI_BYTE,
                source, tag, comms[c], &rreqs[2 * i + c]);
    }
  }
  // Dup messages first, then world messages.
  int n = 0;
  for (int c = 1; c >= 0; --c) {
    for (int i = 0; i < kPer; ++i) {
      const size_t len = i % 16 == 5 ? stride : 16 + (size_t)i;
      char* buf = sbufs + (size_t)(2 * i + c) * stride;
      fill_message(buf, len, c, 300 + i);
      MPI_Isend(buf, (int)len, MPI_BYTE, right, kTag, comms[c], &sreqs[n++]);
    }
  }
  MPI_Waitall(2 * kPer, rreqs, statuses);
  for (int i = 0; i < kPer; ++i) {
    for (int c = 0; c < 2; ++c) {
      const size_t len = i % 16 == 5 ? stride : 16 + (size_t)i;
      char what[80];
      snprintf(what, sizeof what, "interleaved nonblocking receive %d on %s", i,
               c == 0 ? "world" : "the dup");
      check_message(rbufs + (size_t)(2 * i + c) * stride, &statuses[2 * i + c],
                    len, c, 300 + i, kTag, what);
    }
  }
  MPI_Waitall(2 * kPer, sreqs, MPI_STATUSES_IGNORE);
  free(rbufs);
  free(sbufs);
}

// 5. Collectives while wildcard receives are pending.
static void collectives_beside_wildcards(MPI_Comm dup) {
  MPI_Comm comms[2] = {MPI_COMM_WORLD, dup};
  int in[2][3];
  MPI_Request reqs[2];
  for (int c = 0; c < 2; ++c) {
    MPI_Irecv(in[c], 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[c],
              &reqs[c]);
  }
  for (int c = 0; c < 2; ++c) {
    for (int round = 0; round < 2; ++round) {
      MPI_Comm comm = comms[(c + round) % 2];
      int value = rank == size - 1 ? 4242 : -1;
      MPI_Bcast(&value, 1, MPI_INT, size - 1, comm);
      MT_CHECK(value == 4242, "MPI_Bcast gave %d", value);
      int sum = 0;
      MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
      MT_CHECK(sum == size * (size - 1) / 2, "MPI_Allreduce gave %d", sum);
      int gathered[kMtMaxMembers];
      MPI_Allgather(&rank, 1, MPI_INT, gathered, 1, MPI_INT, comm);
      for (int i = 0; i < size; ++i) {
        MT_CHECK(gathered[i] == i, "MPI_Allgather block %d is %d", i,
                 gathered[i]);
      }
      MPI_Barrier(comm);
    }
  }
  for (int c = 0; c < 2; ++c) {
    int flag = 1;
    MPI_Status status;
    MPI_Test(&reqs[c], &flag, &status);
    MT_CHECK(!flag,
             "a wildcard receive on %s completed (source %d tag %d) before any "
             "message was sent: collective traffic matched it",
             c == 0 ? "world" : "the dup", status.MPI_SOURCE, status.MPI_TAG);
  }
  // Nobody sends before everyone has tested.
  MPI_Barrier(MPI_COMM_WORLD);
  int out[2][3] = {{0, 400, rank}, {1, 400, rank}};
  MPI_Send(out[1], 3, MPI_INT, right, kTag, dup);
  MPI_Send(out[0], 3, MPI_INT, right, kTag, MPI_COMM_WORLD);
  MPI_Status statuses[2];
  MPI_Waitall(2, reqs, statuses);
  for (int c = 0; c < 2; ++c) {
    MT_CHECK(in[c][0] == c && in[c][1] == 400 && in[c][2] == left &&
                 statuses[c].MPI_SOURCE == left && statuses[c].MPI_TAG == kTag,
             "wildcard receive on %s after the collectives got {%d, %d, %d} "
             "source %d tag %d",
             c == 0 ? "world" : "the dup", in[c][0], in[c][1], in[c][2],
             statuses[c].MPI_SOURCE, statuses[c].MPI_TAG);
  }
}

// 6. World, the dup, a dup of the dup and a split of the dup.
static void derived_from_dup(MPI_Comm dup) {
  enum { kComms = 4 };
  MPI_Comm comms[kComms] = {MPI_COMM_WORLD, dup, MPI_COMM_NULL, MPI_COMM_NULL};
  MPI_Comm_dup(dup, &comms[2]);
  MPI_Comm_split(dup, 0, rank, &comms[3]);
  MT_CHECK_COMPARE(dup, comms[2], MPI_CONGRUENT, "dup of the dup");
  MT_CHECK_COMPARE(MPI_COMM_WORLD, comms[3], MPI_CONGRUENT,
                   "split of the dup, one color, keys in rank order");
  int world_ranks[kMtMaxMembers];
  for (int i = 0; i < size; ++i) {
    world_ranks[i] = i;
  }
  MT_CHECK_MEMBERS(comms[2], world_ranks, size, "dup of the dup");
  MT_CHECK_MEMBERS(comms[3], world_ranks, size, "split of the dup");

  for (int round = 0; round < 2; ++round) {
    int in[kComms][3];
    int out[kComms][3];
    MPI_Request reqs[kComms];
    MPI_Status statuses[kComms];
    if (round == 0) {
      // Wildcard receives posted first, sends in the reverse order.
      for (int c = 0; c < kComms; ++c) {
        MPI_Irecv(in[c], 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[c],
                  &reqs[c]);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      for (int c = kComms - 1; c >= 0; --c) {
        out[c][0] = c, out[c][1] = 500, out[c][2] = rank;
        MPI_Send(out[c], 3, MPI_INT, right, kTag, comms[c]);
      }
      MPI_Waitall(kComms, reqs, statuses);
    } else {
      // Messages first, received in the reverse order.
      MPI_Request sreqs[kComms];
      for (int c = 0; c < kComms; ++c) {
        out[c][0] = c, out[c][1] = 501, out[c][2] = rank;
        MPI_Isend(out[c], 3, MPI_INT, right, kTag, comms[c], &sreqs[c]);
      }
      for (int c = kComms - 1; c >= 0; --c) {
        MPI_Recv(in[c], 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[c],
                 &statuses[c]);
      }
      MPI_Waitall(kComms, sreqs, MPI_STATUSES_IGNORE);
    }
    for (int c = 0; c < kComms; ++c) {
      MT_CHECK(in[c][0] == c && in[c][1] == 500 + round && in[c][2] == left &&
                   statuses[c].MPI_SOURCE == left &&
                   statuses[c].MPI_TAG == kTag,
               "round %d: the wildcard receive on communicator %d (0 world, 1 "
               "dup, 2 dup of dup, 3 split of dup) got {%d, %d, %d} from "
               "source %d tag %d",
               round, c, in[c][0], in[c][1], in[c][2], statuses[c].MPI_SOURCE,
               statuses[c].MPI_TAG);
    }
    // A rank ahead of the others must not feed their MPI_ANY_SOURCE
    // receives with its next messages.
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MT_CHECK_P2P(comms[2], world_ranks, size, kTag, 2, "dup of the dup");
  MT_CHECK_P2P(comms[3], world_ranks, size, kTag, 3, "split of the dup");
  MT_CHECK_COLLECTIVES(comms[2], world_ranks, size, "dup of the dup");
  MT_CHECK_COLLECTIVES(comms[3], world_ranks, size, "split of the dup");
  MPI_Comm_free(&comms[3]);
  MPI_Comm_free(&comms[2]);
  MT_CHECK(comms[2] == MPI_COMM_NULL && comms[3] == MPI_COMM_NULL,
           "MPI_Comm_free did not set the handles to MPI_COMM_NULL");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MT_CHECK(dup != MPI_COMM_NULL && dup != MPI_COMM_WORLD,
           "MPI_Comm_dup gave no new handle");
  MT_CHECK_COMPARE(MPI_COMM_WORLD, dup, MPI_CONGRUENT, "dup of world");
  MT_CHECK_COMPARE(dup, dup, MPI_IDENT, "the dup with itself");

  char* send[2] = {mt_malloc(kMaxLen), mt_malloc(kMaxLen)};
  char* recv[2] = {mt_malloc(kMaxLen), mt_malloc(kMaxLen)};
  blocking_other_order(dup, send, recv);
  wildcards_posted_first(dup, send, recv);
  unexpected_then_wildcard(dup, send, recv);
  nonblocking_interleaved(dup);
  collectives_beside_wildcards(dup);
  derived_from_dup(dup);
  for (int c = 0; c < 2; ++c) {
    free(send[c]);
    free(recv[c]);
  }
  MPI_Comm_free(&dup);
  MT_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
  MPI_Finalize();
  return 0;
}
