// SPDX-License-Identifier: MIT
// Ordinary malloc'd buffers as message buffers, and the allocator contract
// around them. In shmpi, blocks of 64 KiB and more allocated between MPI_Init
// and MPI_Finalize come from the job's shared heap (src/shared_malloc), so
// the receiver copies large messages straight out of the sender's buffer;
// under MPICH the same program checks plain malloc.
//
//   on   shmpi must place large blocks in the shared segment (a "memfd:shmpi"
//        mapping) and small ones outside it (skipped under the sanitizers,
//        whose runtimes keep malloc, and under other MPIs)
//   off  run with SHMPI_SHARED_MALLOC=0: nothing may be in the segment
//
// Both modes then check, between ranks 0 and 1 (the others pair up too):
// messages of 64 KiB-1 MiB+7 from the start and the middle of large blocks,
// blocking and nonblocking, sent while unexpected and while posted; copies
// of 32 KiB and more split between a waiting or a busy sender and the
// receiver; sends of
// up to 64 KiB that complete before any receive is posted (head to head);
// 48 blocking sends of under 32 KiB, all unexpected, each buffer rewritten
// as soon as its send returns;
// realloc growing and shrinking with contents kept; calloc zeroing a reused
// block; the aligned allocators; malloc_usable_size; four threads
// allocating and freeing at once; a fork()ed child that frees a parent's
// block without harming it; and blocks written before MPI_Finalize read and
// freed after it.
#define _GNU_SOURCE 1
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpitest.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

enum { kBig = (1 << 20) + 7, kThreads = 4 };

static int is_shmpi(void) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  return strstr(version, "shmpi") != NULL;
}

// True if `p` lies in a mapping of the shmpi segment's memfd.
static int in_segment(const void* p) {
  FILE* maps = fopen("/proc/self/maps", "r");
  MT_CHECK(maps != NULL, "cannot open /proc/self/maps");
  char line[512];
  int found = 0;
  const uintptr_t addr = (uintptr_t)p;
  while (fgets(line, sizeof line, maps) != NULL) {
    unsigned long lo = 0;
    unsigned long hi = 0;
    if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi) {
      found = strstr(line, "memfd:shmpi") != NULL;
      break;
    }
  }
  fclose(maps);
  return found;
}

static void check_placement(int expect_shared) {
  char* big = malloc(256 * 1024);
  char* small = malloc(1000);
  void* aligned = NULL;
  MT_ASSERT(big != NULL && small != NULL);
  MT_ASSERT(posix_memalign(&aligned, 4096, 128 * 1024) == 0);
  MT_CHECK(in_segment(big) == expect_shared,
           "a 256 KiB block is %s the shared segment",
           expect_shared ? "outside" : "inside");
  MT_CHECK(in_segment(aligned) == expect_shared,
           "a 128 KiB aligned block is %s the shared segment",
           expect_shared ? "outside" : "inside");
  MT_CHECK(!in_segment(small), "a 1000-byte block is in the shared segment");
  free(big);
  free(small);
  free(aligned);
}

// Messages between partners (0-1, 2-3, ...): each size from the block's
// start and from an odd offset into it, with content checks.
static void exchange(int rank, int partner) {
  static const size_t kSizes[] = {65535, 65536, 65537, 200000, kBig};
  char* send = malloc(kBig + 4096);
  char* recv = malloc(kBig + 4096 + MT_GUARD_LEN);
  MT_ASSERT(send != NULL && recv != NULL);
  for (size_t i = 0; i < sizeof kSizes / sizeof kSizes[0]; ++i) {
    for (int offset = 0; offset <= 4095; offset += 4095) {
      const size_t n = kSizes[i];
      const uint32_t seed =
          mt_seed((uint32_t)rank, (uint32_t)i, (uint32_t)offset, 11);
      const uint32_t peer_seed =
          mt_seed((uint32_t)partner, (uint32_t)i, (uint32_t)offset, 11);
      mt_fill(send + offset, n, seed);
      mt_fill_guard(recv + offset, n);
      MPI_Request reqs[2];
      MPI_Status status;
      if (rank < partner) {
        // Ours is unexpected at the partner, the partner's is posted here.
        MT_CHECK_MPI(MPI_Send(send + offset, (int)n, MPI_BYTE, partner, 1,
                              MPI_COMM_WORLD));
        MT_CHECK_MPI(MPI_Recv(recv + offset, (int)n, MPI_BYTE, partner, 2,
                              MPI_COMM_WORLD, &status));
      } else {
        MT_CHECK_MPI(MPI_Irecv(recv + offset, (int)n, MPI_BYTE, partner, 1,
                               MPI_COMM_WORLD, &reqs[0]));
        MT_CHECK_MPI(MPI_Isend(send + offset, (int)n, MPI_BYTE, partner, 2,
                               MPI_COMM_WORLD, &reqs[1]));
        MT_CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
      }
      MT_CHECK_PATTERN(recv + offset, n, peer_seed, "a large message");
      MT_CHECK_GUARD(recv + offset, n, "a large message");
      // The send buffer may be reused at once.
      memset(send + offset, 0, n);
    }
  }
  free(recv);
  free(send);
}

// Messages of 32 KiB and more between two heap buffers are copied half by
// the receiver and half by whichever side claims the rest first: the
// sender when it waits, the receiver when the sender is busy elsewhere.
static void split_copies(int rank, int partner, int alloc_mem) {
  static const size_t kSizes[] = {32768,  32768 + 65,  100003,
                                  262144, 262144 + 65, (2u << 20) + 3};
  const size_t send_bytes = (2u << 20) + 64;
  const size_t recv_bytes = (2u << 20) + 64 + MT_GUARD_LEN;
  // MPI_Alloc_mem's buffers are in the shared heap in sanitizer builds too.
  char* send = mt_alloc(send_bytes, alloc_mem);
  char* recv = mt_alloc(recv_bytes, alloc_mem);
  MT_ASSERT(send != NULL && recv != NULL);
  for (size_t i = 0; i < sizeof kSizes / sizeof kSizes[0]; ++i) {
    for (int busy_sender = 0; busy_sender < 2; ++busy_sender) {
      const size_t n = kSizes[i];
      const int sender = (int)(i + (size_t)busy_sender) % 2 == 0
                             ? (rank < partner ? rank : partner)
                             : (rank < partner ? partner : rank);
      const uint32_t seed =
          mt_seed((uint32_t)sender, (uint32_t)i, (uint32_t)busy_sender, 17);
      if (rank == sender) {
        mt_fill(send, n, seed);
        MPI_Request request;
        MT_CHECK_MPI(MPI_Isend(send, (int)n, MPI_BYTE, partner, 4,
                               MPI_COMM_WORLD, &request));
        if (busy_sender) {
          mt_sleep_ms(20);  // no MPI call: the receiver copies it all
        }
        MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
        memset(send, 0, n);
      } else {
        mt_fill_guard(recv + 1, n);
        MPI_Status status;
        int got = 0;
        MT_CHECK_MPI(MPI_Recv(recv + 1, (int)n, MPI_BYTE, partner, 4,
                              MPI_COMM_WORLD, &status));
        MT_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &got));
        MT_CHECK((size_t)got == n, "got %d bytes of %zu", got, n);
        MT_CHECK_PATTERN(recv + 1, n, seed, "a split copy");
        MT_CHECK_GUARD(recv + 1, n, "a split copy");
      }
      MT_CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, partner, 5, NULL, 0,
                                MPI_BYTE, partner, 5, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
    }
  }
  mt_free(recv, alloc_mem);
  mt_free(send, alloc_mem);
}

// Head to head: both partners send first, so each send of up to 64 KiB
// must complete before the other side posts its receive.
static void head_to_head(int rank, int partner) {
  char* send = malloc(65536);
  char* recv = malloc(65536);
  MT_ASSERT(send != NULL && recv != NULL);
  for (int round = 0; round < 20; ++round) {
    const size_t n = round % 2 == 0 ? 65536 : 40000;
    mt_fill(send, n, mt_seed((uint32_t)rank, (uint32_t)round, 3, 5));
    MT_CHECK_MPI(MPI_Send(send, (int)n, MPI_BYTE, partner, 3, MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Recv(recv, (int)n, MPI_BYTE, partner, 3, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    MT_CHECK_PATTERN(recv, n, mt_seed((uint32_t)partner, (uint32_t)round, 3, 5),
                     "a head-to-head message");
  }
  free(recv);
  free(send);
}

// Blocking sends of less than 32 KiB from a large block: in shmpi they go
// through the receiver's staging chunks (complete once packed) where
// nonblocking ones are copied by the receiver straight from the block.
// The lower rank sends 48 of them while its partner makes no MPI call, so
// that the chunks run out and the rest take the other path; it rewrites
// each message's bytes as soon as MPI_Send returns.
static void blocking_from_block(int rank, int partner, int alloc_mem) {
  static const size_t kSizes[] = {1793, 2048, 4096, 16384, 32767, 30001};
  enum { kMessages = 48, kSlot = 32768 };
  char* block = mt_alloc((size_t)kMessages * kSlot + MT_GUARD_LEN, alloc_mem);
  MT_ASSERT(block != NULL);
  const size_t kCount = sizeof kSizes / sizeof kSizes[0];
  if (rank < partner) {
    for (int k = 0; k < kMessages; ++k) {
      char* at = block + (size_t)(k % 4) * kSlot + (size_t)k % 7;
      const size_t n = kSizes[(size_t)k % kCount];
      mt_fill(at, n, mt_seed((uint32_t)rank, (uint32_t)k, 7, 23));
      MT_CHECK_MPI(MPI_Send(at, (int)n, MPI_BYTE, partner, 6, MPI_COMM_WORLD));
      memset(at, 0xee, n);
    }
  } else {
    mt_sleep_ms(30);  // every message arrives unexpected
    for (int k = 0; k < kMessages; ++k) {
      char* at = block + (size_t)k * kSlot;
      const size_t n = kSizes[(size_t)k % kCount];
      mt_fill_guard(at, n);
      MPI_Status status;
      int got = 0;
      MT_CHECK_MPI(
          MPI_Recv(at, (int)n, MPI_BYTE, partner, 6, MPI_COMM_WORLD, &status));
      MT_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &got));
      MT_CHECK((size_t)got == n, "message %d: got %d bytes of %zu", k, got, n);
      MT_CHECK_PATTERN(at, n, mt_seed((uint32_t)partner, (uint32_t)k, 7, 23),
                       "a blocking send from a large block");
      MT_CHECK_GUARD(at, n, "a blocking send from a large block");
    }
  }
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  mt_free(block, alloc_mem);
}

static void allocator_contract(void) {
  // realloc: grow across the threshold, grow again, shrink, keep contents.
  char* p = malloc(1000);
  MT_ASSERT(p != NULL);
  mt_fill(p, 1000, 21);
  p = realloc(p, 300 * 1000);
  MT_ASSERT(p != NULL);
  MT_CHECK_PATTERN(p, 1000, 21, "realloc 1000 -> 300000");
  mt_fill(p, 300 * 1000, 22);
  p = realloc(p, 2 * 1000 * 1000);
  MT_ASSERT(p != NULL);
  MT_CHECK_PATTERN(p, 300 * 1000, 22, "realloc 300000 -> 2000000");
  p = realloc(p, 70 * 1000);
  MT_ASSERT(p != NULL);
  MT_CHECK_PATTERN(p, 70 * 1000, 22, "realloc 2000000 -> 70000");
  p = realloc(p, 100);
  MT_ASSERT(p != NULL);
  MT_CHECK_PATTERN(p, 100, 22, "realloc 70000 -> 100");
  free(p);
  // calloc must zero a block that malloc handed out and got back before.
  for (int i = 0; i < 4; ++i) {
    unsigned char* dirty = malloc(512 * 1024);
    MT_ASSERT(dirty != NULL);
    memset(dirty, 0xA5, 512 * 1024);
    free(dirty);
    unsigned char* clean = calloc(512, 1024);
    MT_ASSERT(clean != NULL);
    for (size_t k = 0; k < 512 * 1024; k += 97) {
      MT_CHECK(clean[k] == 0, "calloc left byte %zu at %u", k, clean[k]);
    }
    free(clean);
  }
  if (!SANITIZED) {  // AddressSanitizer reports the overflow as an error
    volatile size_t huge = (size_t)-1;  // calloc must catch it
    MT_ASSERT(calloc(huge, 16) == NULL);
  }
  // The aligned allocators and malloc_usable_size, large and small.
  static const size_t kAligns[] = {16, 64, 4096, 65536};
  for (size_t i = 0; i < sizeof kAligns / sizeof kAligns[0]; ++i) {
    const size_t a = kAligns[i];
    void* q = NULL;
    MT_ASSERT(posix_memalign(&q, a, 200 * 1000) == 0);
    MT_CHECK((uintptr_t)q % a == 0, "posix_memalign(%zu) gave %p", a, q);
    MT_CHECK(malloc_usable_size(q) >= 200 * 1000, "usable size %zu",
             malloc_usable_size(q));
    memset(q, 1, 200 * 1000);
    free(q);
    q = aligned_alloc(a, 256 * 1024);
    MT_CHECK(q != NULL && (uintptr_t)q % a == 0, "aligned_alloc(%zu)", a);
    free(q);
    q = memalign(a, 100 * 1000);
    MT_CHECK(q != NULL && (uintptr_t)q % a == 0, "memalign(%zu)", a);
    free(q);
  }
  void* q = NULL;
  if (!SANITIZED) {  // AddressSanitizer reports a bad alignment as an error
    MT_ASSERT(posix_memalign(&q, 24, 100000) == EINVAL);
  }
  q = valloc(300 * 1000);
  MT_CHECK(q != NULL && (uintptr_t)q % 4096 == 0, "valloc gave %p", q);
  free(q);
  q = malloc(100);
  MT_CHECK(malloc_usable_size(q) >= 100, "usable size %zu of a small block",
           malloc_usable_size(q));
  free(q);
}

static void* churn(void* arg) {
  const uint32_t t = (uint32_t)(intptr_t)arg;
  for (int i = 0; i < 200; ++i) {
    const size_t n =
        64 * 1024 + (size_t)((i * 7919 + (int)t * 104729) % 300000);
    char* a = malloc(n);
    char* b = malloc(n / 2 + 70000);
    MT_ASSERT(a != NULL && b != NULL);
    mt_fill(a, n, mt_seed(t, (uint32_t)i, 1, 1));
    mt_fill(b, n / 2 + 70000, mt_seed(t, (uint32_t)i, 2, 2));
    MT_CHECK_PATTERN(a, n, mt_seed(t, (uint32_t)i, 1, 1), "thread block a");
    MT_CHECK_PATTERN(b, n / 2 + 70000, mt_seed(t, (uint32_t)i, 2, 2),
                     "thread block b");
    free(a);
    free(b);
  }
  return NULL;
}

static void threads_at_once(void) {
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    MT_ASSERT(pthread_create(&threads[t], NULL, churn, (void*)(intptr_t)t) ==
              0);
  }
  for (int t = 0; t < kThreads; ++t) {
    MT_ASSERT(pthread_join(threads[t], NULL) == 0);
  }
}

// A fork()ed child frees the parent's block and allocates its own; the
// parent's block must keep its contents and stay the parent's.
static void fork_child(void) {
  char* mine = malloc(300 * 1000);
  MT_ASSERT(mine != NULL);
  mt_fill(mine, 300 * 1000, 31);
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  MT_CHECK(child >= 0, "fork failed");
  if (child == 0) {
    free(mine);
    char* own = malloc(300 * 1000);
    if (own == NULL) {
      _exit(3);
    }
    memset(own, 0x77, 300 * 1000);
    free(own);
    _exit(0);
  }
  int status = 0;
  MT_ASSERT(waitpid(child, &status, 0) == child);
  MT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "the forked child failed (status %d)", status);
  // Had the child's free() reached the shared heap, this block could take
  // the same memory and overwrite `mine`.
  char* other = malloc(300 * 1000);
  MT_ASSERT(other != NULL);
  memset(other, 0x55, 300 * 1000);
  MT_CHECK_PATTERN(mine, 300 * 1000, 31, "a block a forked child freed");
  free(other);
  free(mine);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(
      argc == 2 && (strcmp(argv[1], "on") == 0 || strcmp(argv[1], "off") == 0),
      "usage: shared_malloc on|off");
  const int rank = mt_rank();
  const int size = mt_size();
  const int shared = strcmp(argv[1], "on") == 0;
  if (is_shmpi() && !SANITIZED) {
    check_placement(shared);
  }
  const int partner = rank ^ 1;
  if (partner < size) {
    exchange(rank, partner);
    split_copies(rank, partner, 0);
    split_copies(rank, partner, 1);
    head_to_head(rank, partner);
  }
  if (partner < size) {
    blocking_from_block(rank, partner, 0);
    blocking_from_block(rank, partner, 1);
  } else {
    MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  }
  allocator_contract();
  threads_at_once();
  fork_child();
  // Written before MPI_Finalize, read and freed after it.
  char* kept = malloc(kBig);
  MT_ASSERT(kept != NULL);
  mt_fill(kept, kBig, mt_seed((uint32_t)rank, 41, 0, 0));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  MT_CHECK_PATTERN(kept, kBig, mt_seed((uint32_t)rank, 41, 0, 0),
                   "a block after MPI_Finalize");
  free(kept);
  char* after = malloc(kBig);
  MT_ASSERT(after != NULL);
  memset(after, 1, kBig);
  free(after);
  if (rank == 0) {
    printf("shared_malloc %s: ok\n", argv[1]);
  }
  return 0;
}
