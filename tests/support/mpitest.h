// SPDX-License-Identifier: MIT
// Helpers shared by the MPI test programs in tests/mpi: failure reporting,
// iteration scaling (SHMPI_TEST_SCALE), byte patterns for content checks and
// the bad-input harness. Plain C11 over standard MPI, so every program also
// builds against MPICH (tests/mpi/run_with_mpich.sh). The programs are built
// with _POSIX_C_SOURCE=200809L (the definition below only covers a build
// that forgot it and includes this header first).
#ifndef SHMPI_TESTS_SUPPORT_MPITEST_H_
#define SHMPI_TESTS_SUPPORT_MPITEST_H_

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Exit status that CTest reports as "skipped" (SKIP_RETURN_CODE 77).
#define MT_SKIP_CODE 77

// Rank in MPI_COMM_WORLD, or -1 outside MPI_Init..MPI_Finalize.
static inline int mt_rank(void) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    return -1;
  }
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

static inline int mt_size(void) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Prints "FAIL: rank R: file:line: message" to stderr and ends the job with
// exit code 1 (MPI_Abort inside MPI, exit(1) outside).
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4), noreturn))
#endif
static void
mt_fail_at(const char* file, int line, const char* fmt, ...) {
  char message[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  const int rank = mt_rank();
  fprintf(stderr, "FAIL: rank %d: %s:%d: %s\n", rank, file, line, message);
  fflush(stderr);
  if (rank >= 0) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  exit(1);
}

#define MT_FAIL(...) mt_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define MT_CHECK(cond, ...) \
  do {                      \
    if (!(cond)) {          \
      MT_FAIL(__VA_ARGS__); \
    }                       \
  } while (0)

// MT_CHECK whose message is the condition itself.
#define MT_ASSERT(cond) MT_CHECK((cond), "check failed: %s", #cond)

// One case of a program that runs the case its first argument names.
typedef struct {
  const char* name;
  void (*run)(void);
} mt_case;

// Runs the case argv[1] names among the `count` cases; fails the test when
// none has that name.
static inline void mt_run_case(int argc, char** argv, const mt_case* cases,
                               size_t count) {
  const char* which = argc > 1 ? argv[1] : "";
  for (size_t i = 0; i < count; ++i) {
    if (strcmp(which, cases[i].name) == 0) {
      cases[i].run();
      return;
    }
  }
  MT_FAIL("unknown case '%s'", which);
}

// Text of an MPI error code, for failure messages.
static inline const char* mt_error_string(int code) {
  static char text[MPI_MAX_ERROR_STRING + 32];
  char buf[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS) {
    snprintf(buf, sizeof buf, "(no error string)");
  }
  snprintf(text, sizeof text, "code %d: %s", code, buf);
  return text;
}

// Checks that an MPI call returned MPI_SUCCESS (meaningful under
// MPI_ERRORS_RETURN; under the default handler a failure never returns).
#define MT_CHECK_MPI(call)                                   \
  do {                                                       \
    const int mt_rc_ = (call);                               \
    MT_CHECK(mt_rc_ == MPI_SUCCESS, "%s returned %s", #call, \
             mt_error_string(mt_rc_));                       \
  } while (0)

// Name of an error class, for failure messages.
static inline const char* mt_class_name(int error_class) {
  const struct {
    int value;
    const char* name;
  } names[] = {
      {MPI_SUCCESS, "MPI_SUCCESS"},
      {MPI_ERR_BUFFER, "MPI_ERR_BUFFER"},
      {MPI_ERR_COUNT, "MPI_ERR_COUNT"},
      {MPI_ERR_TYPE, "MPI_ERR_TYPE"},
      {MPI_ERR_TAG, "MPI_ERR_TAG"},
      {MPI_ERR_COMM, "MPI_ERR_COMM"},
      {MPI_ERR_RANK, "MPI_ERR_RANK"},
      {MPI_ERR_GROUP, "MPI_ERR_GROUP"},
      {MPI_ERR_REQUEST, "MPI_ERR_REQUEST"},
      {MPI_ERR_ROOT, "MPI_ERR_ROOT"},
      {MPI_ERR_OP, "MPI_ERR_OP"},
      {MPI_ERR_ARG, "MPI_ERR_ARG"},
      {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE"},
      {MPI_ERR_OTHER, "MPI_ERR_OTHER"},
      {MPI_ERR_INTERN, "MPI_ERR_INTERN"},
      {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS"},
      {MPI_ERR_PENDING, "MPI_ERR_PENDING"},
      {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    if (names[i].value == error_class) {
      return names[i].name;
    }
  }
  return "(another class)";
}

// SHMPI_TEST_SCALE: a factor (default 1) applied to iteration counts, e.g.
// 0.1 under sanitizers. A scaled count is never below 1.
static inline long mt_scale(long count) {
  static double factor = -1.0;
  if (factor < 0.0) {
    const char* text = getenv("SHMPI_TEST_SCALE");
    factor = text != NULL ? strtod(text, NULL) : 1.0;
    if (!(factor > 0.0)) {
      factor = 1.0;
    }
  }
  const long scaled = (long)((double)count * factor);
  return scaled < 1 ? 1 : scaled;
}

static inline void mt_sleep_ms(long ms) {
  struct timespec delay = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&delay, &delay) != 0) {
  }
}

// Seeded pseudo-random numbers (splitmix64): every rank that starts from
// the same state draws the same sequence, so ranks can agree on a random
// schedule without communicating.
static inline uint64_t mt_random(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// A draw below n (n > 0).
static inline unsigned mt_random_below(uint64_t* state, unsigned n) {
  return (unsigned)(mt_random(state) % n);
}

// Content patterns: byte i of a message with a given seed. The seed mixes
// whatever identifies the message (source, destination, size, iteration) so
// that a stale or misdelivered buffer does not pass.
static inline uint32_t mt_seed(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  uint32_t h = 2166136261u;
  const uint32_t parts[4] = {a, b, c, d};
  for (int i = 0; i < 4; ++i) {
    h = (h ^ parts[i]) * 16777619u;
  }
  return h;
}

static inline unsigned char mt_pattern_byte(uint32_t seed, size_t index) {
  const uint32_t x = (uint32_t)index * 2654435761u + seed;
  return (unsigned char)((x >> 24) ^ (x >> 11) ^ (uint32_t)(index >> 8));
}

static inline void mt_fill(void* buf, size_t len, uint32_t seed) {
  unsigned char* bytes = (unsigned char*)buf;
  for (size_t i = 0; i < len; ++i) {
    bytes[i] = mt_pattern_byte(seed, i);
  }
}

// Index of the first byte that differs from the pattern, or len if none does.
static inline size_t mt_first_mismatch(const void* buf, size_t len,
                                       uint32_t seed) {
  const unsigned char* bytes = (const unsigned char*)buf;
  for (size_t i = 0; i < len; ++i) {
    if (bytes[i] != mt_pattern_byte(seed, i)) {
      return i;
    }
  }
  return len;
}

// Receive buffers carry a guard after the message: it must stay untouched.
#define MT_GUARD_LEN 64
#define MT_GUARD_BYTE 0xEE

static inline void mt_fill_guard(void* buf, size_t len) {
  memset(buf, MT_GUARD_BYTE, len + MT_GUARD_LEN);
}

#define MT_CHECK_PATTERN(buf, len, seed, ...)                               \
  do {                                                                      \
    const size_t mt_len_ = (size_t)(len);                                   \
    const size_t mt_bad_ = mt_first_mismatch((buf), mt_len_, (seed));       \
    MT_CHECK(mt_bad_ == mt_len_, "content differs at byte %zu of %zu (%s)", \
             mt_bad_, mt_len_, __VA_ARGS__);                                \
  } while (0)

#define MT_CHECK_GUARD(buf, len, ...)                                          \
  do {                                                                         \
    const unsigned char* mt_g_ = (const unsigned char*)(buf) + (size_t)(len);  \
    for (size_t mt_i_ = 0; mt_i_ < MT_GUARD_LEN; ++mt_i_) {                    \
      MT_CHECK(mt_g_[mt_i_] == MT_GUARD_BYTE,                                  \
               "byte %zu past the end of a %zu-byte message was written (%s)", \
               mt_i_, (size_t)(len), __VA_ARGS__);                             \
    }                                                                          \
  } while (0)

static inline void* mt_malloc(size_t len) {
  void* p = malloc(len == 0 ? 1 : len);
  MT_CHECK(p != NULL, "malloc(%zu) failed", len);
  return p;
}

// A buffer from malloc, or from MPI_Alloc_mem when `alloc_mem` (in shmpi
// both may be the shared heap; MPI_Alloc_mem's is, in every build), and
// its release.
static inline void* mt_alloc(size_t len, int alloc_mem) {
  if (!alloc_mem) {
    return mt_malloc(len);
  }
  void* p = NULL;
  const int rc =
      MPI_Alloc_mem((MPI_Aint)(len == 0 ? 1 : len), MPI_INFO_NULL, &p);
  MT_CHECK(rc == MPI_SUCCESS && p != NULL, "MPI_Alloc_mem(%zu) failed", len);
  return p;
}
static inline void mt_free(void* p, int alloc_mem) {
  if (alloc_mem) {
    MPI_Free_mem(p);
  } else {
    free(p);
  }
}

// The direct-path tests' argument: "alloc_mem" takes the buffers that may
// be used in place from MPI_Alloc_mem instead of malloc.
static inline int mt_alloc_mem_arg(int argc, char** argv) {
  return argc > 1 && strcmp(argv[1], "alloc_mem") == 0;
}

// A committed type of n ints, every other one, whose extent is 2n ints:
// one block of n elements, strided, that tiles with the next block.
static inline MPI_Datatype mt_every_other_block(int n) {
  MPI_Datatype every_other, block;
  MT_CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
  MT_CHECK_MPI(MPI_Type_create_resized(
      every_other, 0, (MPI_Aint)(2 * (size_t)n * sizeof(int)), &block));
  MT_CHECK_MPI(MPI_Type_commit(&block));
  MT_CHECK_MPI(MPI_Type_free(&every_other));
  return block;
}

// ---- bad-input harness (tests/mpi/errors) ----
//
// A bad-input program runs in one of two modes. Without arguments every rank
// makes the bad call under MPI_ERRORS_RETURN (set on MPI_COMM_WORLD and
// MPI_COMM_SELF, since MPI 4.0 raises errors not tied to an object on
// MPI_COMM_SELF) and checks the error class. With the argument "fatal" the
// default handler stays in place, only rank 0 makes the bad call and the
// other ranks wait in MPI_Barrier: the job must end with a non-zero status
// and a readable message, which the test registration checks.

static inline int mt_errors_init(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  const int fatal = *argc > 1 && strcmp((*argv)[1], "fatal") == 0;
  if (!fatal) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  return fatal;
}

// Whether this rank makes the bad call.
static inline int mt_errors_caller(int fatal) {
  return !fatal || mt_rank() == 0;
}

#define MT_EXPECT_CLASS(fatal, rc, expected, what)                             \
  mt_expect_class_at(__FILE__, __LINE__, (fatal), (rc), (expected), #expected, \
                     (what))

static inline void mt_expect_class_at(const char* file, int line, int fatal,
                                      int rc, int expected,
                                      const char* expected_name,
                                      const char* what) {
  if (fatal) {
    mt_fail_at(file, line,
               "%s returned (%s) under MPI_ERRORS_ARE_FATAL; expected the "
               "job to abort",
               what, mt_error_string(rc));
  }
  if (rc == MPI_SUCCESS) {
    mt_fail_at(file, line, "%s succeeded; expected %s", what, expected_name);
  }
  int error_class = -1;
  if (MPI_Error_class(rc, &error_class) != MPI_SUCCESS) {
    mt_fail_at(file, line, "MPI_Error_class(%d) failed after %s", rc, what);
  }
  if (error_class != expected) {
    mt_fail_at(file, line, "%s: error class %s (%d), expected %s; %s", what,
               mt_class_name(error_class), error_class, expected_name,
               mt_error_string(rc));
  }
}

// Ends a bad-input program: other ranks of a fatal run block here until the
// job is torn down.
static inline int mt_errors_finish(int fatal) {
  if (fatal) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank() == 0) {
      MT_FAIL("the job survived a fatal error");
    }
  }
  MPI_Finalize();
  return 0;
}

#endif  // SHMPI_TESTS_SUPPORT_MPITEST_H_
