// MPI_T events under MPI_THREAD_MULTIPLE: "MPI_T_init_thread ... provided
// MPI_THREAD_MULTIPLE" lets any thread call MPI_T at any time. One thread of
// rank 1 allocates, registers and frees event handles over and over while
// the main thread takes in messages that arrive unexpected and so raises
// the event each time; every free callback must run exactly once, and the
// callbacks that ran must have read the right elements. Runs only where
// shmpi's event types exist (skipped elsewhere).
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "../../support/mpitest.h"

#define CHECK_OK(call)                                          \
  do {                                                          \
    const int rc_ = (call);                                     \
    MT_CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_); \
  } while (0)

enum { kRounds = 300 };

static atomic_int g_stop;
static atomic_int g_calls;
static atomic_int g_bad;
static atomic_int g_frees;
static int g_event_index;

static void on_unexpected(MPI_T_event_instance instance,
                          MPI_T_event_registration registration,
                          MPI_T_cb_safety safety, void* user_data) {
  (void)registration;
  (void)safety;
  (void)user_data;
  int32_t tag = -1;
  if (MPI_T_event_read(instance, 2, &tag) != MPI_SUCCESS || tag != 7) {
    atomic_fetch_add_explicit(&g_bad, 1, memory_order_relaxed);
  }
  atomic_fetch_add_explicit(&g_calls, 1, memory_order_relaxed);
}

static void on_free(MPI_T_event_registration registration,
                    MPI_T_cb_safety safety, void* user_data) {
  (void)registration;
  (void)safety;
  (void)user_data;
  atomic_fetch_add_explicit(&g_frees, 1, memory_order_relaxed);
}

static void* churn(void* arg) {
  int* handles = arg;
  while (!atomic_load_explicit(&g_stop, memory_order_relaxed)) {
    MPI_T_event_registration handle;
    CHECK_OK(
        MPI_T_event_handle_alloc(g_event_index, NULL, MPI_INFO_NULL, &handle));
    CHECK_OK(MPI_T_event_register_callback(handle, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                           MPI_INFO_NULL, NULL, on_unexpected));
    // Held a while, so that messages arrive while it is registered.
    const struct timespec hold = {0, 20000};
    nanosleep(&hold, NULL);
    CHECK_OK(MPI_T_event_handle_free(handle, NULL, on_free));
    ++*handles;
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  CHECK_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  int tool_provided = 0;
  CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tool_provided));
  const int rank = mt_rank();
  int found =
      provided == MPI_THREAD_MULTIPLE && tool_provided == MPI_THREAD_MULTIPLE &&
      MPI_T_event_get_index("shmpi_p2p_unexpected_message", &g_event_index) ==
          MPI_SUCCESS;
  if (!found) {
    if (rank == 0) {
      printf("no shmpi event types or no MPI_THREAD_MULTIPLE: skipped\n");
    }
    CHECK_OK(MPI_T_finalize());
    CHECK_OK(MPI_Finalize());
    return 0;
  }
  const long rounds = mt_scale(kRounds);
  pthread_t thread;
  int handles = 0;
  if (rank == 1) {
    MT_ASSERT(pthread_create(&thread, NULL, churn, &handles) == 0);
  }
  int value = 0;
  for (long i = 0; i < rounds; ++i) {
    if (rank == 0) {
      CHECK_OK(MPI_Send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD));
    } else if (rank == 1) {
      int flag = 0;
      while (!flag) {
        CHECK_OK(MPI_Iprobe(0, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
      }
      CHECK_OK(MPI_Recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    }
  }
  if (rank == 1) {
    atomic_store_explicit(&g_stop, 1, memory_order_relaxed);
    MT_ASSERT(pthread_join(thread, NULL) == 0);
    MT_CHECK(atomic_load(&g_frees) == handles, "%d handles, %d frees", handles,
             atomic_load(&g_frees));
    printf("%d handles, %d callbacks\n", handles, atomic_load(&g_calls));
    MT_CHECK(atomic_load(&g_bad) == 0, "%d callbacks read wrong elements",
             atomic_load(&g_bad));
  }
  // One more, registered for sure: the THREAD_SAFE callback runs at the
  // MPI-restricted site.
  MPI_T_event_registration handle = NULL;
  const int before = atomic_load(&g_calls);
  if (rank == 1) {
    CHECK_OK(
        MPI_T_event_handle_alloc(g_event_index, NULL, MPI_INFO_NULL, &handle));
    CHECK_OK(MPI_T_event_register_callback(handle, MPI_T_CB_REQUIRE_THREAD_SAFE,
                                           MPI_INFO_NULL, NULL, on_unexpected));
  }
  CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    CHECK_OK(MPI_Send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD));
  } else if (rank == 1) {
    int flag = 0;
    while (!flag) {
      CHECK_OK(MPI_Iprobe(0, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    }
    CHECK_OK(
        MPI_Recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK(atomic_load(&g_calls) == before + 1, "callback ran %d times",
             atomic_load(&g_calls) - before);
    CHECK_OK(MPI_T_event_handle_free(handle, NULL, on_free));
  }
  CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_OK(MPI_T_finalize());
  CHECK_OK(MPI_Finalize());
  return 0;
}
