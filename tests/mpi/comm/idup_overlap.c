// SPDX-License-Identifier: MIT
// An MPI_Comm_idup in flight while other communicators are created on the
// same process (MPI 4.0 §7.4.2, §6.12: nonblocking collectives on one
// communicator and blocking ones on another may interleave, in different
// orders on different processes). Each idup's parent is a fresh duplicate,
// so the idup has to agree on a context ID in rounds that wait for every
// member, rather than take one agreed earlier.
//
//  cross:    rank 0 creates communicators of MPI_COMM_SELF (dup, split,
//            create_group) while its idup waits for rank 1, which starts
//            late. The new communicators must not share a context ID: a
//            message sent on one must not arrive on another.
//  blocking_first: rank 0 waits for its idup before a blocking split of a
//            second fresh duplicate, which the other ranks call while their
//            idup is pending. The idup must finish inside their split.
//  idup_first: rank 0 starts its idup, then the blocking split; the other
//            ranks split first and start their idup after it (the
//            standard's example of a blocking and a nonblocking collective
//            in opposite orders).
// Every new communicator is then checked for isolation from the others:
// one message on each, wildcard receives posted on all before any send.
// usage: idup_overlap cross|blocking_first|idup_first
#include "mt_comm.h"

enum { kComms = 4 };

static int rank;
static int size;

// Whether this rank is rank 0 of `comm` (which receives there); its size.
static int receives_on(MPI_Comm comm, int* size_out) {
  int crank = -1;
  if (comm == MPI_COMM_NULL) {
    return 0;
  }
  MPI_Comm_size(comm, size_out);
  MPI_Comm_rank(comm, &crank);
  return crank == 0;
}

// One message from every rank to rank 0 on each communicator (those this
// rank holds), receives posted on all of them first: each must arrive on
// the communicator it was sent on.
static void check_isolation(MPI_Comm* comms, const char** names, int n) {
  int in[kComms][kMtMaxMembers];
  MPI_Request reqs[kComms * kMtMaxMembers];
  int posted = 0;
  for (int k = 0; k < n; ++k) {
    int csize = 0;
    if (receives_on(comms[k], &csize)) {
      for (int s = 0; s < csize; ++s) {
        in[k][s] = -1;
        MT_CHECK_MPI(MPI_Irecv(&in[k][s], 1, MPI_INT, MPI_ANY_SOURCE, 7,
                               comms[k], &reqs[posted++]));
      }
    }
  }
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  // every receive is posted
  for (int k = 0; k < n; ++k) {
    if (comms[k] != MPI_COMM_NULL) {
      int token = k * 1000 + rank;
      MT_CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 7, comms[k]));
    }
  }
  MT_CHECK_MPI(MPI_Waitall(posted, reqs, MPI_STATUSES_IGNORE));
  for (int k = 0; k < n; ++k) {
    int csize = 0;
    for (int s = 0; receives_on(comms[k], &csize) && s < csize; ++s) {
      MT_CHECK(in[k][s] / 1000 == k,
               "a message sent on communicator %d (%s) arrived on %d (%s)",
               in[k][s] / 1000, names[in[k][s] / 1000], k, names[k]);
    }
  }
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(argc > 1, "usage: idup_overlap cross|blocking_first|idup_first");
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  const char* variant = argv[1];
  MPI_Comm fresh = MPI_COMM_NULL;
  MPI_Comm other = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &fresh));
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
  MPI_Comm comms[kComms] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL,
                            MPI_COMM_NULL};
  const char* names[kComms] = {"the idup's", "", "", ""};
  int n = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (strcmp(variant, "cross") == 0) {
    if (rank != 0) {
      mt_sleep_ms(50);  // rank 0's idup round waits for the others
    }
    MT_CHECK_MPI(MPI_Comm_idup(fresh, &comms[0], &req));
    if (rank == 0) {
      MPI_Group self;
      MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
      MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &comms[1]));
      MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_SELF, 0, 0, &comms[2]));
      MT_CHECK_MPI(MPI_Comm_create_group(MPI_COMM_SELF, self, 5, &comms[3]));
      MT_CHECK_MPI(MPI_Group_free(&self));
    }
    names[1] = "a dup of MPI_COMM_SELF";
    names[2] = "a split of MPI_COMM_SELF";
    names[3] = "a create_group of MPI_COMM_SELF";
    n = 4;
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  } else if (strcmp(variant, "blocking_first") == 0) {
    MT_CHECK_MPI(MPI_Comm_idup(fresh, &comms[0], &req));
    if (rank == 0) {
      mt_sleep_ms(50);  // the others are in their split by now
      MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      MT_CHECK_MPI(MPI_Comm_split(other, 0, rank, &comms[1]));
    } else {
      MT_CHECK_MPI(MPI_Comm_split(other, 0, rank, &comms[1]));
      MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    names[1] = "a split of another communicator";
    n = 2;
  } else if (strcmp(variant, "idup_first") == 0) {
    if (rank == 0) {
      MT_CHECK_MPI(MPI_Comm_idup(fresh, &comms[0], &req));
      MT_CHECK_MPI(MPI_Comm_split(other, 0, rank, &comms[1]));
    } else {
      MT_CHECK_MPI(MPI_Comm_split(other, 0, rank, &comms[1]));
      MT_CHECK_MPI(MPI_Comm_idup(fresh, &comms[0], &req));
    }
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    names[1] = "a split of another communicator";
    n = 2;
  } else {
    MT_CHECK(0, "unknown variant %s", variant);
  }
  check_isolation(comms, names, n);
  for (int k = 0; k < n; ++k) {
    if (comms[k] != MPI_COMM_NULL) {
      MT_CHECK_MPI(MPI_Comm_free(&comms[k]));
    }
  }
  MT_CHECK_MPI(MPI_Comm_free(&other));
  MT_CHECK_MPI(MPI_Comm_free(&fresh));
  MPI_Finalize();
  return 0;
}
