// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2: a partitioned receive buffer holds the iteration's data
// once the receive completes, whatever the order of MPI_Start,
// MPI_Pready and MPI_Parrived on the two sides, and "the send and the
// receive may have different numbers of partitions".
//
// The receive buffer comes from MPI_Alloc_mem (an MPI may then write into
// it directly, shmpi's sender does once it has the iteration's CTS). Rank 0
// sends to rank 1 for many iterations with new data each time; a schedule,
// enforced with zero-byte messages, fixes who goes first:
//   free        no ordering: whatever the two processes make of it
//   recv_first  the receiver's MPI_Start precedes every MPI_Pready
//   send_first  every MPI_Pready precedes the receiver's MPI_Start
//   mixed       the first half of the partitions is made ready before the
//               receiver's MPI_Start, the second half after it
//   ahead       the sender completes iteration k (readied after the
//               receiver's start) and readies all of k + 1 before the
//               receiver looks at k at all (unless the sender needs more
//               than 1 ms for it)
// The receive may be longer than the send (its tail stays untouched) or
// shorter (the bytes that fit are delivered); either completes with
// MPI_ERR_TRUNCATE in shmpi, as the total sizes must agree. With
// "vector" the sender's datatype is a vector of 2 ints with a gap.
//
// usage: direct SCHEDULE ORDER SEND_PARTS RECV_PARTS SEND_INTS RECV_INTS
//               [vector]
#include "mpitest.h"

enum { kTokenStarted = 21, kTokenReadied = 22 };

static void permutation(int* perm, int n, const char* order, unsigned seed) {
  for (int i = 0; i < n; ++i) {
    perm[i] = strcmp(order, "reverse") == 0 ? n - 1 - i : i;
  }
  if (strcmp(order, "random") == 0) {
    for (int i = n - 1; i > 0; --i) {
      seed = seed * 1103515245u + 12345u;
      const int j = (int)((seed >> 8) % (unsigned)(i + 1));
      const int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  }
}

static void token_send(int to, int tag) {
  MPI_Send(NULL, 0, MPI_BYTE, to, tag, MPI_COMM_WORLD);
}
static void token_recv(int from, int tag) {
  MPI_Recv(NULL, 0, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int send_ints;
static int recv_ints;
static int vector;

// Where packed int n of the send lives in the send buffer.
static int send_index(int n) { return vector ? 3 * (n / 2) + 2 * (n % 2) : n; }

static void fill_send(int* sbuf, long iter) {
  for (int n = 0; n < send_ints; ++n) {
    sbuf[send_index(n)] = (int)mt_seed(0, (uint32_t)iter, (uint32_t)n, 9);
  }
}

static void ready_range(MPI_Request sreq, const int* perm, int from, int to) {
  for (int i = from; i < to; ++i) {
    MPI_Pready(perm[i], sreq);
  }
}

// Receiver: polls every receive partition, then completes and checks.
static void finish_receive(MPI_Request* rreq, int recv_parts, const int* rbuf,
                           long iter) {
  for (int p = 0; p < recv_parts; ++p) {
    int flag = 0;
    while (!flag) {
      MPI_Parrived(*rreq, p, &flag);
    }
  }
  MPI_Status status;
  const int rc = MPI_Wait(rreq, &status);
  const int kept = send_ints < recv_ints ? send_ints : recv_ints;
  if (send_ints != recv_ints) {
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    MT_CHECK(error_class == MPI_ERR_TRUNCATE,
             "iteration %ld: a receive of %d ints for %d completed with %s",
             iter, recv_ints, send_ints, mt_class_name(error_class));
  } else {
    MT_CHECK(rc == MPI_SUCCESS, "iteration %ld: MPI_Wait failed", iter);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    MT_CHECK(count == kept, "iteration %ld: count %d, expected %d", iter, count,
             kept);
  }
  for (int n = 0; n < kept; ++n) {
    const int expected = (int)mt_seed(0, (uint32_t)iter, (uint32_t)n, 9);
    MT_CHECK(rbuf[n] == expected, "iteration %ld: int %d is %d, expected %d",
             iter, n, rbuf[n], expected);
  }
  for (int n = kept; n < recv_ints; ++n) {
    MT_CHECK(rbuf[n] == -1, "iteration %ld: int %d past the send was written",
             iter, n);
  }
  MT_CHECK_GUARD(rbuf, (size_t)recv_ints * sizeof(int), "receive buffer");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 7) {
    MT_FAIL(
        "usage: direct SCHEDULE ORDER SEND_PARTS RECV_PARTS SEND_INTS "
        "RECV_INTS [vector]");
  }
  const char* schedule = argv[1];
  const char* order = argv[2];
  const int send_parts = atoi(argv[3]);
  const int recv_parts = atoi(argv[4]);
  send_ints = atoi(argv[5]);
  recv_ints = atoi(argv[6]);
  vector = argc > 7 && strcmp(argv[7], "vector") == 0;
  MT_ASSERT(send_ints % send_parts == 0 && recv_ints % recv_parts == 0);
  MT_ASSERT(!vector || (send_ints / send_parts) % 2 == 0);
  const int rank = mt_rank();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int ahead = strcmp(schedule, "ahead") == 0;
  long iterations = mt_scale(400);
  iterations += ahead && iterations % 2 != 0;  // whole pairs
  if (rank == 0) {
    MPI_Datatype type = MPI_INT;
    int per_part = send_ints / send_parts;
    if (vector) {
      MPI_Type_vector(2, 1, 2, MPI_INT, &type);
      MPI_Type_commit(&type);
      per_part /= 2;
    }
    int* sbuf = mt_malloc((size_t)(send_index(send_ints) + 1) * sizeof(int));
    int* perm = mt_malloc((size_t)send_parts * sizeof(int));
    MPI_Request sreq;
    MPI_Psend_init(sbuf, send_parts, per_part, type, 1, 3, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &sreq);
    for (long iter = 0; iter < iterations; ++iter) {
      fill_send(sbuf, iter);
      permutation(perm, send_parts, order, (unsigned)(iter * 31 + 7));
      MPI_Start(&sreq);
      if (strcmp(schedule, "recv_first") == 0 || (ahead && iter % 2 == 0)) {
        token_recv(1, kTokenStarted);
        ready_range(sreq, perm, 0, send_parts);
      } else if (strcmp(schedule, "send_first") == 0 || ahead) {
        ready_range(sreq, perm, 0, send_parts);
        token_send(1, kTokenReadied);
      } else if (strcmp(schedule, "mixed") == 0) {
        ready_range(sreq, perm, 0, send_parts / 2);
        token_send(1, kTokenReadied);
        token_recv(1, kTokenStarted);
        ready_range(sreq, perm, send_parts / 2, send_parts);
      } else {
        ready_range(sreq, perm, 0, send_parts);
      }
      MT_CHECK(MPI_Wait(&sreq, MPI_STATUS_IGNORE) == MPI_SUCCESS,
               "iteration %ld: the send failed", iter);
    }
    MPI_Request_free(&sreq);
    if (vector) {
      MPI_Type_free(&type);
    }
    free(sbuf);
    free(perm);
  } else if (rank == 1) {
    const size_t bytes = (size_t)recv_ints * sizeof(int);
    int* rbuf = NULL;
    MT_CHECK(MPI_Alloc_mem((MPI_Aint)(bytes + MT_GUARD_LEN), MPI_INFO_NULL,
                           &rbuf) == MPI_SUCCESS,
             "MPI_Alloc_mem failed");
    MPI_Request rreq;
    MPI_Precv_init(rbuf, recv_parts, recv_ints / recv_parts, MPI_INT, 0, 3,
                   MPI_COMM_WORLD, MPI_INFO_NULL, &rreq);
    for (long iter = 0; iter < iterations; ++iter) {
      mt_fill_guard(rbuf, bytes);
      memset(rbuf, 0xff, bytes);
      if (ahead && iter % 2 == 0) {
        // Iteration k goes direct; the sender then completes it and
        // readies all of k + 1 before this rank reads anything of k. No MPI
        // call (whose progress could take k in) while the sender does that:
        // it has 1 ms, and the token says it is done.
        MPI_Start(&rreq);
        token_send(0, kTokenStarted);
        mt_sleep_ms(1);
        token_recv(0, kTokenReadied);
      } else if (strcmp(schedule, "recv_first") == 0) {
        MPI_Start(&rreq);
        token_send(0, kTokenStarted);
      } else if (strcmp(schedule, "send_first") == 0) {
        token_recv(0, kTokenReadied);
        MPI_Start(&rreq);
      } else if (strcmp(schedule, "mixed") == 0) {
        token_recv(0, kTokenReadied);
        MPI_Start(&rreq);
        token_send(0, kTokenStarted);
      } else {
        MPI_Start(&rreq);
      }
      finish_receive(&rreq, recv_parts, rbuf, iter);
    }
    MPI_Request_free(&rreq);
    MPI_Free_mem(rbuf);
  }
  MPI_Finalize();
  return 0;
}
