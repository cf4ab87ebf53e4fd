// SPDX-License-Identifier: MIT
// MPI 4.0 §6.4: "MPI_IN_PLACE is not supported" by MPI_Bcast, whose one
// buffer is both; §6.5 and §6.6: MPI_IN_PLACE means something only at the
// root of gather(v) (as sendbuf) and scatter(v) (as recvbuf), so a
// non-root passing it there is erroneous, as for reduce (§6.9.1). Each is
// MPI_ERR_BUFFER, whatever the count. The bcast calls are made by every
// rank. A non-root's bad call returns before it takes part, so that rank
// then makes the correct call, which the root makes once. MPICH 4.0.2
// checks none of these (it crashes): shmpi-only. With args=fatal the
// default handler must end the job.
#include "mpitest.h"

// The error class of a nonblocking or persistent call: from the call, else
// from its completion.
static int completion_class(int rc, MPI_Request* req, int persistent) {
  if (rc == MPI_SUCCESS && persistent) {
    rc = MPI_Start(req);
  }
  if (rc == MPI_SUCCESS) {
    rc = MPI_Wait(req, MPI_STATUS_IGNORE);
  }
  return rc;
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size <= 64, "at most 64 ranks (got %d)", size);
  int a[8] = {0};
  int b[64] = {0};
  int counts[64];
  int displs[64];
  for (int i = 0; i < 64; ++i) {
    counts[i] = 1;
    displs[i] = i;
  }
  MPI_Request req = MPI_REQUEST_NULL;
  const MPI_Comm world = MPI_COMM_WORLD;
  void* const in_place = MPI_IN_PLACE;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Bcast(in_place, 1, MPI_INT, 0, world),
                    MPI_ERR_BUFFER, "MPI_Bcast(MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal, MPI_Bcast(in_place, 0, MPI_INT, 0, world),
                    MPI_ERR_BUFFER, "MPI_Bcast(MPI_IN_PLACE, count 0)");
    MT_EXPECT_CLASS(
        fatal,
        completion_class(
            MPI_Ibcast(in_place, 1, MPI_INT, size - 1, world, &req), &req, 0),
        MPI_ERR_BUFFER, "MPI_Ibcast(MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    completion_class(MPI_Bcast_init(in_place, 1, MPI_INT, 0,
                                                    world, MPI_INFO_NULL, &req),
                                     &req, 1),
                    MPI_ERR_BUFFER, "MPI_Bcast_init(MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal, MPI_Bcast_c(in_place, 1, MPI_INT, 0, world),
                    MPI_ERR_BUFFER, "MPI_Bcast_c(MPI_IN_PLACE)");
    const int root = 0;
    a[0] = rank + 1;
    // Non-roots: the bad call, then the one the root makes.
    if (rank != root) {
      MT_EXPECT_CLASS(
          fatal, MPI_Gather(in_place, 1, MPI_INT, b, 1, MPI_INT, root, world),
          MPI_ERR_BUFFER, "MPI_Gather(non-root's sendbuf MPI_IN_PLACE)");
    }
    MT_CHECK_MPI(MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, root, world));
    if (rank == root) {
      MT_CHECK(b[size - 1] == size, "gather gave %d", b[size - 1]);
    }
    if (rank != root) {
      MT_EXPECT_CLASS(
          fatal,
          completion_class(MPI_Igatherv(in_place, 1, MPI_INT, b, counts, displs,
                                        MPI_INT, root, world, &req),
                           &req, 0),
          MPI_ERR_BUFFER, "MPI_Igatherv(non-root's sendbuf MPI_IN_PLACE)");
    }
    MT_CHECK_MPI(
        MPI_Gatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT, root, world));
    if (rank != root) {
      MT_EXPECT_CLASS(
          fatal, MPI_Scatter(b, 1, MPI_INT, in_place, 1, MPI_INT, root, world),
          MPI_ERR_BUFFER, "MPI_Scatter(non-root's recvbuf MPI_IN_PLACE)");
    }
    MT_CHECK_MPI(MPI_Scatter(b, 1, MPI_INT, a, 1, MPI_INT, root, world));
    MT_CHECK(a[0] == rank + 1, "scatter gave %d", a[0]);
    if (rank != root) {
      MT_EXPECT_CLASS(fatal,
                      MPI_Scatterv(b, counts, displs, MPI_INT, in_place, 1,
                                   MPI_INT, root, world),
                      MPI_ERR_BUFFER,
                      "MPI_Scatterv(non-root's recvbuf MPI_IN_PLACE)");
      MT_EXPECT_CLASS(
          fatal, MPI_Reduce(in_place, b, 1, MPI_INT, MPI_SUM, root, world),
          MPI_ERR_BUFFER, "MPI_Reduce(non-root's sendbuf MPI_IN_PLACE)");
    }
    MT_CHECK_MPI(
        MPI_Scatterv(b, counts, displs, MPI_INT, a, 1, MPI_INT, root, world));
    MT_CHECK(a[0] == rank + 1, "scatterv gave %d", a[0]);
    MT_CHECK_MPI(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, root, world));
    if (rank == root) {
      MT_CHECK(b[0] == size * (size + 1) / 2, "reduce gave %d", b[0]);
    }
  }
  return mt_errors_finish(fatal);
}
