// SPDX-License-Identifier: MIT
// The MPI_T control variables, performance variables and categories as
// any MPI library provides them (MPI 4.0 sections 15.3.3-15.3.9), without
// assuming their names: every variable and category is enumerated, its
// information must agree with its lookup by name, and bad arguments get
// their error codes (case "enumerate"); and strings are returned by the
// convention of section 15.3.3 (case "strings"). Runs under MPICH too; the
// values of shmpi's own variables are checked in shmpi_vars.c.
//
// "MPI_T_cvar_get_index ... If the name does not match a control variable
// exposed by the MPI implementation, the function returns
// MPI_T_ERR_INVALID_NAME." "If the performance variable is continuous ...
// MPI_T_PVAR_START and MPI_T_PVAR_STOP return MPI_T_ERR_PVAR_NO_STARTSTOP."
#include "common.h"

enum { kBuf = 4096 };

// Before MPI_T_init_thread (and after the last MPI_T_finalize), every call
// but those two says so.
static void check_not_initialized(void) {
  int n = 0;
  int index = 0;
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  T_EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_cvar_get_index("x", &index), MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_cvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL, NULL),
           MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_pvar_session_create(&session), MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_category_changed(&n), MPI_T_ERR_NOT_INITIALIZED);
  T_EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL),
           MPI_T_ERR_NOT_INITIALIZED);
}

// The string convention of section 15.3.3 on a control variable's name:
// "If the returned string's length is greater than or equal to n, the
// string will be truncated to n-1 characters. In this case, the length of
// the string plus one ... is returned in the length argument."
static void check_strings(int index) {
  int len = 0;
  T_OK(MPI_T_cvar_get_info(index, NULL, &len, NULL, NULL, NULL, NULL, NULL,
                           NULL, NULL));
  MT_CHECK(len >= 2, "cvar %d: name length %d", index, len);
  char full[kBuf];
  int full_len = kBuf;
  T_OK(MPI_T_cvar_get_info(index, full, &full_len, NULL, NULL, NULL, NULL, NULL,
                           NULL, NULL));
  MT_CHECK(full_len == len && (int)strlen(full) + 1 == len,
           "cvar %d: name \"%s\", length %d then %d", index, full, len,
           full_len);
  char small[2] = {'x', 'x'};
  int small_len = 2;
  T_OK(MPI_T_cvar_get_info(index, small, &small_len, NULL, NULL, NULL, NULL,
                           NULL, NULL, NULL));
  MT_CHECK(small[0] == full[0] && small[1] == '\0' && small_len == len,
           "cvar %d: a 2-byte buffer holds '%c', '\\%d' and length %d", index,
           small[0], small[1], small_len);
  int zero = 0;
  small[0] = 'x';
  T_OK(MPI_T_cvar_get_info(index, small, &zero, NULL, NULL, NULL, NULL, NULL,
                           NULL, NULL));
  MT_CHECK(small[0] == 'x' && zero == len,
           "cvar %d: length 0 wrote the buffer or returned %d", index, zero);
}

static void check_enum(MPI_T_enum enumtype, const char* owner) {
  int items = 0;
  char name[kBuf];
  int len = kBuf;
  T_OK(MPI_T_enum_get_info(enumtype, &items, name, &len));
  MT_CHECK(items > 0, "%s: enumeration %s has %d items", owner, name, items);
  for (int i = 0; i < items; ++i) {
    int value = 0;
    char item[kBuf];
    int item_len = kBuf;
    T_OK(MPI_T_enum_get_item(enumtype, i, &value, item, &item_len));
    MT_CHECK(item_len == (int)strlen(item) + 1, "%s: item %d", owner, i);
  }
  int value = 0;
  const int rc = MPI_T_enum_get_item(enumtype, items, &value, NULL, NULL);
  // MPI 4.0 deprecates MPI_T_ERR_INVALID_ITEM for MPI_T_ERR_INVALID_INDEX.
  MT_CHECK(rc == MPI_T_ERR_INVALID_INDEX || rc == MPI_T_ERR_INVALID_ITEM,
           "%s: item %d of %d returned %d", owner, items, items, rc);
}

static void check_cvars(void) {
  int num = 0;
  T_OK(MPI_T_cvar_get_num(&num));
  for (int i = 0; i < num; ++i) {
    char name[kBuf];
    char desc[kBuf];
    int name_len = kBuf;
    int desc_len = kBuf;
    int verbosity = 0;
    int bind = 0;
    int scope = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
    T_OK(MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &datatype,
                             &enumtype, desc, &desc_len, &bind, &scope));
    MT_CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ,
             "cvar %s: scope %d", name, scope);
    int found = -1;
    T_OK(MPI_T_cvar_get_index(name, &found));
    MT_CHECK(found == i, "cvar %s is %d, found as %d", name, i, found);
    if (enumtype != MPI_T_ENUM_NULL) {
      MT_CHECK(datatype == MPI_INT, "cvar %s: an enumeration not in an int",
               name);
      check_enum(enumtype, name);
    }
    if (bind != MPI_T_BIND_NO_OBJECT || datatype == MPI_CHAR) {
      continue;  // its handle needs an object; strings may be long
    }
    MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
    int count = 0;
    T_OK(MPI_T_cvar_handle_alloc(i, NULL, &handle, &count));
    MT_CHECK(count >= 1 && count <= 64, "cvar %s: count %d", name, count);
    double value[64 * 8];  // up to 64 elements of 64 bytes
    T_OK(MPI_T_cvar_read(handle, value));
    T_OK(MPI_T_cvar_handle_free(&handle));
    MT_ASSERT(handle == MPI_T_CVAR_HANDLE_NULL);
  }
  int index = 0;
  T_EXPECT(MPI_T_cvar_get_index("no_such_variable_anywhere", &index),
           MPI_T_ERR_INVALID_NAME);
  T_EXPECT(MPI_T_cvar_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
  T_EXPECT(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  T_EXPECT(MPI_T_cvar_handle_alloc(num, NULL, &handle, &count),
           MPI_T_ERR_INVALID_INDEX);
}

// Every NO_OBJECT performance variable in one session: its lookup, and
// which of start, write and readreset its flags allow.
static void check_pvars(void) {
  int num = 0;
  T_OK(MPI_T_pvar_get_num(&num));
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  T_OK(MPI_T_pvar_session_create(&session));
  for (int i = 0; i < num; ++i) {
    char name[kBuf];
    int name_len = kBuf;
    int var_class = 0;
    int bind = 0;
    int readonly = 0;
    int continuous = 0;
    int atomic = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    T_OK(MPI_T_pvar_get_info(i, name, &name_len, NULL, &var_class, &datatype,
                             NULL, NULL, NULL, &bind, &readonly, &continuous,
                             &atomic));
    MT_CHECK(var_class >= MPI_T_PVAR_CLASS_STATE &&
                 var_class <= MPI_T_PVAR_CLASS_GENERIC,
             "pvar %s: class %d", name, var_class);
    int found = -1;
    T_OK(MPI_T_pvar_get_index(name, var_class, &found));
    MT_CHECK(found == i, "pvar %s is %d, found as %d", name, i, found);
    const int other = var_class == MPI_T_PVAR_CLASS_GENERIC
                          ? MPI_T_PVAR_CLASS_STATE
                          : var_class + 1;
    if (MPI_T_pvar_get_index(name, other, &found) == MPI_SUCCESS) {
      MT_CHECK(found != i, "pvar %s found in class %d too", name, other);
    }
    if (bind != MPI_T_BIND_NO_OBJECT || datatype == MPI_CHAR) {
      continue;
    }
    MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
    int count = 0;
    T_OK(MPI_T_pvar_handle_alloc(session, i, NULL, &handle, &count));
    MT_CHECK(count >= 1 && count <= 64, "pvar %s: count %d", name, count);
    double value[64 * 8];
    T_OK(MPI_T_pvar_read(session, handle, value));
    if (continuous) {
      T_EXPECT(MPI_T_pvar_start(session, handle), MPI_T_ERR_PVAR_NO_STARTSTOP);
      T_EXPECT(MPI_T_pvar_stop(session, handle), MPI_T_ERR_PVAR_NO_STARTSTOP);
    } else {
      T_OK(MPI_T_pvar_start(session, handle));
      T_OK(MPI_T_pvar_read(session, handle, value));
      T_OK(MPI_T_pvar_stop(session, handle));
    }
    if (readonly) {
      T_EXPECT(MPI_T_pvar_write(session, handle, value),
               MPI_T_ERR_PVAR_NO_WRITE);
      T_EXPECT(MPI_T_pvar_reset(session, handle), MPI_T_ERR_PVAR_NO_WRITE);
      T_EXPECT(MPI_T_pvar_readreset(session, handle, value),
               MPI_T_ERR_PVAR_NO_WRITE);
    } else {
      T_OK(MPI_T_pvar_reset(session, handle));
      if (!atomic) {
        T_EXPECT(MPI_T_pvar_readreset(session, handle, value),
                 MPI_T_ERR_PVAR_NO_ATOMIC);
      }
    }
    // A handle of one session is not one of another's.
    MPI_T_pvar_session other_session = MPI_T_PVAR_SESSION_NULL;
    T_OK(MPI_T_pvar_session_create(&other_session));
    T_EXPECT(MPI_T_pvar_read(other_session, handle, value),
             MPI_T_ERR_INVALID_HANDLE);
    T_OK(MPI_T_pvar_session_free(&other_session));
    MT_ASSERT(other_session == MPI_T_PVAR_SESSION_NULL);
  }
  // Every handle at once: continuous and read-only ones are skipped.
  T_OK(MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES));
  T_OK(MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES));
  T_OK(MPI_T_pvar_reset(session, MPI_T_PVAR_ALL_HANDLES));
  int index = 0;
  T_EXPECT(MPI_T_pvar_get_index("no_such_variable_anywhere",
                                MPI_T_PVAR_CLASS_COUNTER, &index),
           MPI_T_ERR_INVALID_NAME);
  T_OK(MPI_T_pvar_session_free(&session));
  MT_ASSERT(session == MPI_T_PVAR_SESSION_NULL);
}

static void check_categories(void) {
  int num = 0;
  int num_cvars = 0;
  int num_pvars = 0;
  T_OK(MPI_T_category_get_num(&num));
  T_OK(MPI_T_cvar_get_num(&num_cvars));
  T_OK(MPI_T_pvar_get_num(&num_pvars));
  int stamp = 0;
  T_OK(MPI_T_category_changed(&stamp));
  for (int c = 0; c < num; ++c) {
    char name[kBuf];
    int name_len = kBuf;
    int cvars = -1;
    int pvars = -1;
    int subcategories = -1;
    T_OK(MPI_T_category_get_info(c, name, &name_len, NULL, NULL, &cvars, &pvars,
                                 &subcategories));
    MT_CHECK(cvars >= 0 && pvars >= 0 && subcategories >= 0,
             "category %s: %d, %d, %d", name, cvars, pvars, subcategories);
    int found = -1;
    T_OK(MPI_T_category_get_index(name, &found));
    MT_CHECK(found == c, "category %s is %d, found as %d", name, c, found);
    int indices[1024];
    MT_ASSERT(cvars <= 1024 && pvars <= 1024 && subcategories <= 1024);
    T_OK(MPI_T_category_get_cvars(c, cvars, indices));
    for (int i = 0; i < cvars; ++i) {
      MT_CHECK(indices[i] >= 0 && indices[i] < num_cvars,
               "category %s: cvar %d", name, indices[i]);
    }
    T_OK(MPI_T_category_get_pvars(c, pvars, indices));
    for (int i = 0; i < pvars; ++i) {
      MT_CHECK(indices[i] >= 0 && indices[i] < num_pvars,
               "category %s: pvar %d", name, indices[i]);
    }
    T_OK(MPI_T_category_get_categories(c, subcategories, indices));
    for (int i = 0; i < subcategories; ++i) {
      MT_CHECK(indices[i] >= 0 && indices[i] < num, "category %s: %d", name,
               indices[i]);
    }
    // len 0: nothing is written.
    T_OK(MPI_T_category_get_cvars(c, 0, NULL));
  }
  int indices[1];
  T_EXPECT(
      MPI_T_category_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      MPI_T_ERR_INVALID_INDEX);
  T_EXPECT(MPI_T_category_get_cvars(num, 1, indices), MPI_T_ERR_INVALID_INDEX);
  T_EXPECT(MPI_T_category_get_pvars(-1, 1, indices), MPI_T_ERR_INVALID_INDEX);
  T_EXPECT(MPI_T_category_get_categories(num, 1, indices),
           MPI_T_ERR_INVALID_INDEX);
  int index = 0;
  T_EXPECT(MPI_T_category_get_index("no_such_category_anywhere", &index),
           MPI_T_ERR_INVALID_NAME);
  int again = -1;
  T_OK(MPI_T_category_changed(&again));
  MT_CHECK(again == stamp, "the category stamp moved from %d to %d", stamp,
           again);
}

static void check_all(void) {
  check_cvars();
  check_pvars();
  check_categories();
}

static void case_enumerate(void) {
  check_not_initialized();
  int provided = -1;
  // MPI_T works before MPI_Init, and its calls nest.
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  check_all();
  MPI_Init(NULL, NULL);
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  check_all();
  T_OK(MPI_T_finalize());
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  // ... and after MPI_Finalize.
  check_all();
  T_OK(MPI_T_finalize());
  check_not_initialized();
  T_EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
}

// Indices one past the last performance variable.
static void case_pvar_bad_index(void) {
  int provided = -1;
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  int num = 0;
  T_OK(MPI_T_pvar_get_num(&num));
  MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
  T_OK(MPI_T_pvar_session_create(&session));
  {
    char name[kBuf];
    int name_len = kBuf;
    int verbosity = 0;
    int var_class = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
    char desc[kBuf];
    int desc_len = kBuf;
    int flags[4];
    T_EXPECT(MPI_T_pvar_get_info(num, name, &name_len, &verbosity, &var_class,
                                 &datatype, &enumtype, desc, &desc_len,
                                 &flags[0], &flags[1], &flags[2], &flags[3]),
             MPI_T_ERR_INVALID_INDEX);
  }
  MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
  int count = 0;
  T_EXPECT(MPI_T_pvar_handle_alloc(session, num, NULL, &handle, &count),
           MPI_T_ERR_INVALID_INDEX);
  T_OK(MPI_T_pvar_session_free(&session));
  T_OK(MPI_T_finalize());
}

static void case_strings(void) {
  int provided = -1;
  T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  int num = 0;
  T_OK(MPI_T_cvar_get_num(&num));
  for (int i = 0; i < num; ++i) {
    check_strings(i);
  }
  T_OK(MPI_T_finalize());
}

int main(int argc, char** argv) {
  const mt_case cases[] = {{"enumerate", case_enumerate},
                           {"strings", case_strings},
                           {"pvar_bad_index", case_pvar_bad_index}};
  mt_run_case(argc, argv, cases, sizeof cases / sizeof cases[0]);
  return 0;
}
