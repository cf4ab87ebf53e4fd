// SPDX-License-Identifier: MIT
// shmpi's own MPI_T variables carry the runtime's real state (shmpi only;
// vars.c checks what any library must do). One case per run:
//   env       the control variables equal what the environment and the
//             launcher set, before MPI_Init, after it and after
//             MPI_Finalize; read-only ones refuse writes
//   defaults  the same without any setting
//   sleep     shmpi_sleep_timeout_ms is written and takes effect: a 300 ms
//             wait with a 2 ms limit sleeps many times, with no limit once
//             or twice (counted by shmpi_wait_sleeps, which counts only
//             while started)
//   pvars     queue lengths follow sends and receives, the high-water mark
//             remembers, the heap level follows MPI_Alloc_mem, I/O counters
//             follow MPI_File writes and reads, sessions are independent
//   threads   sessions, handles and reads from several threads at once
//
// "MPI_T_CVAR_WRITE ... If the variable cannot be written now, the call
// returns MPI_T_ERR_CVAR_SET_NOT_NOW; if it can never be written, it
// returns MPI_T_ERR_CVAR_SET_NEVER" (MPI 4.0 section 15.3.6).
#include <pthread.h>

#include "../../support/mt_file.h"
#include "common.h"

typedef unsigned long long u64;

static int cvar_index(const char* name) {
  const int index = t_cvar(name);
  MT_CHECK(index >= 0, "no control variable %s", name);
  return index;
}

static int pvar_index(const char* name, int var_class) {
  const int index = t_pvar(name, var_class);
  MT_CHECK(index >= 0, "no performance variable %s of class %d", name,
           var_class);
  return index;
}

// Reads a control variable whose datatype is MPI_UNSIGNED_LONG_LONG or an
// MPI_INT enumeration.
static u64 read_cvar(const char* name) {
  const int index = cvar_index(name);
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  T_OK(MPI_T_cvar_get_info(index, NULL, NULL, NULL, &datatype, NULL, NULL, NULL,
                           NULL, NULL));
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  T_OK(MPI_T_cvar_handle_alloc(index, NULL, &handle, &count));
  MT_ASSERT(count == 1);
  u64 value = 0;
  if (datatype == MPI_INT) {
    int small = -1;
    T_OK(MPI_T_cvar_read(handle, &small));
    value = (u64)small;
  } else {
    MT_CHECK(datatype == MPI_UNSIGNED_LONG_LONG, "%s: datatype", name);
    T_OK(MPI_T_cvar_read(handle, &value));
  }
  T_OK(MPI_T_cvar_handle_free(&handle));
  return value;
}

static int write_cvar(const char* name, u64 value) {
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  T_OK(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &handle, &count));
  const int rc = MPI_T_cvar_write(handle, &value);
  T_OK(MPI_T_cvar_handle_free(&handle));
  return rc;
}

static u64 env_u64(const char* name) {
  const char* text = getenv(name);
  MT_CHECK(text != NULL, "%s is not set", name);
  return strtoull(text, NULL, 10);
}

// The expected values, from the environment the manifest sets.
static void check_env_values(const char* when) {
  MT_CHECK(read_cvar("shmpi_eager_max") == env_u64("SHMPI_EAGER_MAX"),
           "%s: shmpi_eager_max %llu", when, read_cvar("shmpi_eager_max"));
  MT_CHECK(read_cvar("shmpi_ring_eager_max") == env_u64("SHMPI_RING_EAGER_MAX"),
           "%s: shmpi_ring_eager_max %llu", when,
           read_cvar("shmpi_ring_eager_max"));
  MT_CHECK(
      read_cvar("shmpi_sleep_timeout_ms") == env_u64("SHMPI_SLEEP_TIMEOUT_MS"),
      "%s: shmpi_sleep_timeout_ms %llu", when,
      read_cvar("shmpi_sleep_timeout_ms"));
  MT_CHECK(read_cvar("shmpi_shared_malloc") == 0, "%s: shmpi_shared_malloc",
           when);
  MT_CHECK(read_cvar("shmpi_light_fences") == 0, "%s: shmpi_light_fences",
           when);
  MT_CHECK(read_cvar("shmpi_heap_bytes") == 96ULL << 20,
           "%s: shmpi_heap_bytes %llu (launcher --heap-size 96M)", when,
           read_cvar("shmpi_heap_bytes"));
  MT_CHECK(read_cvar("shmpi_io_sieve_bytes") == 4ULL << 20,
           "%s: shmpi_io_sieve_bytes", when);
}

static void check_enum_names(void) {
  MPI_T_enum enumtype = MPI_T_ENUM_NULL;
  T_OK(MPI_T_cvar_get_info(cvar_index("shmpi_light_fences"), NULL, NULL, NULL,
                           NULL, &enumtype, NULL, NULL, NULL, NULL));
  MT_ASSERT(enumtype != MPI_T_ENUM_NULL);
  int items = 0;
  char name[64];
  int len = sizeof name;
  T_OK(MPI_T_enum_get_info(enumtype, &items, name, &len));
  MT_CHECK(items == 2 && strcmp(name, "shmpi_fence_kind") == 0,
           "enumeration %s of %d items", name, items);
  int value = -1;
  len = sizeof name;
  T_OK(MPI_T_enum_get_item(enumtype, 1, &value, name, &len));
  MT_CHECK(value == 1 && strcmp(name, "membarrier") == 0, "item 1: %d %s",
           value, name);
  T_EXPECT(MPI_T_enum_get_item(enumtype, 2, &value, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
  T_EXPECT(MPI_T_enum_get_info((MPI_T_enum)&value, &items, NULL, NULL),
           MPI_T_ERR_INVALID_HANDLE);
}

static void case_env(void) {
  int provided = 0;
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  MT_ASSERT(provided == MPI_THREAD_MULTIPLE);
  check_env_values("before MPI_Init");
  T_EXPECT(write_cvar("shmpi_eager_max", 1), MPI_T_ERR_CVAR_SET_NEVER);
  // The engine that keeps it does not exist yet.
  T_EXPECT(write_cvar("shmpi_sleep_timeout_ms", 1), MPI_T_ERR_CVAR_SET_NOT_NOW);
  check_enum_names();
  MPI_Init(NULL, NULL);
  check_env_values("after MPI_Init");
  T_EXPECT(write_cvar("shmpi_heap_bytes", 1), MPI_T_ERR_CVAR_SET_NEVER);
  T_EXPECT(write_cvar("shmpi_ring_eager_max", 1), MPI_T_ERR_CVAR_SET_NEVER);
  T_OK(write_cvar("shmpi_sleep_timeout_ms", 3));
  MT_ASSERT(read_cvar("shmpi_sleep_timeout_ms") == 3);
  T_OK(write_cvar("shmpi_sleep_timeout_ms", env_u64("SHMPI_SLEEP_TIMEOUT_MS")));
  // Bad handles.
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  T_OK(MPI_T_cvar_handle_alloc(0, NULL, &handle, &count));
  MPI_T_cvar_handle stale = handle;
  T_OK(MPI_T_cvar_handle_free(&handle));
  u64 value = 0;
  T_EXPECT(MPI_T_cvar_read(stale, &value), MPI_T_ERR_INVALID_HANDLE);
  T_EXPECT(MPI_T_cvar_write(stale, &value), MPI_T_ERR_INVALID_HANDLE);
  T_EXPECT(MPI_T_cvar_handle_free(&stale), MPI_T_ERR_INVALID_HANDLE);
  T_EXPECT(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &value),
           MPI_T_ERR_INVALID_HANDLE);
  MPI_Finalize();
  check_env_values("after MPI_Finalize");
  T_OK(MPI_T_finalize());
}

static void case_defaults(void) {
  int provided = 0;
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  for (int pass = 0; pass < 2; ++pass) {
    const char* when = pass == 0 ? "before MPI_Init" : "after MPI_Init";
    MT_CHECK(read_cvar("shmpi_eager_max") == 64 * 1024, "%s: eager_max", when);
    // Half a ring of 128 cells: a 40-byte head less 8, and 63 60-byte cells.
    MT_CHECK(read_cvar("shmpi_ring_eager_max") == 32 + 63 * 60,
             "%s: ring_eager_max %llu", when,
             read_cvar("shmpi_ring_eager_max"));
    MT_CHECK(read_cvar("shmpi_shared_malloc") == 1, "%s: shared_malloc", when);
    MT_CHECK(read_cvar("shmpi_heap_bytes") > 0, "%s: heap_bytes", when);
    if (pass == 0) {
      MPI_Init(NULL, NULL);
    }
  }
  // Stops after MPI_Finalize: large blocks come from malloc again.
  MPI_Finalize();
  MT_CHECK(read_cvar("shmpi_shared_malloc") == 0, "after MPI_Finalize");
  T_OK(MPI_T_finalize());
}

static u64 read_pvar(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  u64 value = 0;
  T_OK(MPI_T_pvar_read(session, handle, &value));
  return value;
}

static MPI_T_pvar_handle alloc_pvar(MPI_T_pvar_session session,
                                    const char* name, int var_class) {
  MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
  int count = 0;
  T_OK(MPI_T_pvar_handle_alloc(session, pvar_index(name, var_class), NULL,
                               &handle, &count));
  MT_ASSERT(count == 1);
  return handle;
}

// Rank 1 sends after 300 ms while rank 0 waits in MPI_Recv.
static void late_message(void) {
  int byte = 0;
  if (mt_rank() == 1) {
    mt_sleep_ms(300);
    MPI_Send(&byte, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (mt_rank() == 0) {
    MPI_Recv(&byte, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void case_sleep(void) {
  int provided = 0;
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  MPI_Init(NULL, NULL);
  MT_CHECK(mt_size() == 2, "two ranks");
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  T_OK(MPI_T_pvar_session_create(&session));
  MPI_T_pvar_handle sleeps =
      alloc_pvar(session, "shmpi_wait_sleeps", MPI_T_PVAR_CLASS_COUNTER);
  // Not started: counts nothing.
  T_OK(write_cvar("shmpi_sleep_timeout_ms", 2));
  late_message();
  MT_CHECK(read_pvar(session, sleeps) == 0, "a stopped counter counted");
  T_OK(MPI_T_pvar_start(session, sleeps));
  late_message();
  T_OK(MPI_T_pvar_stop(session, sleeps));
  const u64 short_limit = read_pvar(session, sleeps);
  late_message();  // stopped again: the value stays
  MT_CHECK(read_pvar(session, sleeps) == short_limit, "a stopped counter");
  T_OK(write_cvar("shmpi_sleep_timeout_ms", 0));
  u64 value = 0;
  T_OK(MPI_T_pvar_readreset(session, sleeps, &value));
  MT_ASSERT(value == short_limit);
  MT_ASSERT(read_pvar(session, sleeps) == 0);
  T_OK(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
  late_message();
  T_OK(MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES));
  const u64 no_limit = read_pvar(session, sleeps);
  if (mt_rank() == 0) {
    // 300 ms in sleeps of at most 2 ms, against sleeps woken only by the
    // message.
    MT_CHECK(short_limit >= 10, "%llu sleeps with a 2 ms limit", short_limit);
    MT_CHECK(no_limit <= 4, "%llu sleeps without a limit", no_limit);
  }
  // A counter is writable: the handle counts on from the value written.
  const u64 seven = 7;
  T_OK(MPI_T_pvar_write(session, sleeps, &seven));
  MT_ASSERT(read_pvar(session, sleeps) == 7);
  T_OK(MPI_T_pvar_reset(session, sleeps));
  MT_ASSERT(read_pvar(session, sleeps) == 0);
  T_OK(MPI_T_pvar_session_free(&session));
  MPI_Finalize();
  T_OK(MPI_T_finalize());
}

static void check_queues(MPI_T_pvar_session session) {
  MPI_T_pvar_handle unexpected = alloc_pvar(
      session, "shmpi_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL);
  MPI_T_pvar_handle posted = alloc_pvar(
      session, "shmpi_posted_recv_queue_length", MPI_T_PVAR_CLASS_LEVEL);
  MPI_T_pvar_handle peak = alloc_pvar(session, "shmpi_unexpected_queue_peak",
                                      MPI_T_PVAR_CLASS_HIGHWATERMARK);
  const int rank = mt_rank();
  int data[4] = {0, 0, 0, 0};
  // Three messages reach rank 0 before it posts a receive.
  if (rank == 1) {
    for (int tag = 1; tag <= 3; ++tag) {
      MPI_Send(&data[tag], 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int flag = 0;
    while (!flag) {
      MPI_Iprobe(1, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    MT_CHECK(read_pvar(session, unexpected) == 3, "%llu unexpected",
             read_pvar(session, unexpected));
    MT_CHECK(read_pvar(session, peak) == 3, "peak %llu",
             read_pvar(session, peak));
    for (int tag = 1; tag <= 3; ++tag) {
      MPI_Recv(&data[tag], 1, MPI_INT, 1, tag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
    MT_CHECK(read_pvar(session, unexpected) == 0, "%llu unexpected",
             read_pvar(session, unexpected));
    MT_CHECK(read_pvar(session, peak) == 3, "peak %llu after receiving",
             read_pvar(session, peak));
    // The mark is writable and resets to the level now.
    u64 value = 0;
    T_EXPECT(MPI_T_pvar_readreset(session, peak, &value),
             MPI_T_ERR_PVAR_NO_ATOMIC);
    T_OK(MPI_T_pvar_reset(session, peak));
    MT_CHECK(read_pvar(session, peak) == 0, "peak after reset");
    // Levels are read-only and continuous.
    T_EXPECT(MPI_T_pvar_write(session, unexpected, &value),
             MPI_T_ERR_PVAR_NO_WRITE);
    T_EXPECT(MPI_T_pvar_reset(session, unexpected), MPI_T_ERR_PVAR_NO_WRITE);
    T_EXPECT(MPI_T_pvar_start(session, unexpected),
             MPI_T_ERR_PVAR_NO_STARTSTOP);
  }
  // Two receives posted before their messages are sent.
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (rank == 0) {
    MPI_Irecv(&data[0], 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&data[1], 1, MPI_INT, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD,
              &requests[1]);
    MT_CHECK(read_pvar(session, posted) == 2, "%llu posted",
             read_pvar(session, posted));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Send(&data[0], 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    MPI_Send(&data[0], 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    MT_CHECK(read_pvar(session, posted) == 0, "%llu posted",
             read_pvar(session, posted));
    MT_CHECK(read_pvar(session, peak) == 0, "peak %llu",
             read_pvar(session, peak));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  T_OK(MPI_T_pvar_handle_free(session, &unexpected));
  MT_ASSERT(unexpected == MPI_T_PVAR_HANDLE_NULL);
  T_OK(MPI_T_pvar_handle_free(session, &posted));
  T_OK(MPI_T_pvar_handle_free(session, &peak));
}

static void check_heap(MPI_T_pvar_session session) {
  MPI_T_pvar_handle in_use =
      alloc_pvar(session, "shmpi_heap_bytes_in_use", MPI_T_PVAR_CLASS_LEVEL);
  MPI_T_pvar_handle size =
      alloc_pvar(session, "shmpi_heap_size", MPI_T_PVAR_CLASS_SIZE);
  MT_ASSERT(read_pvar(session, size) == read_cvar("shmpi_heap_bytes"));
  MPI_Barrier(MPI_COMM_WORLD);
  if (mt_rank() == 0) {
    const u64 before = read_pvar(session, in_use);
    void* block = NULL;
    MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &block);
    const u64 during = read_pvar(session, in_use);
    MPI_Free_mem(block);
    const u64 after = read_pvar(session, in_use);
    MT_CHECK(during >= before + (1 << 20) && after < during,
             "heap in use: %llu, %llu with 1 MiB, %llu freed", before, during,
             after);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  T_OK(MPI_T_pvar_handle_free(session, &in_use));
  T_OK(MPI_T_pvar_handle_free(session, &size));
}

// Counters of two sessions count independently.
static void check_io(MPI_T_pvar_session a) {
  MPI_T_pvar_session b = MPI_T_PVAR_SESSION_NULL;
  T_OK(MPI_T_pvar_session_create(&b));
  MPI_T_pvar_handle written_a =
      alloc_pvar(a, "shmpi_io_bytes_written", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle read_a =
      alloc_pvar(a, "shmpi_io_bytes_read", MPI_T_PVAR_CLASS_COUNTER);
  MPI_T_pvar_handle written_b =
      alloc_pvar(b, "shmpi_io_bytes_written", MPI_T_PVAR_CLASS_COUNTER);
  T_OK(MPI_T_pvar_start(a, MPI_T_PVAR_ALL_HANDLES));
  MPI_File file = mt_open_scratch_file("tool-io");
  char buffer[1000];
  memset(buffer, 7, sizeof buffer);
  const MPI_Offset at = (MPI_Offset)mt_rank() * (MPI_Offset)sizeof buffer;
  MT_CHECK_IO(MPI_File_write_at(file, at, buffer, (int)sizeof buffer, MPI_CHAR,
                                MPI_STATUS_IGNORE),
              "MPI_File_write_at");
  MT_CHECK(read_pvar(a, written_a) >= sizeof buffer, "%llu bytes written",
           read_pvar(a, written_a));
  MT_CHECK(read_pvar(b, written_b) == 0, "session b counted");
  MT_CHECK_IO(MPI_File_read_at(file, at, buffer, (int)sizeof buffer, MPI_CHAR,
                               MPI_STATUS_IGNORE),
              "MPI_File_read_at");
  MT_CHECK(read_pvar(a, read_a) >= sizeof buffer, "%llu bytes read",
           read_pvar(a, read_a));
  // Session b from now on; a stops.
  T_OK(MPI_T_pvar_stop(a, MPI_T_PVAR_ALL_HANDLES));
  T_OK(MPI_T_pvar_start(b, MPI_T_PVAR_ALL_HANDLES));
  const u64 a_before = read_pvar(a, written_a);
  MT_CHECK_IO(MPI_File_write_at(file, at, buffer, (int)sizeof buffer, MPI_CHAR,
                                MPI_STATUS_IGNORE),
              "MPI_File_write_at");
  MT_ASSERT(read_pvar(a, written_a) == a_before);
  MT_CHECK(read_pvar(b, written_b) >= sizeof buffer, "session b: %llu",
           read_pvar(b, written_b));
  u64 value = 0;
  T_OK(MPI_T_pvar_readreset(b, written_b, &value));
  MT_ASSERT(value >= sizeof buffer && read_pvar(b, written_b) == 0);
  T_OK(MPI_T_pvar_reset(a, MPI_T_PVAR_ALL_HANDLES));
  MT_ASSERT(read_pvar(a, written_a) == 0 && read_pvar(a, read_a) == 0);
  MPI_File_close(&file);
  // Handles belong to their session; a freed session is no session.
  T_EXPECT(MPI_T_pvar_read(a, written_b, &value), MPI_T_ERR_INVALID_HANDLE);
  T_EXPECT(MPI_T_pvar_read(a, MPI_T_PVAR_ALL_HANDLES, &value),
           MPI_T_ERR_INVALID_HANDLE);
  MPI_T_pvar_session stale = b;
  T_OK(MPI_T_pvar_session_free(&b));
  T_EXPECT(MPI_T_pvar_read(stale, written_b, &value),
           MPI_T_ERR_INVALID_SESSION);
  T_EXPECT(MPI_T_pvar_start(stale, MPI_T_PVAR_ALL_HANDLES),
           MPI_T_ERR_INVALID_SESSION);
  MPI_T_pvar_handle stale_handle = read_a;
  T_OK(MPI_T_pvar_handle_free(a, &read_a));
  T_EXPECT(MPI_T_pvar_read(a, stale_handle, &value), MPI_T_ERR_INVALID_HANDLE);
  T_EXPECT(MPI_T_pvar_handle_free(a, &stale_handle), MPI_T_ERR_INVALID_HANDLE);
  T_OK(MPI_T_pvar_handle_free(a, &written_a));
}

static void case_pvars(void) {
  int provided = 0;
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  T_OK(MPI_T_pvar_session_create(&session));
  // Before MPI_Init the queues exist nowhere yet.
  MPI_T_pvar_handle early = alloc_pvar(session, "shmpi_unexpected_queue_length",
                                       MPI_T_PVAR_CLASS_LEVEL);
  MT_ASSERT(read_pvar(session, early) == 0);
  MPI_Init(NULL, NULL);
  MT_CHECK(mt_size() == 2, "two ranks");
  check_queues(session);
  check_heap(session);
  check_io(session);
  T_OK(MPI_T_pvar_session_free(&session));
  MPI_Finalize();
  T_OK(MPI_T_finalize());
}

enum { kThreads = 4 };

// mt_scale(200), computed before the threads start (mt_scale caches its
// factor without a lock).
static long g_iterations;

static void* thread_body(void* arg) {
  (void)arg;
  int num = 0;
  T_OK(MPI_T_pvar_get_num(&num));
  for (long i = 0; i < g_iterations; ++i) {
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    T_OK(MPI_T_pvar_session_create(&session));
    for (int p = 0; p < num; ++p) {
      MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
      int count = 0;
      T_OK(MPI_T_pvar_handle_alloc(session, p, NULL, &handle, &count));
      u64 value = 0;
      T_OK(MPI_T_pvar_read(session, handle, &value));
    }
    T_OK(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
    T_OK(MPI_T_pvar_reset(session, MPI_T_PVAR_ALL_HANDLES));
    T_OK(MPI_T_pvar_session_free(&session));
    (void)read_cvar("shmpi_sleep_timeout_ms");
  }
  return NULL;
}

static void case_threads(void) {
  int provided = 0;
  T_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
  MT_ASSERT(provided == MPI_THREAD_MULTIPLE);
  MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided);
  g_iterations = mt_scale(200);
  pthread_t ids[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    MT_ASSERT(pthread_create(&ids[t], NULL, thread_body, NULL) == 0);
  }
  // Meanwhile this thread moves messages through its own queues.
  int value = 0;
  for (long i = 0; i < g_iterations; ++i) {
    MPI_Sendrecv(&value, 1, MPI_INT, 0, 0, &value, 1, MPI_INT, 0, 0,
                 MPI_COMM_SELF, MPI_STATUS_IGNORE);
  }
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(ids[t], NULL);
  }
  MPI_Finalize();
  T_OK(MPI_T_finalize());
}

int main(int argc, char** argv) {
  const mt_case cases[] = {
      {"env", case_env},     {"defaults", case_defaults}, {"sleep", case_sleep},
      {"pvars", case_pvars}, {"threads", case_threads},
  };
  mt_run_case(argc, argv, cases, sizeof cases / sizeof cases[0]);
  return 0;
}
