// SPDX-License-Identifier: MIT
// MPI 4.0 §6.13 persistent collectives: the initialization call returns an
// inactive persistent request; "the request is made active by MPI_START or
// MPI_STARTALL, completed by a completion call and made inactive again, and
// may be restarted", and every start runs the collective as the
// nonblocking form would.
//
//  - every collective, int and _c init forms, started 20 times on changing
//    data (3 and 2000 ints per member), each start completed by another
//    completion call, both buffers checked against the int blocking form
//    run on the same data just before;
//  - MPI_Barrier_init: no member leaves a started barrier before the last
//    has arrived;
//  - MPI_Startall over persistent collectives and persistent sends and
//    receives mixed, with explicit expectations;
//  - a request freed without a start, and one freed once complete but
//    before a completion call; MPI_Request_get_status of both states;
//  - a derived datatype and a user operation freed right after init;
//  - an intercommunicator's bcast and allreduce (args: inter).
#include "mt_forms.h"

static int iterations(void) { return (int)mt_scale(20); }

// Completes the active request with the completion call that `which`
// picks; the persistent request must stay allocated, inactive.
static void complete(MPI_Request* req, int which) {
  int flag = 0;
  int index = -1;
  switch (which % 5) {
    case 0:
      MT_CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
      break;
    case 1:
      while (!flag) {
        MT_CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
      }
      break;
    case 2:
      MT_CHECK_MPI(MPI_Waitall(1, req, MPI_STATUSES_IGNORE));
      break;
    case 3:
      while (!flag) {
        MT_CHECK_MPI(MPI_Testany(1, req, &index, &flag, MPI_STATUS_IGNORE));
      }
      MT_CHECK(index == 0, "MPI_Testany gave index %d", index);
      break;
    default:
      MT_CHECK_MPI(MPI_Waitsome(1, req, &flag, &index, MPI_STATUSES_IGNORE));
      MT_CHECK(flag == 1 && index == 0, "MPI_Waitsome gave %d at %d", flag,
               index);
      break;
  }
  MT_CHECK(*req != MPI_REQUEST_NULL, "completion freed a persistent request");
  MT_CHECK_MPI(MPI_Request_get_status(*req, &flag, MPI_STATUS_IGNORE));
  MT_CHECK(flag, "an inactive persistent request is not complete");
}

static void every_collective(MPI_Comm comm, int k, MPI_Info info) {
  MtColl c;
  mt_forms_setup(&c, comm, k);
  c.info = info;
  for (int op = 0; op < MT_CASE_COUNT; ++op) {
    const MtCase* cs = &mt_cases[op];
    const int large = (op + k) % 2;
    MPI_Request req = MPI_REQUEST_NULL;
    MT_CHECK_MPI(cs->call(&c, large, MT_PERSISTENT, &req));
    for (int t = 0; t < iterations(); ++t) {
      mt_forms_reference(&c, cs, 100 * op + t);
      MT_CHECK_MPI(MPI_Start(&req));
      complete(&req, op + t);
      mt_forms_expect(&c, cs, large ? "persistent _c" : "persistent");
    }
    MT_CHECK_MPI(MPI_Request_free(&req));
    MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
  }
  mt_forms_free(&c);
}

// Rank 0 arrives late at each barrier and tells the time it started; no
// rank may have completed the barrier before then (MPI_Wtime is global
// here: MPI_WTIME_IS_GLOBAL).
static void barrier(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Request req = MPI_REQUEST_NULL;
  MT_CHECK_MPI(MPI_Barrier_init(comm, MPI_INFO_NULL, &req));
  for (int t = 0; t < 3; ++t) {
    double started = 0.0;
    if (rank == 0) {
      mt_sleep_ms(20);
      started = MPI_Wtime();
    }
    MT_CHECK_MPI(MPI_Start(&req));
    complete(&req, t);
    const double left = MPI_Wtime();
    MT_CHECK_MPI(MPI_Bcast(&started, 1, MPI_DOUBLE, 0, comm));
    MT_CHECK(left >= started, "left barrier %d at %.6f, before rank 0 came", t,
             left);
  }
  MT_CHECK_MPI(MPI_Request_free(&req));
}

// MPI_Startall over [send, allreduce, receive, bcast, allgather], in that
// order on every rank, then MPI_Waitall or an MPI_Testall loop.
static void startall_mixed(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  enum { kN = 16 };
  int out = 0, in = -1, sum_in[kN], sum[kN], bc[kN];
  int* all = mt_malloc((size_t)size * sizeof(int));
  int mine = 0;
  MPI_Request reqs[5];
  const MPI_Count n = kN;
  MT_CHECK_MPI(
      MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 5, comm, &reqs[0]));
  MT_CHECK_MPI(MPI_Allreduce_init_c(sum_in, sum, n, MPI_INT, MPI_SUM, comm,
                                    MPI_INFO_NULL, &reqs[1]));
  MT_CHECK_MPI(MPI_Recv_init(&in, 1, MPI_INT, (rank + size - 1) % size, 5, comm,
                             &reqs[2]));
  MT_CHECK_MPI(
      MPI_Bcast_init(bc, kN, MPI_INT, 0, comm, MPI_INFO_NULL, &reqs[3]));
  MT_CHECK_MPI(MPI_Allgather_init(&mine, 1, MPI_INT, all, 1, MPI_INT, comm,
                                  MPI_INFO_NULL, &reqs[4]));
  for (int t = 0; t < iterations(); ++t) {
    out = rank * 10 + t;
    mine = rank + 100 * t;
    for (int i = 0; i < kN; ++i) {
      sum_in[i] = rank * 1000 + t + i;
      bc[i] = rank == 0 ? t * 7 + i : -1;
    }
    MT_CHECK_MPI(MPI_Startall(5, reqs));
    int done = t % 2 == 0;
    if (done) {
      MT_CHECK_MPI(MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE));
    }
    while (!done) {
      MT_CHECK_MPI(MPI_Testall(5, reqs, &done, MPI_STATUSES_IGNORE));
    }
    const int left = (rank + size - 1) % size;
    MT_CHECK(in == left * 10 + t, "iteration %d: received %d", t, in);
    for (int i = 0; i < kN; ++i) {
      const int want = 1000 * size * (size - 1) / 2 + size * (t + i);
      MT_CHECK(sum[i] == want, "iteration %d: sum[%d] %d, expected %d", t, i,
               sum[i], want);
      MT_CHECK(bc[i] == t * 7 + i, "iteration %d: bcast[%d] %d", t, i, bc[i]);
    }
    for (int r = 0; r < size; ++r) {
      MT_CHECK(all[r] == r + 100 * t, "iteration %d: gathered[%d] %d", t, r,
               all[r]);
    }
  }
  for (int i = 0; i < 5; ++i) {
    MT_CHECK_MPI(MPI_Request_free(&reqs[i]));
  }
  free(all);
}

// Requests freed without a start, and freed complete but not completed.
static void frees(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  int a[4] = {1, 2, 3, 4};
  int* b = mt_malloc((size_t)size * 4 * sizeof(int));
  MPI_Count* counts = mt_malloc((size_t)size * sizeof(MPI_Count));
  MPI_Aint* displs = mt_malloc((size_t)size * sizeof(MPI_Aint));
  for (int r = 0; r < size; ++r) {
    counts[r] = 4;
    displs[r] = 4 * r;
  }
  MPI_Request req = MPI_REQUEST_NULL;
  MT_CHECK_MPI(MPI_Bcast_init(a, 4, MPI_INT, 0, comm, MPI_INFO_NULL, &req));
  MT_CHECK_MPI(MPI_Request_free(&req));
  MT_CHECK_MPI(MPI_Gatherv_init_c(a, 4, MPI_INT, b, counts, displs, MPI_INT, 0,
                                  comm, MPI_INFO_NULL, &req));
  int flag = 0;
  MT_CHECK_MPI(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
  MT_CHECK(flag, "an inactive request is not complete");
  MT_CHECK_MPI(MPI_Request_free(&req));
  MT_CHECK_MPI(MPI_Allgatherv_init_c(a, 4, MPI_INT, b, counts, displs, MPI_INT,
                                     comm, MPI_INFO_NULL, &req));
  // The arrays belong to the program again once the init call returned.
  counts[0] = -1;
  displs[0] = 1000000;
  MT_CHECK_MPI(MPI_Start(&req));
  flag = 0;
  while (!flag) {
    MT_CHECK_MPI(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
  }
  MT_CHECK_MPI(MPI_Request_free(&req));
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < 4; ++i) {
      MT_CHECK(b[4 * r + i] == i + 1, "allgatherv block %d: %d", r,
               b[4 * r + i]);
    }
  }
  free(displs);
  free(counts);
  free(b);
}

static void max_of(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* x = in;
  int* y = inout;
  for (int i = 0; i < *len; ++i) {
    y[i] = x[i] > y[i] ? x[i] : y[i];
  }
}

// A vector type (every other int) and a user operation, both freed right
// after the init calls that use them.
static void freed_arguments(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  enum { kN = 64 };
  int strided[2 * kN], in[kN], out[kN];
  MPI_Datatype every_other;
  MPI_Type_vector(kN, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Op max;
  MPI_Op_create(max_of, 1, &max);
  MPI_Request reqs[2];
  MT_CHECK_MPI(MPI_Bcast_init(strided, 1, every_other, size - 1, comm,
                              MPI_INFO_NULL, &reqs[0]));
  MT_CHECK_MPI(MPI_Allreduce_init(in, out, kN, MPI_INT, max, comm,
                                  MPI_INFO_NULL, &reqs[1]));
  MT_CHECK_MPI(MPI_Type_free(&every_other));
  MT_CHECK_MPI(MPI_Op_free(&max));
  for (int t = 0; t < iterations(); ++t) {
    for (int i = 0; i < kN; ++i) {
      strided[2 * i] = rank == size - 1 ? t + i : -1;
      strided[2 * i + 1] = -2;
      in[i] = (rank * 31 + i * 7 + t) % 50;
    }
    MT_CHECK_MPI(MPI_Startall(2, reqs));
    MT_CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < kN; ++i) {
      int want = 0;
      for (int r = 0; r < size; ++r) {
        const int v = (r * 31 + i * 7 + t) % 50;
        want = v > want ? v : want;
      }
      MT_CHECK(strided[2 * i] == t + i && strided[2 * i + 1] == -2,
               "iteration %d: strided bcast element %d: %d, gap %d", t, i,
               strided[2 * i], strided[2 * i + 1]);
      MT_CHECK(out[i] == want, "iteration %d: max[%d] %d, expected %d", t, i,
               out[i], want);
    }
  }
  MT_CHECK_MPI(MPI_Request_free(&reqs[0]));
  MT_CHECK_MPI(MPI_Request_free(&reqs[1]));
}

// An intercommunicator between the even and the odd world ranks: the even
// group's rank 0 broadcasts to the odd group, and each group gets the sum
// of the other group's contributions.
static void intercomm(void) {
  MPI_Comm comm = mt_coll_comm("inter");
  if (comm == MPI_COMM_NULL) {
    return;
  }
  int rank, remote;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_remote_size(comm, &remote);
  const int even = mt_rank() % 2 == 0;
  const int root = even ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  enum { kN = 300 };
  int data[kN], in[kN], sum[kN];
  MPI_Request reqs[2];
  MT_CHECK_MPI(
      MPI_Bcast_init_c(data, kN, MPI_INT, root, comm, MPI_INFO_NULL, &reqs[0]));
  MT_CHECK_MPI(MPI_Allreduce_init(in, sum, kN, MPI_INT, MPI_SUM, comm,
                                  MPI_INFO_NULL, &reqs[1]));
  for (int t = 0; t < iterations(); ++t) {
    for (int i = 0; i < kN; ++i) {
      data[i] = root == MPI_ROOT ? 3 * t + i : -1;
      in[i] = (even ? 1 : 1000) * (rank + 1) + t;
    }
    MT_CHECK_MPI(MPI_Start(&reqs[0]));
    complete(&reqs[0], t);
    MT_CHECK_MPI(MPI_Start(&reqs[1]));
    complete(&reqs[1], t + 1);
    // The other group's ranks 0..remote-1 sent (scale * (r + 1) + t).
    const int scale = even ? 1000 : 1;
    const int want = scale * remote * (remote + 1) / 2 + remote * t;
    for (int i = 0; i < kN; ++i) {
      MT_CHECK(even || data[i] == 3 * t + i, "iteration %d: inter bcast[%d] %d",
               t, i, data[i]);
      MT_CHECK(sum[i] == want,
               "iteration %d: inter allreduce[%d] %d, "
               "expected %d",
               t, i, sum[i], want);
    }
  }
  MT_CHECK_MPI(MPI_Request_free(&reqs[0]));
  MT_CHECK_MPI(MPI_Request_free(&reqs[1]));
  MPI_Comm_free(&comm);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "inter") == 0) {
    intercomm();
    MPI_Finalize();
    return 0;
  }
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -mt_rank(), &comm);  // reversed ranks
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "shmpi_test_hint", "ignored");
  every_collective(comm, 3, MPI_INFO_NULL);
  every_collective(comm, 2000, info);
  MPI_Info_free(&info);
  barrier(comm);
  startall_mixed(comm);
  frees(comm);
  freed_arguments(comm);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
