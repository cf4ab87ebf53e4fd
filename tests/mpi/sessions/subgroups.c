// SPDX-License-Identifier: MIT
// MPI_Comm_create_from_group over parts of mpi://WORLD: the even and the odd
// ranks at the same time, first with one string tag for both (disjoint
// groups may share a tag) then with a tag each; with "threads", two threads
// of every process also make two communicators over the whole world at the
// same time with different tags, and each must reach its own.
#include <pthread.h>

#include "common.h"

static MPI_Group world_group;

static MPI_Comm comm_of_parity(int parity, const char* tag) {
  int size = 0;
  MT_CHECK_MPI(MPI_Group_size(world_group, &size));
  int ranks[256];
  int count = 0;
  for (int r = parity; r < size && count < 256; r += 2) {
    ranks[count++] = r;
  }
  MPI_Group part;
  MT_CHECK_MPI(MPI_Group_incl(world_group, count, ranks, &part));
  MPI_Comm comm = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_create_from_group(part, tag, MPI_INFO_NULL,
                                          MPI_ERRORS_RETURN, &comm));
  int comm_size = 0;
  MT_CHECK_MPI(MPI_Comm_size(comm, &comm_size));
  MT_CHECK(comm_size == count, "parity %d: %d members, expected %d", parity,
           comm_size, count);
  MT_CHECK_MPI(MPI_Group_free(&part));
  return comm;
}

struct job {
  const char* tag;
  int base;
};

static void* run_job(void* arg) {
  const struct job* job = arg;
  MPI_Comm comm = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_create_from_group(world_group, job->tag, MPI_INFO_NULL,
                                          MPI_ERRORS_RETURN, &comm));
  for (int i = 0; i < 20; ++i) {
    st_exercise(comm, job->base);
  }
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  return NULL;
}

int main(int argc, char** argv) {
  const int threads = argc > 1 && strcmp(argv[1], "threads") == 0;
  MPI_Info info;
  MT_CHECK_MPI(MPI_Info_create(&info));
  if (threads) {
    MT_CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE"));
  }
  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
  MT_CHECK_MPI(MPI_Info_free(&info));
  MT_CHECK_MPI(
      MPI_Group_from_session_pset(session, "mpi://WORLD", &world_group));
  int rank = 0;
  MT_CHECK_MPI(MPI_Group_rank(world_group, &rank));
  const int parity = rank % 2;

  MPI_Comm same = comm_of_parity(parity, "org.shmpi.test.parity");
  st_exercise(same, 1000 * (parity + 1));
  MPI_Comm own = comm_of_parity(
      parity, parity ? "org.shmpi.test.odd" : "org.shmpi.test.even");
  st_exercise(own, 3000 * (parity + 1));
  st_exercise(same, 5000 * (parity + 1));
  MT_CHECK_MPI(MPI_Comm_free(&same));
  MT_CHECK_MPI(MPI_Comm_free(&own));

  if (threads) {
    MPI_Info used;
    char value[MPI_MAX_INFO_VAL + 1];
    int length = MPI_MAX_INFO_VAL;
    int flag = 0;
    MT_CHECK_MPI(MPI_Session_get_info(session, &used));
    MT_CHECK_MPI(
        MPI_Info_get_string(used, "thread_level", &length, value, &flag));
    MT_CHECK_MPI(MPI_Info_free(&used));
    if (!flag || strcmp(value, "MPI_THREAD_MULTIPLE") != 0) {
      fprintf(stderr, "SKIP: thread level %s\n", flag ? value : "?");
      MT_CHECK_MPI(MPI_Group_free(&world_group));
      MT_CHECK_MPI(MPI_Session_finalize(&session));
      return MT_SKIP_CODE;
    }
    struct job jobs[2] = {{"org.shmpi.test.thread.a", 10},
                          {"org.shmpi.test.thread.b", 20000}};
    pthread_t other;
    MT_ASSERT(pthread_create(&other, NULL, run_job, &jobs[1]) == 0);
    run_job(&jobs[0]);
    MT_ASSERT(pthread_join(other, NULL) == 0);
  }
  MT_CHECK_MPI(MPI_Group_free(&world_group));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  return 0;
}
