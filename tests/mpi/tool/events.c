// MPI_T events (MPI 4.0 section 15.3.8): sources, event types, handles,
// callbacks and the data a callback reads. "MPI_T_event_handle_alloc
// creates a registration handle for the event type identified by
// event_index" and "the MPI implementation invokes the callback
// function ... when an event of the given type occurs". The enumeration and
// error checks hold for any MPI; the events are triggered only when shmpi's
// event types are present (MPICH 4.0.2 exposes none or others: skipped).
#include <stdint.h>

#include "../../support/mpitest.h"

#define CHECK_RC(call, expected)                                           \
  do {                                                                     \
    const int rc_ = (call);                                                \
    MT_CHECK(rc_ == (expected), "%s returned %d, expected %d (%s)", #call, \
             rc_, (int)(expected), #expected);                             \
  } while (0)
#define CHECK_OK(call) CHECK_RC(call, MPI_SUCCESS)

static int g_is_shmpi;

// ---- sources

static void check_sources(void) {
  int num = -1;
  CHECK_OK(MPI_T_source_get_num(&num));
  MT_CHECK(num >= 0, "num_sources %d", num);
  for (int i = 0; i < num; ++i) {
    int name_len = 0;
    int desc_len = 0;
    CHECK_OK(MPI_T_source_get_info(i, NULL, &name_len, NULL, &desc_len, NULL,
                                   NULL, NULL, NULL));
    MT_CHECK(name_len >= 1, "source %d name_len %d", i, name_len);
    char* name = malloc((size_t)name_len);
    char* desc = malloc((size_t)desc_len);
    MPI_T_source_order ordering;
    MPI_Count ticks = 0;
    MPI_Count max_ticks = 0;
    MPI_Info info = MPI_INFO_NULL;
    CHECK_OK(MPI_T_source_get_info(i, name, &name_len, desc, &desc_len,
                                   &ordering, &ticks, &max_ticks, &info));
    MT_CHECK(strlen(name) + 1 == (size_t)name_len, "source name length");
    MT_CHECK(
        ordering == MPI_T_SOURCE_ORDERED || ordering == MPI_T_SOURCE_UNORDERED,
        "ordering %d", (int)ordering);
    MT_CHECK(ticks > 0, "ticks_per_second %lld", (long long)ticks);
    if (info != MPI_INFO_NULL) {
      CHECK_OK(MPI_Info_free(&info));
    }
    MPI_Count t1 = 0;
    MPI_Count t2 = 0;
    CHECK_OK(MPI_T_source_get_timestamp(i, &t1));
    CHECK_OK(MPI_T_source_get_timestamp(i, &t2));
    if (ordering == MPI_T_SOURCE_ORDERED) {
      MT_CHECK(t2 >= t1, "ordered source went back: %lld then %lld",
               (long long)t1, (long long)t2);
    }
    if (strcmp(name, "shmpi_clock") == 0) {
      // Ticks of MPI_Wtime's clock: the two agree to a millisecond.
      MT_ASSERT(ticks == 1000000000);
      MT_ASSERT(ordering == MPI_T_SOURCE_ORDERED);
      const double wtime = MPI_Wtime();
      MPI_Count now = 0;
      CHECK_OK(MPI_T_source_get_timestamp(i, &now));
      const double diff = (double)now / (double)ticks - wtime;
      MT_CHECK(diff > -1e-3 && diff < 1e-3, "source vs MPI_Wtime: %g s", diff);
      // A short buffer gets a truncated, terminated name and the full length.
      char short_name[4];
      int short_len = (int)sizeof short_name;
      CHECK_OK(MPI_T_source_get_info(i, short_name, &short_len, NULL, NULL,
                                     NULL, NULL, NULL, NULL));
      MT_ASSERT(strcmp(short_name, "shm") == 0);
      MT_ASSERT(short_len == (int)strlen("shmpi_clock") + 1);
    }
    free(name);
    free(desc);
  }
  {
    // Every output given: MPICH checks the pointers before the index.
    char name[8];
    char desc[8];
    int name_len = (int)sizeof name;
    int desc_len = (int)sizeof desc;
    MPI_T_source_order ordering;
    MPI_Count ticks;
    MPI_Count max_ticks;
    MPI_Info info = MPI_INFO_NULL;
    CHECK_RC(MPI_T_source_get_info(num, name, &name_len, desc, &desc_len,
                                   &ordering, &ticks, &max_ticks, &info),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_source_get_info(-1, name, &name_len, desc, &desc_len,
                                   &ordering, &ticks, &max_ticks, &info),
             MPI_T_ERR_INVALID_INDEX);
  }
  MPI_Count t = 0;
  CHECK_RC(MPI_T_source_get_timestamp(num, &t), MPI_T_ERR_INVALID_INDEX);
  CHECK_RC(MPI_T_source_get_timestamp(-1, &t), MPI_T_ERR_INVALID_INDEX);
}

// ---- event types

static int check_event_types(void) {
  int num = -1;
  CHECK_OK(MPI_T_event_get_num(&num));
  MT_CHECK(num >= 0, "num_events %d", num);
  for (int i = 0; i < num; ++i) {
    int name_len = 0;
    int desc_len = 0;
    int num_elements = 0;
    CHECK_OK(MPI_T_event_get_info(i, NULL, &name_len, NULL, NULL, NULL,
                                  &num_elements, NULL, NULL, NULL, &desc_len,
                                  NULL));
    MT_CHECK(name_len >= 1 && num_elements >= 0, "event %d lengths", i);
    char* name = malloc((size_t)name_len);
    char* desc = malloc((size_t)desc_len);
    MPI_Datatype* types =
        malloc(sizeof(MPI_Datatype) * (size_t)(num_elements + 1));
    MPI_Aint* displs = malloc(sizeof(MPI_Aint) * (size_t)(num_elements + 1));
    int verbosity = -1;
    int bind = -1;
    int got = num_elements;
    MPI_T_enum enumtype;
    MPI_Info info = MPI_INFO_NULL;
    CHECK_OK(MPI_T_event_get_info(i, name, &name_len, &verbosity, types, displs,
                                  &got, &enumtype, &info, desc, &desc_len,
                                  &bind));
    MT_CHECK(got == num_elements, "event %d: %d elements, then %d", i,
             num_elements, got);
    for (int e = 0; e < got; ++e) {
      int size = 0;
      CHECK_OK(MPI_Type_size(types[e], &size));
      MT_CHECK(size > 0 && displs[e] >= 0, "event %s element %d", name, e);
    }
    if (info != MPI_INFO_NULL) {
      CHECK_OK(MPI_Info_free(&info));
    }
    int index = -1;
    CHECK_OK(MPI_T_event_get_index(name, &index));
    MT_CHECK(index == i, "event %s: index %d, get_index %d", name, i, index);
    free(name);
    free(desc);
    free(types);
    free(displs);
  }
  {
    char name[8];
    char desc[8];
    int name_len = (int)sizeof name;
    int desc_len = (int)sizeof desc;
    int verbosity;
    MPI_Datatype types[1];
    MPI_Aint displs[1];
    int num_elements = 1;
    MPI_T_enum enumtype;
    MPI_Info info = MPI_INFO_NULL;
    int bind;
    CHECK_RC(MPI_T_event_get_info(num, name, &name_len, &verbosity, types,
                                  displs, &num_elements, &enumtype, &info, desc,
                                  &desc_len, &bind),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_event_get_info(-1, name, &name_len, &verbosity, types,
                                  displs, &num_elements, &enumtype, &info, desc,
                                  &desc_len, &bind),
             MPI_T_ERR_INVALID_INDEX);
  }
  int index = -1;
  CHECK_RC(MPI_T_event_get_index("no_such_event_type", &index),
           MPI_T_ERR_INVALID_NAME);
  MPI_T_event_registration handle;
  CHECK_RC(MPI_T_event_handle_alloc(num, NULL, MPI_INFO_NULL, &handle),
           MPI_T_ERR_INVALID_INDEX);
  return num;
}

// Every event type is in at most one category here, and a category lists
// only valid event indices.
static void check_categories(int num_events) {
  int listed = 0;
  int cat = 0;
  for (;; ++cat) {
    int n = -1;
    const int rc = MPI_T_category_get_num_events(cat, &n);
    if (rc == MPI_T_ERR_INVALID_INDEX) {
      break;
    }
    CHECK_OK(rc);
    MT_CHECK(n >= 0 && n <= num_events, "category %d: %d events", cat, n);
    if (n > 0) {
      int* indices = malloc(sizeof(int) * (size_t)n);
      CHECK_OK(MPI_T_category_get_events(cat, n, indices));
      for (int k = 0; k < n; ++k) {
        MT_CHECK(indices[k] >= 0 && indices[k] < num_events,
                 "category %d lists event %d", cat, indices[k]);
      }
      free(indices);
    }
    listed += n;
  }
  int n = 0;
  CHECK_RC(MPI_T_category_get_num_events(-1, &n), MPI_T_ERR_INVALID_INDEX);
  CHECK_RC(MPI_T_category_get_events(cat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
  if (g_is_shmpi) {
    MT_CHECK(listed == num_events, "categories list %d of %d events", listed,
             num_events);
  }
}

// ---- triggering: a message that must be unexpected

typedef struct {
  int calls;
  int none_calls;  // the NONE-level callback: never, the site is restricted
  MPI_T_cb_safety safety;
  int64_t bytes;
  int32_t source;
  int32_t tag;
  uint32_t context_id;
  unsigned char copy[64];
  MPI_Count timestamp;
  int source_index;
  MPI_T_event_instance instance;
} Seen;

static Seen g_seen;
static int g_freed;

static void on_unexpected(MPI_T_event_instance instance,
                          MPI_T_event_registration registration,
                          MPI_T_cb_safety safety, void* user_data) {
  (void)registration;
  Seen* seen = user_data;
  seen->calls++;
  seen->safety = safety;
  seen->instance = instance;
  // Restricted: only the calls on the instance, no other MPI.
  if (MPI_T_event_read(instance, 0, &seen->bytes) != MPI_SUCCESS ||
      MPI_T_event_read(instance, 1, &seen->source) != MPI_SUCCESS ||
      MPI_T_event_read(instance, 2, &seen->tag) != MPI_SUCCESS ||
      MPI_T_event_read(instance, 3, &seen->context_id) != MPI_SUCCESS ||
      MPI_T_event_read(instance, 4, &seen->bytes) != MPI_T_ERR_INVALID_INDEX ||
      MPI_T_event_copy(instance, seen->copy) != MPI_SUCCESS ||
      MPI_T_event_get_timestamp(instance, &seen->timestamp) != MPI_SUCCESS ||
      MPI_T_event_get_source(instance, &seen->source_index) != MPI_SUCCESS) {
    seen->calls = -1000;
  }
}

static void on_unexpected_none(MPI_T_event_instance instance,
                               MPI_T_event_registration registration,
                               MPI_T_cb_safety safety, void* user_data) {
  (void)instance;
  (void)registration;
  (void)safety;
  ((Seen*)user_data)->none_calls++;
}

static void on_free(MPI_T_event_registration registration,
                    MPI_T_cb_safety safety, void* user_data) {
  (void)registration;
  (void)safety;
  *(int*)user_data += 1;
}

static void on_dropped(MPI_Count count, MPI_T_event_registration registration,
                       int source_index, MPI_T_cb_safety safety,
                       void* user_data) {
  (void)count;
  (void)registration;
  (void)source_index;
  (void)safety;
  (void)user_data;
  MT_FAIL("an event was dropped");
}

static void trigger_unexpected(int event_index) {
  const int rank = mt_rank();
  int num_elements = 8;
  MPI_Datatype types[8];
  MPI_Aint displs[8];
  CHECK_OK(MPI_T_event_get_info(event_index, NULL, NULL, NULL, types, displs,
                                &num_elements, NULL, NULL, NULL, NULL, NULL));
  MT_ASSERT(num_elements == 4);
  MT_ASSERT(types[0] == MPI_INT64_T && types[1] == MPI_INT32_T &&
            types[2] == MPI_INT32_T && types[3] == MPI_UINT32_T);

  MPI_T_event_registration handle = NULL;
  MPI_Count before = 0;
  if (rank == 1) {
    MPI_Info info;
    CHECK_OK(MPI_Info_create(&info));
    CHECK_OK(MPI_Info_set(info, "unknown_hint", "1"));
    CHECK_OK(MPI_T_event_handle_alloc(event_index, NULL, info, &handle));
    CHECK_OK(MPI_T_event_handle_set_info(handle, info));
    CHECK_OK(MPI_Info_free(&info));
    MPI_Info used = MPI_INFO_NULL;
    CHECK_OK(MPI_T_event_handle_get_info(handle, &used));
    int nkeys = -1;
    CHECK_OK(MPI_Info_get_nkeys(used, &nkeys));
    MT_CHECK(nkeys == 0, "hints used: %d", nkeys);  // none are known
    CHECK_OK(MPI_Info_free(&used));
    CHECK_OK(MPI_T_event_register_callback(handle, MPI_T_CB_REQUIRE_NONE,
                                           MPI_INFO_NULL, &g_seen,
                                           on_unexpected_none));
    CHECK_OK(
        MPI_T_event_register_callback(handle, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                      MPI_INFO_NULL, &g_seen, on_unexpected));
    CHECK_OK(MPI_T_event_callback_set_info(
        handle, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_INFO_NULL));
    CHECK_OK(MPI_T_event_callback_get_info(
        handle, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &used));
    CHECK_OK(MPI_Info_free(&used));
    CHECK_RC(MPI_T_event_callback_get_info(
                 handle, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, &used),
             MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_event_register_callback(handle, (MPI_T_cb_safety)12345,
                                           MPI_INFO_NULL, NULL, on_unexpected),
             MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_event_set_dropped_handler(handle, on_dropped));
    CHECK_OK(MPI_T_source_get_timestamp(0, &before));
  }
  CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
  int data[100];
  if (rank == 0) {
    for (int i = 0; i < 100; ++i) {
      data[i] = i;
    }
    CHECK_OK(MPI_Send(data, 100, MPI_INT, 1, 42, MPI_COMM_WORLD));
  } else if (rank == 1) {
    // Probing takes the message in without posting a receive: it is
    // unexpected when it arrives.
    int flag = 0;
    while (!flag) {
      CHECK_OK(MPI_Iprobe(0, 42, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    }
    CHECK_OK(
        MPI_Recv(data, 100, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Count after = 0;
    CHECK_OK(MPI_T_source_get_timestamp(0, &after));
    MT_CHECK(g_seen.calls == 1, "callback ran %d times", g_seen.calls);
    MT_CHECK(g_seen.none_calls == 0, "NONE callback ran at a restricted site");
    MT_ASSERT(g_seen.safety == MPI_T_CB_REQUIRE_MPI_RESTRICTED);
    MT_CHECK(g_seen.bytes == 400 && g_seen.source == 0 && g_seen.tag == 42,
             "elements: bytes %lld source %d tag %d", (long long)g_seen.bytes,
             g_seen.source, g_seen.tag);
    int64_t bytes;
    int32_t source;
    int32_t tag;
    uint32_t context_id;
    memcpy(&bytes, g_seen.copy + displs[0], sizeof bytes);
    memcpy(&source, g_seen.copy + displs[1], sizeof source);
    memcpy(&tag, g_seen.copy + displs[2], sizeof tag);
    memcpy(&context_id, g_seen.copy + displs[3], sizeof context_id);
    MT_CHECK(bytes == 400 && source == 0 && tag == 42 &&
                 context_id == g_seen.context_id,
             "MPI_T_event_copy disagrees with MPI_T_event_read");
    MT_CHECK(g_seen.timestamp >= before && g_seen.timestamp <= after,
             "timestamp %lld outside [%lld, %lld]", (long long)g_seen.timestamp,
             (long long)before, (long long)after);
    MT_ASSERT(g_seen.source_index == 0);
    // Outside the callback the instance is gone.
    CHECK_RC(MPI_T_event_read(g_seen.instance, 0, &bytes),
             MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_event_copy(g_seen.instance, g_seen.copy),
             MPI_T_ERR_INVALID_HANDLE);
    MPI_Count ts;
    CHECK_RC(MPI_T_event_get_timestamp(g_seen.instance, &ts),
             MPI_T_ERR_INVALID_HANDLE);
    int si;
    CHECK_RC(MPI_T_event_get_source(g_seen.instance, &si),
             MPI_T_ERR_INVALID_HANDLE);

    CHECK_OK(MPI_T_event_handle_free(handle, &g_freed, on_free));
    MT_CHECK(g_freed == 1, "free callback ran %d times", g_freed);
    // A freed handle is no handle.
    CHECK_RC(MPI_T_event_handle_free(handle, &g_freed, on_free),
             MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_event_register_callback(handle, MPI_T_CB_REQUIRE_NONE,
                                           MPI_INFO_NULL, NULL, on_unexpected),
             MPI_T_ERR_INVALID_HANDLE);
    // Nothing listens any more: a second unexpected message raises nothing.
    g_seen.calls = 0;
  }
  CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    CHECK_OK(MPI_Send(data, 1, MPI_INT, 1, 43, MPI_COMM_WORLD));
  } else if (rank == 1) {
    int flag = 0;
    while (!flag) {
      CHECK_OK(MPI_Iprobe(0, 43, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    }
    CHECK_OK(
        MPI_Recv(data, 1, MPI_INT, 0, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK(g_seen.calls == 0, "freed handle's callback ran");
  }
}

// ---- triggering: a receive that waits long enough to sleep

typedef struct {
  int sleeps;
  int wakes;
  int64_t slept_ns;
} Sleeps;
static Sleeps g_sleeps;

static void on_sleep(MPI_T_event_instance instance,
                     MPI_T_event_registration registration,
                     MPI_T_cb_safety safety, void* user_data) {
  (void)registration;
  (void)safety;
  int64_t polled = -1;
  if (MPI_T_event_read(instance, 0, &polled) == MPI_SUCCESS && polled >= 0) {
    ((Sleeps*)user_data)->sleeps++;
  }
}

static void on_wake(MPI_T_event_instance instance,
                    MPI_T_event_registration registration,
                    MPI_T_cb_safety safety, void* user_data) {
  (void)registration;
  (void)safety;
  Sleeps* sleeps = user_data;
  int64_t slept = 0;
  if (MPI_T_event_read(instance, 0, &slept) == MPI_SUCCESS) {
    sleeps->wakes++;
    sleeps->slept_ns += slept;
  }
}

static void trigger_sleep(int sleep_index, int wake_index) {
  const int rank = mt_rank();
  MPI_T_event_registration sleep_handle = NULL;
  MPI_T_event_registration wake_handle = NULL;
  if (rank == 1) {
    CHECK_OK(MPI_T_event_handle_alloc(sleep_index, NULL, MPI_INFO_NULL,
                                      &sleep_handle));
    CHECK_OK(MPI_T_event_handle_alloc(wake_index, NULL, MPI_INFO_NULL,
                                      &wake_handle));
    // Registered at the strictest level: usable wherever the site is.
    CHECK_OK(MPI_T_event_register_callback(sleep_handle,
                                           MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                           MPI_INFO_NULL, &g_sleeps, on_sleep));
    CHECK_OK(MPI_T_event_register_callback(wake_handle,
                                           MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                           MPI_INFO_NULL, &g_sleeps, on_wake));
  }
  CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
  int value = 7;
  if (rank == 0) {
    mt_sleep_ms(300);  // long past rank 1's spin and yield budget
    CHECK_OK(MPI_Send(&value, 1, MPI_INT, 1, 44, MPI_COMM_WORLD));
  } else if (rank == 1) {
    CHECK_OK(
        MPI_Recv(&value, 1, MPI_INT, 0, 44, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK(g_sleeps.sleeps >= 1 && g_sleeps.wakes == g_sleeps.sleeps,
             "%d sleeps, %d wakes", g_sleeps.sleeps, g_sleeps.wakes);
    MT_CHECK(g_sleeps.slept_ns > 0, "slept %lld ns",
             (long long)g_sleeps.slept_ns);
    int freed = 0;
    CHECK_OK(MPI_T_event_handle_free(sleep_handle, &freed, on_free));
    CHECK_OK(MPI_T_event_handle_free(wake_handle, &freed, NULL));
    MT_ASSERT(freed == 1);
  }
  CHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  // Before MPI_T_init_thread every call but init reports it.
  int num = 0;
  CHECK_RC(MPI_T_event_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_RC(MPI_T_source_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_OK(MPI_Init(&argc, &argv));
  MT_CHECK(mt_size() >= 2, "needs two ranks");
  int provided = 0;
  CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));

  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int version_len = 0;
  CHECK_OK(MPI_Get_library_version(version, &version_len));
  g_is_shmpi = strncmp(version, "shmpi", 5) == 0;

  check_sources();
  const int num_events = check_event_types();
  check_categories(num_events);

  int unexpected = -1;
  int sleep = -1;
  int wake = -1;
  if (MPI_T_event_get_index("shmpi_p2p_unexpected_message", &unexpected) ==
          MPI_SUCCESS &&
      MPI_T_event_get_index("shmpi_progress_wait_sleep", &sleep) ==
          MPI_SUCCESS &&
      MPI_T_event_get_index("shmpi_progress_wait_wake", &wake) == MPI_SUCCESS) {
    trigger_unexpected(unexpected);
    trigger_sleep(sleep, wake);
  } else if (mt_rank() == 0) {
    printf("no shmpi event types (%d event types): triggering skipped\n",
           num_events);
  }

  CHECK_OK(MPI_T_finalize());
  CHECK_RC(MPI_T_event_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
  CHECK_OK(MPI_Finalize());
  // After MPI_Finalize the interface can start again.
  CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  CHECK_OK(MPI_T_event_get_num(&num));
  MT_ASSERT(num == num_events);
  CHECK_OK(MPI_T_finalize());
  return 0;
}
