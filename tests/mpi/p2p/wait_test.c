// SPDX-License-Identifier: MIT
// MPI 4.0 §3.7.5: "It is convenient to be able to wait for the completion of
// any, some, or all the operations in a list"; null handles in the list are
// ignored, and a list with no active handle completes at once
// (MPI_UNDEFINED index/outcount, or flag = true).
//
// Rank 0 completes a list that mixes receives from every other rank (0 to
// 70000 bytes), an MPI_Isend/MPI_Irecv pair with itself and MPI_REQUEST_NULL
// entries, using one function of the family (argument: waitall, testall,
// waitany, testany, waitsome or testsome), with statuses and with
// MPI_STATUS(ES)_IGNORE on alternate rounds. Each request must complete
// exactly once, be set to MPI_REQUEST_NULL, and deliver the right message.
#include "mpitest.h"

enum { kSelfTag = 100000 };
static const size_t kLens[4] = {0, 8, 5000, 70000};

typedef struct {
  int active;  // 0 for an MPI_REQUEST_NULL entry
  int is_send;
  int source;
  int tag;
  size_t len;
  uint32_t seed;
  char* buf;
  int done;
} Entry;

static const char* function;

static void check_completed(Entry* entries, MPI_Request* reqs, int index,
                            const MPI_Status* status) {
  MT_CHECK(index >= 0, "%s returned index %d", function, index);
  Entry* e = &entries[index];
  MT_CHECK(e->active, "%s reported null entry %d as completed", function,
           index);
  MT_CHECK(!e->done, "%s reported entry %d complete twice", function, index);
  MT_CHECK(reqs[index] == MPI_REQUEST_NULL,
           "%s left completed entry %d's handle set", function, index);
  e->done = 1;
  if (e->is_send) {
    return;
  }
  if (status != NULL) {
    int count = -1;
    MPI_Get_count(status, MPI_BYTE, &count);
    MT_CHECK(status->MPI_SOURCE == e->source && status->MPI_TAG == e->tag &&
                 count == (int)e->len,
             "%s: entry %d status %d/%d/%d, expected %d/%d/%zu", function,
             index, status->MPI_SOURCE, status->MPI_TAG, count, e->source,
             e->tag, e->len);
  }
  MT_CHECK_PATTERN(e->buf, e->len, e->seed, function);
  MT_CHECK_GUARD(e->buf, e->len, function);
}

static void check_empty_list(void) {
  MPI_Request nulls[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status statuses[3];
  MPI_Status status;
  int index = 0;
  int flag = 0;
  int outcount = 0;
  int indices[3];
  MPI_Waitall(3, nulls, statuses);
  for (int i = 0; i < 3; ++i) {
    MT_CHECK(statuses[i].MPI_SOURCE == MPI_ANY_SOURCE &&
                 statuses[i].MPI_TAG == MPI_ANY_TAG,
             "MPI_Waitall on null requests: status %d/%d is not empty",
             statuses[i].MPI_SOURCE, statuses[i].MPI_TAG);
  }
  MPI_Testall(3, nulls, &flag, MPI_STATUSES_IGNORE);
  MT_CHECK(flag, "MPI_Testall on null requests: flag false");
  MPI_Waitany(3, nulls, &index, &status);
  MT_CHECK(index == MPI_UNDEFINED, "MPI_Waitany on null requests: index %d",
           index);
  flag = 0;
  MPI_Testany(3, nulls, &index, &flag, MPI_STATUS_IGNORE);
  MT_CHECK(flag && index == MPI_UNDEFINED,
           "MPI_Testany on null requests: flag %d index %d", flag, index);
  MPI_Waitsome(3, nulls, &outcount, indices, statuses);
  MT_CHECK(outcount == MPI_UNDEFINED,
           "MPI_Waitsome on null requests: outcount %d", outcount);
  MPI_Testsome(3, nulls, &outcount, indices, MPI_STATUSES_IGNORE);
  MT_CHECK(outcount == MPI_UNDEFINED,
           "MPI_Testsome on null requests: outcount %d", outcount);
  // An empty list.
  MPI_Waitall(0, nulls, statuses);
  MPI_Testall(0, nulls, &flag, statuses);
  MT_CHECK(flag, "MPI_Testall on an empty list: flag false");
  MPI_Waitany(0, nulls, &index, &status);
  MT_CHECK(index == MPI_UNDEFINED, "MPI_Waitany on an empty list: index %d",
           index);
}

static void complete_all(int n, Entry* entries, MPI_Request* reqs,
                         int use_statuses) {
  MPI_Status* statuses = mt_malloc(sizeof(MPI_Status) * (size_t)n);
  int* indices = mt_malloc(sizeof(int) * (size_t)n);
  MPI_Status* statuses_arg = use_statuses ? statuses : MPI_STATUSES_IGNORE;
  MPI_Status status;
  MPI_Status* status_arg = use_statuses ? &status : MPI_STATUS_IGNORE;
  if (strcmp(function, "waitall") == 0 || strcmp(function, "testall") == 0) {
    if (function[0] == 'w') {
      MPI_Waitall(n, reqs, statuses_arg);
    } else {
      int flag = 0;
      while (!flag) {
        MPI_Testall(n, reqs, &flag, statuses_arg);
      }
    }
    for (int i = 0; i < n; ++i) {
      if (entries[i].active) {
        check_completed(entries, reqs, i, use_statuses ? &statuses[i] : NULL);
      }
    }
  } else if (strcmp(function, "waitany") == 0 ||
             strcmp(function, "testany") == 0) {
    for (;;) {
      int index = MPI_UNDEFINED;
      if (function[0] == 'w') {
        MPI_Waitany(n, reqs, &index, status_arg);
      } else {
        int flag = 0;
        MPI_Testany(n, reqs, &index, &flag, status_arg);
        if (!flag) {
          continue;
        }
      }
      if (index == MPI_UNDEFINED) {
        break;
      }
      check_completed(entries, reqs, index, use_statuses ? &status : NULL);
    }
  } else if (strcmp(function, "waitsome") == 0 ||
             strcmp(function, "testsome") == 0) {
    for (;;) {
      int outcount = 0;
      if (function[0] == 'w') {
        MPI_Waitsome(n, reqs, &outcount, indices, statuses_arg);
        MT_CHECK(outcount != 0, "MPI_Waitsome returned with outcount 0");
      } else {
        MPI_Testsome(n, reqs, &outcount, indices, statuses_arg);
      }
      if (outcount == MPI_UNDEFINED) {
        break;
      }
      for (int k = 0; k < outcount; ++k) {
        check_completed(entries, reqs, indices[k],
                        use_statuses ? &statuses[k] : NULL);
      }
    }
  } else {
    MT_FAIL("unknown function '%s'", function);
  }
  for (int i = 0; i < n; ++i) {
    MT_CHECK(!entries[i].active || entries[i].done,
             "%s: entry %d never completed", function, i);
  }
  free(indices);
  free(statuses);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(argc == 2, "usage: wait_test FUNCTION");
  function = argv[1];
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  const int per_peer = 8;
  const int n = per_peer * (size - 1) * 5 / 4 + 2;  // + nulls, + self pair
  const long rounds = mt_scale(size <= 2 ? 20 : 40 / size);

  if (rank == 0) {
    check_empty_list();
  }
  for (long round = 0; round < rounds; ++round) {
    if (rank == 0) {
      Entry* entries = calloc((size_t)n, sizeof(Entry));
      MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)n);
      int recv_count = 0;
      for (int i = 0; i < n - 2; ++i) {
        reqs[i] = MPI_REQUEST_NULL;
        if (i % 5 == 4) {
          continue;
        }
        Entry* e = &entries[i];
        e->active = 1;
        e->source = 1 + recv_count % (size - 1);
        e->tag = recv_count;
        e->len = kLens[recv_count % 4];
        e->seed =
            mt_seed((uint32_t)e->source, (uint32_t)e->tag, (uint32_t)round, 6);
        e->buf = mt_malloc(e->len + MT_GUARD_LEN);
        mt_fill_guard(e->buf, e->len);
        MPI_Irecv(e->buf, (int)e->len, MPI_BYTE, e->source, e->tag,
                  MPI_COMM_WORLD, &reqs[i]);
        ++recv_count;
      }
      MT_CHECK(recv_count == per_peer * (size - 1), "bad list layout");
      Entry* self_recv = &entries[n - 2];
      Entry* self_send = &entries[n - 1];
      *self_recv = (Entry){1,
                           0,
                           0,
                           kSelfTag,
                           3000,
                           mt_seed(9, 9, 9, 9),
                           mt_malloc(3000 + MT_GUARD_LEN),
                           0};
      *self_send = (Entry){
          1, 1, 0, kSelfTag, 3000, mt_seed(9, 9, 9, 9), mt_malloc(3000), 0};
      mt_fill_guard(self_recv->buf, 3000);
      mt_fill(self_send->buf, 3000, self_send->seed);
      MPI_Irecv(self_recv->buf, 3000, MPI_BYTE, 0, kSelfTag, MPI_COMM_WORLD,
                &reqs[n - 2]);
      MPI_Isend(self_send->buf, 3000, MPI_BYTE, 0, kSelfTag, MPI_COMM_WORLD,
                &reqs[n - 1]);
      complete_all(n, entries, reqs, round % 2 == 0);
      for (int i = 0; i < n; ++i) {
        free(entries[i].buf);
      }
      free(reqs);
      free(entries);
    } else {
      // This rank's messages: every (size-1)-th receive of rank 0's list.
      char* buf = mt_malloc(kLens[3]);
      for (int r = rank - 1; r < per_peer * (size - 1); r += size - 1) {
        const size_t len = kLens[r % 4];
        mt_fill(buf, len,
                mt_seed((uint32_t)rank, (uint32_t)r, (uint32_t)round, 6));
        MPI_Send(buf, (int)len, MPI_BYTE, 0, r, MPI_COMM_WORLD);
      }
      free(buf);
    }
  }
  MPI_Finalize();
  return 0;
}
