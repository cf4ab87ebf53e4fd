// SPDX-License-Identifier: MIT
// MPI 4.0 §13.2: generalized requests. The program completes them with
// MPI_GREQUEST_COMPLETE; the wait/test family then takes their status from
// query_fn (whose return code the completing call returns, or puts in
// MPI_ERROR with MPI_ERR_IN_STATUS) and calls free_fn after it;
// MPI_REQUEST_FREE before completion defers free_fn to the completion
// ("whichever happens last");
// MPI_REQUEST_GET_STATUS asks query_fn without freeing; MPI_CANCEL calls
// cancel_fn with whether the request has completed.
//
// Checked: the callbacks' order and counts, the status fields and count a
// query sets, errors from query_fn in MPI_Wait and MPI_Waitall beside
// ordinary requests, Waitany/Testsome over a mix, and a completion from
// another thread while the main thread waits (MPI_THREAD_MULTIPLE).
#include <pthread.h>
#include <time.h>

#include "mpitest.h"

typedef struct {
  int queries;
  int frees;
  int cancels;
  int last_cancel_complete;
  int freed_after_query;  // free_fn ran after at least one query
  int query_error;        // what query_fn returns
  int cancelled;          // query_fn marks the status cancelled
  int tag;
} greq_state;

static int query_fn(void* extra, MPI_Status* status) {
  greq_state* s = (greq_state*)extra;
  ++s->queries;
  status->MPI_SOURCE = 3;
  status->MPI_TAG = s->tag;
  MPI_Status_set_elements(status, MPI_INT, 5);
  MPI_Status_set_cancelled(status, s->cancelled);
  return s->query_error;
}

static int free_fn(void* extra) {
  greq_state* s = (greq_state*)extra;
  ++s->frees;
  s->freed_after_query = s->queries > 0;
  return MPI_SUCCESS;
}

static int cancel_fn(void* extra, int complete) {
  greq_state* s = (greq_state*)extra;
  ++s->cancels;
  s->last_cancel_complete = complete;
  return MPI_SUCCESS;
}

static MPI_Request start(greq_state* s, int tag) {
  memset(s, 0, sizeof *s);
  s->tag = tag;
  MPI_Request r = MPI_REQUEST_NULL;
  MT_CHECK(
      MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r) == MPI_SUCCESS,
      "MPI_Grequest_start failed");
  MT_CHECK(r != MPI_REQUEST_NULL, "no request");
  return r;
}

static void check_status(const MPI_Status* st, int tag, const char* what) {
  int count = -1;
  MPI_Get_count(st, MPI_INT, &count);
  MT_CHECK(st->MPI_SOURCE == 3 && st->MPI_TAG == tag && count == 5,
           "%s: status source %d tag %d count %d", what, st->MPI_SOURCE,
           st->MPI_TAG, count);
}

static void* complete_later(void* request) {
  struct timespec pause = {0, 50 * 1000 * 1000};
  nanosleep(&pause, NULL);
  MPI_Grequest_complete(*(MPI_Request*)request);
  return NULL;
}

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int rank = mt_rank();
  const int size = mt_size();
  const int strict = argc > 1 && strcmp(argv[1], "strict") == 0;
  greq_state a, b, c;
  MPI_Status st;

  // Complete, then wait: one query, then one free.
  MPI_Request r = start(&a, 11);
  int flag = -1;
  MPI_Test(&r, &flag, &st);
  MT_CHECK(flag == 0 && a.queries == 0 && a.frees == 0,
           "incomplete: flag %d, %d queries, %d frees", flag, a.queries,
           a.frees);
  MPI_Grequest_complete(r);
  MT_CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS, "MPI_Wait failed");
  MT_CHECK(r == MPI_REQUEST_NULL, "request not freed by the wait");
  MT_CHECK(a.queries == 1 && a.frees == 1 && a.freed_after_query,
           "wait: %d queries, %d frees, free after query %d", a.queries,
           a.frees, a.freed_after_query);
  check_status(&st, 11, "wait");
  int cancelled = -1;
  MPI_Test_cancelled(&st, &cancelled);
  MT_CHECK(cancelled == 0, "not cancelled, yet the status says so");

  // Request_get_status asks again each time and frees nothing.
  r = start(&a, 12);
  MPI_Grequest_complete(r);
  MPI_Request_get_status(r, &flag, &st);
  MT_CHECK(flag == 1 && a.queries >= 1 && a.frees == 0,
           "get_status: flag %d, %d queries, %d frees", flag, a.queries,
           a.frees);
  check_status(&st, 12, "get_status");
  int before = a.queries;
  MPI_Test(&r, &flag, &st);
  MT_CHECK(
      flag == 1 && r == MPI_REQUEST_NULL && a.queries > before && a.frees == 1,
      "test after get_status: flag %d, %d queries, %d frees", flag, a.queries,
      a.frees);

  // Freed before it completes (with the argument "strict": MPICH 4.0.2
  // runs free_fn in MPI_Request_free at once, and its handle is then gone
  // for MPI_Grequest_complete): free_fn waits for the completion, and the
  // handle stays good for MPI_Grequest_complete.
  if (strict) {
    r = start(&a, 13);
    MPI_Request keep = r;
    MPI_Request_free(&r);
    MT_CHECK(r == MPI_REQUEST_NULL && a.frees == 0,
             "free before complete: %d frees already", a.frees);
    MPI_Grequest_complete(keep);
    MT_CHECK(a.frees == 1 && a.queries == 0,
             "completion after free: %d frees, %d queries", a.frees, a.queries);
  }
  // Freed after it completes: free_fn at once, no query.
  r = start(&a, 13);
  MPI_Grequest_complete(r);
  MPI_Request_free(&r);
  MT_CHECK(r == MPI_REQUEST_NULL && a.frees == 1 && a.queries == 0,
           "free after complete: %d frees, %d queries", a.frees, a.queries);

  // Cancel before and after the completion; the query says cancelled.
  r = start(&a, 14);
  a.cancelled = 1;
  MPI_Cancel(&r);
  MT_CHECK(a.cancels == 1 && a.last_cancel_complete == 0,
           "cancel before: %d calls, complete %d", a.cancels,
           a.last_cancel_complete);
  MPI_Grequest_complete(r);
  MPI_Cancel(&r);
  MT_CHECK(a.cancels == 2 && a.last_cancel_complete != 0,
           "cancel after: %d calls, complete %d", a.cancels,
           a.last_cancel_complete);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &cancelled);
  MT_CHECK(cancelled != 0, "the query marked it cancelled");

  // A failing query: MPI_Wait returns its code.
  r = start(&a, 15);
  a.query_error = MPI_ERR_OTHER;
  MPI_Grequest_complete(r);
  int rc = MPI_Wait(&r, &st);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  MT_CHECK(cls == MPI_ERR_OTHER, "MPI_Wait returned class %d", cls);
  MT_CHECK(a.frees == 1, "freed after a failed query: %d", a.frees);

  // Waitall over a failing one, a good one and a point-to-point pair.
  MPI_Request reqs[4];
  MPI_Status sts[4];
  reqs[0] = start(&a, 16);
  reqs[1] = start(&b, 17);
  b.query_error = MPI_ERR_OTHER;
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int out = rank, in = -1;
  MPI_Irecv(&in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &reqs[2]);
  MPI_Isend(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &reqs[3]);
  MPI_Grequest_complete(reqs[1]);
  MPI_Grequest_complete(reqs[0]);
  rc = MPI_Waitall(4, reqs, sts);
  MPI_Error_class(rc, &cls);
  MT_CHECK(cls == MPI_ERR_IN_STATUS, "MPI_Waitall returned class %d", cls);
  // A request the call did not complete has MPI_ERR_PENDING (MPICH stops
  // at the failed one) and is still active.
  int err_class = -1;
  MPI_Error_class(sts[1].MPI_ERROR, &err_class);
  MT_CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && err_class == MPI_ERR_OTHER,
           "MPI_ERROR fields %d %d", sts[0].MPI_ERROR, sts[1].MPI_ERROR);
  for (int i = 2; i < 4; ++i) {
    MT_CHECK(
        sts[i].MPI_ERROR == MPI_SUCCESS || sts[i].MPI_ERROR == MPI_ERR_PENDING,
        "MPI_ERROR of the point-to-point request %d: %d", i, sts[i].MPI_ERROR);
  }
  MPI_Waitall(2, &reqs[2], MPI_STATUSES_IGNORE);
  check_status(&sts[0], 16, "waitall");
  MT_CHECK(in == left, "received %d", in);
  MT_CHECK(a.frees == 1 && b.frees == 1 && a.queries == 1 && b.queries == 1,
           "waitall: queries %d %d frees %d %d", a.queries, b.queries, a.frees,
           b.frees);

  // Waitany and Testsome over a mix: the completed one is found.
  reqs[0] = start(&a, 18);
  reqs[1] = start(&b, 19);
  reqs[2] = start(&c, 20);
  MPI_Grequest_complete(reqs[1]);
  int index = -1;
  MPI_Waitany(3, reqs, &index, &st);
  MT_CHECK(index == 1 && b.frees == 1 && a.frees == 0, "waitany: index %d",
           index);
  check_status(&st, 19, "waitany");
  MPI_Grequest_complete(reqs[2]);
  MPI_Grequest_complete(reqs[0]);
  int outcount = -1, indices[3];
  MPI_Testsome(3, reqs, &outcount, indices, sts);
  MT_CHECK(outcount == 2 && a.frees == 1 && c.frees == 1,
           "testsome: outcount %d", outcount);

  // Completed by another thread while this one waits.
  if (provided == MPI_THREAD_MULTIPLE) {
    r = start(&a, 21);
    pthread_t thread;
    MT_CHECK(pthread_create(&thread, NULL, complete_later, &r) == 0,
             "pthread_create failed");
    MPI_Request mine = r;
    MPI_Wait(&mine, &st);
    pthread_join(thread, NULL);
    MT_CHECK(a.queries == 1 && a.frees == 1, "threaded: %d queries %d frees",
             a.queries, a.frees);
    check_status(&st, 21, "threaded");
  }

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) {
    printf("grequest: ok\n");
  }
  return 0;
}
