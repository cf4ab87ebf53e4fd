// SPDX-License-Identifier: MIT
// MPI 4.0 §19.3.4-5: handles and statuses between C and Fortran.
// MPI_X_f2c(MPI_X_c2f(h)) gives h back for predefined, null and user
// handles of every kind, and the object still works through the converted
// handle; different handles of one kind have different Fortran handles.
// A status survives MPI_Status_c2f / MPI_Status_f2c with its source, tag,
// error, count and cancelled flag; a status-ignore argument is an error.
// (The mpi_f08 status conversions are in status_f08.c.)
// Only behaviour the standard defines is checked, never handle values.
#include "mt_status.h"

static int g_rank;
static int g_size;
static int g_next;  // the rank messages go to (ourselves at one rank)
static int g_prev;  // the rank they come from

#define ROUND_TRIP(kind, handle) MPI_##kind##_f2c(MPI_##kind##_c2f(handle))

// Every pair of different handles in `fints` (made from `handles`) has
// different Fortran handles.
#define CHECK_DISTINCT(kind, handles, count)                                 \
  do {                                                                       \
    MPI_Fint fints_[64];                                                     \
    for (int i_ = 0; i_ < (count); ++i_) {                                   \
      fints_[i_] = MPI_##kind##_c2f((handles)[i_]);                          \
      MT_CHECK(MPI_##kind##_f2c(fints_[i_]) == (handles)[i_],                \
               #kind " handle %d does not round-trip", i_);                  \
    }                                                                        \
    for (int i_ = 0; i_ < (count); ++i_) {                                   \
      for (int j_ = 0; j_ < i_; ++j_) {                                      \
        MT_CHECK((handles)[i_] == (handles)[j_] || fints_[i_] != fints_[j_], \
                 #kind " handles %d and %d share Fortran handle %d", j_, i_, \
                 (int)fints_[i_]);                                           \
      }                                                                      \
    }                                                                        \
  } while (0)

static void check_predefined(void) {
  MPI_Comm comms[] = {MPI_COMM_NULL, MPI_COMM_WORLD, MPI_COMM_SELF};
  CHECK_DISTINCT(Comm, comms, 3);
  MPI_Group groups[] = {MPI_GROUP_NULL, MPI_GROUP_EMPTY};
  CHECK_DISTINCT(Group, groups, 2);
  MPI_Errhandler errhandlers[] = {MPI_ERRHANDLER_NULL, MPI_ERRORS_ARE_FATAL,
                                  MPI_ERRORS_RETURN, MPI_ERRORS_ABORT};
  CHECK_DISTINCT(Errhandler, errhandlers, 4);
  MPI_Info infos[] = {MPI_INFO_NULL, MPI_INFO_ENV};
  CHECK_DISTINCT(Info, infos, 2);
  MPI_Message messages[] = {MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC};
  CHECK_DISTINCT(Message, messages, 2);
  MPI_Op ops[] = {MPI_OP_NULL, MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD,
                  MPI_LAND,    MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR,
                  MPI_BXOR,    MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
  CHECK_DISTINCT(Op, ops, 15);
  MPI_Request requests[] = {MPI_REQUEST_NULL};
  CHECK_DISTINCT(Request, requests, 1);
  MPI_Datatype types[] = {MPI_DATATYPE_NULL,
                          MPI_CHAR,
                          MPI_SIGNED_CHAR,
                          MPI_UNSIGNED_CHAR,
                          MPI_BYTE,
                          MPI_SHORT,
                          MPI_INT,
                          MPI_LONG,
                          MPI_LONG_LONG,
                          MPI_UNSIGNED,
                          MPI_FLOAT,
                          MPI_DOUBLE,
                          MPI_LONG_DOUBLE,
                          MPI_WCHAR,
                          MPI_C_BOOL,
                          MPI_INT8_T,
                          MPI_INT16_T,
                          MPI_INT32_T,
                          MPI_INT64_T,
                          MPI_UINT64_T,
                          MPI_AINT,
                          MPI_COUNT,
                          MPI_OFFSET,
                          MPI_PACKED,
                          MPI_FLOAT_INT,
                          MPI_DOUBLE_INT,
                          MPI_LONG_INT,
                          MPI_2INT,
                          MPI_SHORT_INT,
                          MPI_LONG_DOUBLE_INT,
                          MPI_C_DOUBLE_COMPLEX,
                          MPI_INTEGER,
                          MPI_REAL,
                          MPI_DOUBLE_PRECISION};
  CHECK_DISTINCT(Type, types, (int)(sizeof types / sizeof types[0]));
  // shmpi makes no windows, files or sessions; their null handles exist.
  MT_CHECK(ROUND_TRIP(Win, MPI_WIN_NULL) == MPI_WIN_NULL, "MPI_WIN_NULL");
  MT_CHECK(ROUND_TRIP(File, MPI_FILE_NULL) == MPI_FILE_NULL, "MPI_FILE_NULL");
  MT_CHECK(ROUND_TRIP(Session, MPI_SESSION_NULL) == MPI_SESSION_NULL,
           "MPI_SESSION_NULL");
}

// A value of `count` ints sent around the ring on `comm` with `type`
// (count elements of it hold 2 * count ints when it is the pair type).
static void ring_ints(MPI_Comm comm, MPI_Datatype type, int count, int ints,
                      int tag) {
  int out[8];
  int in[8];
  for (int i = 0; i < ints; ++i) {
    out[i] = g_rank * 100 + i;
    in[i] = -1;
  }
  MPI_Request request;
  MT_ASSERT(MPI_Isend(out, count, type, g_next, tag, comm, &request) ==
            MPI_SUCCESS);
  MT_ASSERT(MPI_Recv(in, count, type, g_prev, tag, comm, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS);
  MT_ASSERT(MPI_Wait(&request, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  for (int i = 0; i < ints; ++i) {
    MT_CHECK(in[i] == g_prev * 100 + i, "int %d: got %d, expected %d", i, in[i],
             g_prev * 100 + i);
  }
}

static void check_comms(void) {
  MPI_Comm dups[2];
  MPI_Comm_dup(MPI_COMM_WORLD, &dups[0]);
  MPI_Comm_dup(MPI_COMM_WORLD, &dups[1]);
  MPI_Comm all[] = {MPI_COMM_NULL, MPI_COMM_WORLD, MPI_COMM_SELF, dups[0],
                    dups[1]};
  CHECK_DISTINCT(Comm, all, 5);
  MPI_Comm converted = ROUND_TRIP(Comm, dups[0]);
  int size = -1;
  int rank = -1;
  MPI_Comm_size(converted, &size);
  MPI_Comm_rank(converted, &rank);
  MT_CHECK(size == g_size && rank == g_rank, "converted dup: rank %d of %d",
           rank, size);
  ring_ints(converted, MPI_INT, 4, 4, 11);
  MPI_Comm_free(&converted);
  MT_ASSERT(converted == MPI_COMM_NULL);
  MPI_Comm_free(&dups[1]);
}

static void check_groups(void) {
  MPI_Group world;
  MPI_Group first;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int zero = 0;
  MPI_Group_incl(world, 1, &zero, &first);
  MPI_Group all[] = {MPI_GROUP_NULL, MPI_GROUP_EMPTY, world, first};
  CHECK_DISTINCT(Group, all, 4);
  MPI_Group converted = ROUND_TRIP(Group, world);
  int size = -1;
  int rank = -1;
  MPI_Group_size(converted, &size);
  MPI_Group_rank(converted, &rank);
  MT_CHECK(size == g_size && rank == g_rank, "converted group: rank %d of %d",
           rank, size);
  int result = -1;
  MPI_Group_compare(ROUND_TRIP(Group, first), first, &result);
  MT_CHECK(result == MPI_IDENT, "converted group compares %d", result);
  MPI_Group_free(&converted);
  MPI_Group_free(&first);
}

static void check_infos(void) {
  MPI_Info infos[2];
  MPI_Info_create(&infos[0]);
  MPI_Info_create(&infos[1]);
  MPI_Info_set(infos[0], "color", "blue");
  MPI_Info all[] = {MPI_INFO_NULL, MPI_INFO_ENV, infos[0], infos[1]};
  CHECK_DISTINCT(Info, all, 4);
  MPI_Info converted = ROUND_TRIP(Info, infos[0]);
  char value[16] = "";
  int length = (int)sizeof value;
  int flag = 0;
  MPI_Info_get_string(converted, "color", &length, value, &flag);
  MT_CHECK(flag && strcmp(value, "blue") == 0,
           "converted info: flag %d value '%s'", flag, value);
  MPI_Info_free(&converted);
  MPI_Info_free(&infos[1]);
}

static void sum_ints(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) {
    ((int*)inout)[i] += 3 * ((int*)in)[i];
  }
}

static void check_ops(void) {
  MPI_Op ops[2];
  MPI_Op_create(sum_ints, 1, &ops[0]);
  MPI_Op_create(sum_ints, 0, &ops[1]);
  MPI_Op all[] = {MPI_OP_NULL, MPI_SUM, ops[0], ops[1]};
  CHECK_DISTINCT(Op, all, 4);
  MPI_Op converted = ROUND_TRIP(Op, ops[0]);
  int in[2] = {1, 2};
  int inout[2] = {10, 20};
  MT_ASSERT(MPI_Reduce_local(in, inout, 2, MPI_INT, converted) == MPI_SUCCESS);
  MT_CHECK(inout[0] == 13 && inout[1] == 26, "user op gave %d %d", inout[0],
           inout[1]);
  int commute = -1;
  MPI_Op_commutative(ROUND_TRIP(Op, ops[1]), &commute);
  MT_CHECK(commute == 0, "converted op is commutative %d", commute);
  int mine = 1;
  int total = 0;
  MT_ASSERT(MPI_Allreduce(&mine, &total, 1, MPI_INT, converted,
                          MPI_COMM_WORLD) == MPI_SUCCESS);
  // With every contribution 1, one or two ranks give 1 + 3 * (size - 1)
  // in either order (the test runs at those sizes).
  MT_CHECK(g_size > 2 || total == 1 + 3 * (g_size - 1),
           "allreduce with the converted op gave %d", total);
  MPI_Op_free(&converted);
  MPI_Op_free(&ops[1]);
}

static void check_types(void) {
  MPI_Datatype types[2];
  MPI_Type_contiguous(2, MPI_INT, &types[0]);
  MPI_Type_commit(&types[0]);
  MPI_Type_vector(2, 1, 2, MPI_INT, &types[1]);
  MPI_Datatype all[] = {MPI_DATATYPE_NULL, MPI_INT, types[0], types[1]};
  CHECK_DISTINCT(Type, all, 4);
  MPI_Datatype converted = ROUND_TRIP(Type, types[0]);
  int size = -1;
  MPI_Type_size(converted, &size);
  MT_CHECK(size == 2 * (int)sizeof(int), "converted type size %d", size);
  ring_ints(MPI_COMM_WORLD, converted, 3, 6, 12);
  MPI_Type_free(&converted);
  MPI_Type_free(&types[1]);
}

static int g_handler_calls;
static int g_handler_code;

static void count_errors(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  ++g_handler_calls;
  g_handler_code = *code;
}

static void check_errhandlers(void) {
  MPI_Errhandler handlers[2];
  MPI_Comm_create_errhandler(count_errors, &handlers[0]);
  MPI_Comm_create_errhandler(count_errors, &handlers[1]);
  MPI_Errhandler all[] = {MPI_ERRHANDLER_NULL, MPI_ERRORS_RETURN, handlers[0],
                          handlers[1]};
  CHECK_DISTINCT(Errhandler, all, 4);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Errhandler converted = ROUND_TRIP(Errhandler, handlers[0]);
  MT_ASSERT(MPI_Comm_set_errhandler(comm, converted) == MPI_SUCCESS);
  MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);
  MT_CHECK(g_handler_calls == 1 && g_handler_code == MPI_ERR_OTHER,
           "the converted handler ran %d times, code %d", g_handler_calls,
           g_handler_code);
  MPI_Comm_free(&comm);
  MPI_Errhandler_free(&converted);
  MPI_Errhandler_free(&handlers[1]);
}

static void check_requests(void) {
  int out = g_rank + 40;
  int in = -1;
  MPI_Request requests[2];
  MPI_Recv_init(&in, 1, MPI_INT, g_prev, 13, MPI_COMM_WORLD, &requests[0]);
  MPI_Send_init(&out, 1, MPI_INT, g_next, 13, MPI_COMM_WORLD, &requests[1]);
  MPI_Request all[] = {MPI_REQUEST_NULL, requests[0], requests[1]};
  CHECK_DISTINCT(Request, all, 3);
  MPI_Request converted[2] = {ROUND_TRIP(Request, requests[0]),
                              ROUND_TRIP(Request, requests[1])};
  for (int round = 0; round < 2; ++round) {
    in = -1;
    MT_ASSERT(MPI_Startall(2, converted) == MPI_SUCCESS);
    MT_ASSERT(MPI_Waitall(2, converted, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    MT_CHECK(in == g_prev + 40, "round %d: got %d", round, in);
  }
  // A completed nonpersistent request becomes MPI_REQUEST_NULL; the
  // converted handle of an active one completes it.
  MPI_Request active;
  MPI_Isend(&out, 1, MPI_INT, g_next, 14, MPI_COMM_WORLD, &active);
  MPI_Request active_converted = ROUND_TRIP(Request, active);
  MPI_Recv(&in, 1, MPI_INT, g_prev, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MT_ASSERT(MPI_Wait(&active_converted, MPI_STATUS_IGNORE) == MPI_SUCCESS);
  MT_ASSERT(active_converted == MPI_REQUEST_NULL);
  MPI_Request_free(&converted[0]);
  MPI_Request_free(&converted[1]);
}

static void check_messages(void) {
  int out[2] = {g_rank + 50, g_rank + 60};
  MPI_Request sends[2];
  MPI_Isend(&out[0], 1, MPI_INT, g_next, 15, MPI_COMM_WORLD, &sends[0]);
  MPI_Isend(&out[1], 1, MPI_INT, g_next, 16, MPI_COMM_WORLD, &sends[1]);
  MPI_Message messages[2];
  MPI_Mprobe(g_prev, 15, MPI_COMM_WORLD, &messages[0], MPI_STATUS_IGNORE);
  MPI_Mprobe(g_prev, 16, MPI_COMM_WORLD, &messages[1], MPI_STATUS_IGNORE);
  MPI_Message all[] = {MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC, messages[0],
                       messages[1]};
  CHECK_DISTINCT(Message, all, 4);
  for (int i = 0; i < 2; ++i) {
    MPI_Message converted = ROUND_TRIP(Message, messages[i]);
    int in = -1;
    MPI_Status status;
    MT_ASSERT(MPI_Mrecv(&in, 1, MPI_INT, &converted, &status) == MPI_SUCCESS);
    MT_ASSERT(converted == MPI_MESSAGE_NULL);
    MT_CHECK(in == g_prev + 50 + 10 * i && status.MPI_TAG == 15 + i,
             "message %d: got %d tag %d", i, in, status.MPI_TAG);
  }
  MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
}

static void check_conversions_of(const MPI_Status* original) {
  MPI_Fint f_status[MPI_F_STATUS_SIZE];
  MPI_Status back;

  MT_ASSERT(MPI_Status_c2f(original, f_status) == MPI_SUCCESS);
  MT_CHECK(f_status[MPI_F_SOURCE] == original->MPI_SOURCE &&
               f_status[MPI_F_TAG] == original->MPI_TAG &&
               f_status[MPI_F_ERROR] == original->MPI_ERROR,
           "c2f: source %d tag %d error %d", (int)f_status[MPI_F_SOURCE],
           (int)f_status[MPI_F_TAG], (int)f_status[MPI_F_ERROR]);
  MT_ASSERT(MPI_Status_f2c(f_status, &back) == MPI_SUCCESS);
  mt_check_same_status(&back, original, "c2f, f2c");
  // And back once more, from the converted status.
  MPI_Fint again[MPI_F_STATUS_SIZE];
  MT_ASSERT(MPI_Status_c2f(&back, again) == MPI_SUCCESS);
  MT_ASSERT(MPI_Status_f2c(again, &back) == MPI_SUCCESS);
  mt_check_same_status(&back, original, "c2f, f2c, c2f, f2c");
}

static void check_statuses(void) {
  // From a real receive of 5 ints, with an error field of our own.
  int out[5] = {1, 2, 3, 4, 5};
  int in[8];
  MPI_Request request;
  MPI_Isend(out, 5, MPI_INT, g_next, 17, MPI_COMM_WORLD, &request);
  MPI_Status status;
  MPI_Recv(in, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
           &status);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  status.MPI_ERROR = MPI_ERR_TAG;
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  MT_CHECK(status.MPI_SOURCE == g_prev && status.MPI_TAG == 17 && count == 5,
           "receive: source %d tag %d count %d", status.MPI_SOURCE,
           status.MPI_TAG, count);
  check_conversions_of(&status);

  // A count that needs more than 32 bits, cancelled.
  MPI_Status big = status;
  MPI_Status_set_elements_x(&big, MPI_BYTE, (MPI_Count)5 << 32 | 7);
  MPI_Status_set_cancelled(&big, 1);
  check_conversions_of(&big);
  MPI_Count elements = 0;
  MPI_Get_elements_x(&big, MPI_BYTE, &elements);
  MT_CHECK(elements == ((MPI_Count)5 << 32 | 7), "big count %lld",
           (long long)elements);

  // From a cancelled receive.
  MPI_Irecv(in, 1, MPI_INT, g_prev, 18, MPI_COMM_WORLD, &request);
  MPI_Cancel(&request);
  MPI_Status cancelled;
  MPI_Wait(&request, &cancelled);
  int flag = 0;
  MPI_Test_cancelled(&cancelled, &flag);
  MT_CHECK(flag, "the receive was not cancelled");
  cancelled.MPI_ERROR = MPI_SUCCESS;
  check_conversions_of(&cancelled);
}

// §19.3.5: passing the status-ignore constants is erroneous; the standard
// names no error class, shmpi raises MPI_ERR_ARG (MPICH MPI_ERR_OTHER), so
// the class is checked only when asked (`want_class`).
static void check_ignore_is_an_error(int want_class) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Fint f_status[MPI_F_STATUS_SIZE] = {0};
  MPI_Status status;
  memset(&status, 0, sizeof status);
  int codes[] = {
      MPI_Status_c2f(MPI_STATUS_IGNORE, f_status),
      MPI_Status_f2c(MPI_F_STATUS_IGNORE, &status),
  };
  for (int i = 0; i < (int)(sizeof codes / sizeof codes[0]); ++i) {
    MT_CHECK(codes[i] != MPI_SUCCESS, "conversion %d accepted a status-ignore",
             i);
    int error_class = -1;
    MPI_Error_class(codes[i], &error_class);
    MT_CHECK(!want_class || error_class == MPI_ERR_ARG, "conversion %d: %s", i,
             mt_error_string(codes[i]));
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_next = (g_rank + 1) % g_size;
  g_prev = (g_rank + g_size - 1) % g_size;
  // Usage: handle_conversion [ignore [arg]]: also pass the status-ignore
  // constants, and expect MPI_ERR_ARG for them.
  const int check_ignore = argc > 1 && strcmp(argv[1], "ignore") == 0;
  const int want_class = argc > 2 && strcmp(argv[2], "arg") == 0;
  check_predefined();
  check_comms();
  check_groups();
  check_infos();
  check_ops();
  check_types();
  check_errhandlers();
  check_requests();
  check_messages();
  check_statuses();
  if (check_ignore) {
    check_ignore_is_an_error(want_class);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) {
    printf("handle_conversion: ok\n");
  }
  MPI_Finalize();
  return 0;
}
