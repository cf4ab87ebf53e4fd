/* SPDX-License-Identifier: MIT */
/*
 * mpi.h: the MPI 4.0 C interface of shmpi (libshmpi), usable from C and C++.
 *
 * Handles and constants use the representation of the MPI 5.0 standard ABI
 * (the MPI Forum's mpi_abi.h): a handle is a pointer to an incomplete struct,
 * a predefined handle is a small integer cast to the handle type, and error
 * classes, sentinels and modes have the ABI's values.  The API itself is MPI
 * 4.0 (MPI_VERSION 4, MPI_SUBVERSION 0).  Functions shmpi does not implement
 * yet are still declared and defined: they fail with an error of class
 * MPI_ERR_UNSUPPORTED_OPERATION (see docs/unsupported.md).
 *
 * The prototypes at the end are generated from src/mpi/api/functions.txt by
 * tools/gen_unsupported.py; edit that list, not the generated block.
 */
#ifndef SHMPI_MPI_H_
#define SHMPI_MPI_H_

#include <stdint.h>

#if defined(__cplusplus)
#define SHMPI_NOEXCEPT noexcept
#define SHMPI_HANDLE(type, value) \
  (reinterpret_cast<type>(static_cast<intptr_t>(value)))
#define SHMPI_POINTER(type, value) \
  (reinterpret_cast<type>(static_cast<intptr_t>(value)))
#define SHMPI_NULL(type) (static_cast<type>(nullptr))
#else
#define SHMPI_NOEXCEPT
#define SHMPI_HANDLE(type, value) ((type)(intptr_t)(value))
#define SHMPI_POINTER(type, value) ((type)(intptr_t)(value))
#define SHMPI_NULL(type) ((type)0)
#endif

#if defined(__GNUC__)
#define SHMPI_API __attribute__((visibility("default")))
#else
#define SHMPI_API
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- Version ----------------------------------------------------------- */

#define MPI_VERSION 4
#define MPI_SUBVERSION 0

#define SHMPI_VERSION_MAJOR 0
#define SHMPI_VERSION_MINOR 1
#define SHMPI_VERSION_PATCH 0

/* ---- Integer types ----------------------------------------------------- */

typedef intptr_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef int64_t MPI_Count;
typedef int MPI_Fint;

/* ---- Status ------------------------------------------------------------ */

/* The ABI layout: three public fields and five implementation words. */
typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int MPI_internal[5];
} MPI_Status;

/* The C view of a Fortran 2008 TYPE(MPI_Status). */
typedef struct MPI_F08_status {
  MPI_Fint MPI_SOURCE;
  MPI_Fint MPI_TAG;
  MPI_Fint MPI_ERROR;
  MPI_Fint MPI_internal[5];
} MPI_F08_status;

/* Size of a Fortran INTEGER status array and the indices of its fields. */
enum {
  MPI_F_STATUS_SIZE = 8,
  MPI_F_SOURCE = 0,
  MPI_F_TAG = 1,
  MPI_F_ERROR = 2
};

/* ---- Handles ----------------------------------------------------------- */

typedef struct MPI_ABI_Op* MPI_Op;
typedef struct MPI_ABI_Comm* MPI_Comm;
typedef struct MPI_ABI_Group* MPI_Group;
typedef struct MPI_ABI_Win* MPI_Win;
typedef struct MPI_ABI_File* MPI_File;
typedef struct MPI_ABI_Session* MPI_Session;
typedef struct MPI_ABI_Message* MPI_Message;
typedef struct MPI_ABI_Info* MPI_Info;
typedef struct MPI_ABI_Errhandler* MPI_Errhandler;
typedef struct MPI_ABI_Request* MPI_Request;
typedef struct MPI_ABI_Datatype* MPI_Datatype;

/* Predefined handles.  Every value is below 0x400, so an implementation can
 * tell a predefined handle from a pointer to one of its own objects. */

/* Reduction operations: 0x20..0x3f. */
#define MPI_OP_NULL SHMPI_HANDLE(MPI_Op, 0x20)
#define MPI_SUM SHMPI_HANDLE(MPI_Op, 0x21)
#define MPI_MIN SHMPI_HANDLE(MPI_Op, 0x22)
#define MPI_MAX SHMPI_HANDLE(MPI_Op, 0x23)
#define MPI_PROD SHMPI_HANDLE(MPI_Op, 0x24)
#define MPI_BAND SHMPI_HANDLE(MPI_Op, 0x28)
#define MPI_BOR SHMPI_HANDLE(MPI_Op, 0x29)
#define MPI_BXOR SHMPI_HANDLE(MPI_Op, 0x2a)
#define MPI_LAND SHMPI_HANDLE(MPI_Op, 0x30)
#define MPI_LOR SHMPI_HANDLE(MPI_Op, 0x31)
#define MPI_LXOR SHMPI_HANDLE(MPI_Op, 0x32)
#define MPI_MINLOC SHMPI_HANDLE(MPI_Op, 0x38)
#define MPI_MAXLOC SHMPI_HANDLE(MPI_Op, 0x39)
#define MPI_REPLACE SHMPI_HANDLE(MPI_Op, 0x3c)
#define MPI_NO_OP SHMPI_HANDLE(MPI_Op, 0x3d)

/* Communicators, groups, windows, files, sessions, messages, infos,
 * error handlers and requests: 0x100..0x1ff. */
#define MPI_COMM_NULL SHMPI_HANDLE(MPI_Comm, 0x100)
#define MPI_COMM_WORLD SHMPI_HANDLE(MPI_Comm, 0x101)
#define MPI_COMM_SELF SHMPI_HANDLE(MPI_Comm, 0x102)

#define MPI_GROUP_NULL SHMPI_HANDLE(MPI_Group, 0x108)
#define MPI_GROUP_EMPTY SHMPI_HANDLE(MPI_Group, 0x109)

#define MPI_WIN_NULL SHMPI_HANDLE(MPI_Win, 0x110)

#define MPI_FILE_NULL SHMPI_HANDLE(MPI_File, 0x118)

#define MPI_SESSION_NULL SHMPI_HANDLE(MPI_Session, 0x120)

#define MPI_MESSAGE_NULL SHMPI_HANDLE(MPI_Message, 0x128)
#define MPI_MESSAGE_NO_PROC SHMPI_HANDLE(MPI_Message, 0x129)

#define MPI_INFO_NULL SHMPI_HANDLE(MPI_Info, 0x130)
#define MPI_INFO_ENV SHMPI_HANDLE(MPI_Info, 0x131)

#define MPI_ERRHANDLER_NULL SHMPI_HANDLE(MPI_Errhandler, 0x140)
#define MPI_ERRORS_ARE_FATAL SHMPI_HANDLE(MPI_Errhandler, 0x141)
#define MPI_ERRORS_RETURN SHMPI_HANDLE(MPI_Errhandler, 0x142)
#define MPI_ERRORS_ABORT SHMPI_HANDLE(MPI_Errhandler, 0x143)

#define MPI_REQUEST_NULL SHMPI_HANDLE(MPI_Request, 0x180)

/* Datatypes: 0x200..0x2ff.  In the ABI encoding the low bits of C integer
 * and floating types group types of one kind and size. */
#define MPI_DATATYPE_NULL SHMPI_HANDLE(MPI_Datatype, 0x200)
#define MPI_AINT SHMPI_HANDLE(MPI_Datatype, 0x201)
#define MPI_COUNT SHMPI_HANDLE(MPI_Datatype, 0x202)
#define MPI_OFFSET SHMPI_HANDLE(MPI_Datatype, 0x203)
#define MPI_PACKED SHMPI_HANDLE(MPI_Datatype, 0x207)
#define MPI_SHORT SHMPI_HANDLE(MPI_Datatype, 0x208)
#define MPI_INT SHMPI_HANDLE(MPI_Datatype, 0x209)
#define MPI_LONG SHMPI_HANDLE(MPI_Datatype, 0x20a)
#define MPI_LONG_LONG SHMPI_HANDLE(MPI_Datatype, 0x20b)
#define MPI_LONG_LONG_INT MPI_LONG_LONG
#define MPI_UNSIGNED_SHORT SHMPI_HANDLE(MPI_Datatype, 0x20c)
#define MPI_UNSIGNED SHMPI_HANDLE(MPI_Datatype, 0x20d)
#define MPI_UNSIGNED_LONG SHMPI_HANDLE(MPI_Datatype, 0x20e)
#define MPI_UNSIGNED_LONG_LONG SHMPI_HANDLE(MPI_Datatype, 0x20f)
#define MPI_FLOAT SHMPI_HANDLE(MPI_Datatype, 0x210)
#define MPI_C_FLOAT_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x212)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_CXX_FLOAT_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x213)
#define MPI_DOUBLE SHMPI_HANDLE(MPI_Datatype, 0x214)
#define MPI_C_DOUBLE_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x216)
#define MPI_CXX_DOUBLE_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x217)
#define MPI_LOGICAL SHMPI_HANDLE(MPI_Datatype, 0x218)
#define MPI_INTEGER SHMPI_HANDLE(MPI_Datatype, 0x219)
#define MPI_REAL SHMPI_HANDLE(MPI_Datatype, 0x21a)
#define MPI_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x21b)
#define MPI_DOUBLE_PRECISION SHMPI_HANDLE(MPI_Datatype, 0x21c)
#define MPI_DOUBLE_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x21d)
#define MPI_CHARACTER SHMPI_HANDLE(MPI_Datatype, 0x21e)
#define MPI_LONG_DOUBLE SHMPI_HANDLE(MPI_Datatype, 0x220)
#define MPI_C_LONG_DOUBLE_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x224)
#define MPI_CXX_LONG_DOUBLE_COMPLEX SHMPI_HANDLE(MPI_Datatype, 0x225)
#define MPI_FLOAT_INT SHMPI_HANDLE(MPI_Datatype, 0x228)
#define MPI_DOUBLE_INT SHMPI_HANDLE(MPI_Datatype, 0x229)
#define MPI_LONG_INT SHMPI_HANDLE(MPI_Datatype, 0x22a)
#define MPI_2INT SHMPI_HANDLE(MPI_Datatype, 0x22b)
#define MPI_SHORT_INT SHMPI_HANDLE(MPI_Datatype, 0x22c)
#define MPI_LONG_DOUBLE_INT SHMPI_HANDLE(MPI_Datatype, 0x22d)
#define MPI_2REAL SHMPI_HANDLE(MPI_Datatype, 0x230)
#define MPI_2DOUBLE_PRECISION SHMPI_HANDLE(MPI_Datatype, 0x231)
#define MPI_2INTEGER SHMPI_HANDLE(MPI_Datatype, 0x232)
#define MPI_C_BOOL SHMPI_HANDLE(MPI_Datatype, 0x238)
#define MPI_CXX_BOOL SHMPI_HANDLE(MPI_Datatype, 0x239)
#define MPI_WCHAR SHMPI_HANDLE(MPI_Datatype, 0x23c)
#define MPI_INT8_T SHMPI_HANDLE(MPI_Datatype, 0x240)
#define MPI_UINT8_T SHMPI_HANDLE(MPI_Datatype, 0x241)
#define MPI_CHAR SHMPI_HANDLE(MPI_Datatype, 0x243)
#define MPI_SIGNED_CHAR SHMPI_HANDLE(MPI_Datatype, 0x244)
#define MPI_UNSIGNED_CHAR SHMPI_HANDLE(MPI_Datatype, 0x245)
#define MPI_BYTE SHMPI_HANDLE(MPI_Datatype, 0x247)
#define MPI_INT16_T SHMPI_HANDLE(MPI_Datatype, 0x248)
#define MPI_UINT16_T SHMPI_HANDLE(MPI_Datatype, 0x249)
#define MPI_INT32_T SHMPI_HANDLE(MPI_Datatype, 0x250)
#define MPI_UINT32_T SHMPI_HANDLE(MPI_Datatype, 0x251)
#define MPI_INT64_T SHMPI_HANDLE(MPI_Datatype, 0x258)
#define MPI_UINT64_T SHMPI_HANDLE(MPI_Datatype, 0x259)
#define MPI_INTEGER1 SHMPI_HANDLE(MPI_Datatype, 0x2c1)
#define MPI_INTEGER2 SHMPI_HANDLE(MPI_Datatype, 0x2c9)
#define MPI_REAL2 SHMPI_HANDLE(MPI_Datatype, 0x2ca)
#define MPI_INTEGER4 SHMPI_HANDLE(MPI_Datatype, 0x2d1)
#define MPI_REAL4 SHMPI_HANDLE(MPI_Datatype, 0x2d2)
#define MPI_COMPLEX4 SHMPI_HANDLE(MPI_Datatype, 0x2d3)
#define MPI_INTEGER8 SHMPI_HANDLE(MPI_Datatype, 0x2d9)
#define MPI_REAL8 SHMPI_HANDLE(MPI_Datatype, 0x2da)
#define MPI_COMPLEX8 SHMPI_HANDLE(MPI_Datatype, 0x2db)
#define MPI_INTEGER16 SHMPI_HANDLE(MPI_Datatype, 0x2e1)
#define MPI_REAL16 SHMPI_HANDLE(MPI_Datatype, 0x2e2)
#define MPI_COMPLEX16 SHMPI_HANDLE(MPI_Datatype, 0x2e3)
#define MPI_COMPLEX32 SHMPI_HANDLE(MPI_Datatype, 0x2eb)

/* ---- Error classes ----------------------------------------------------- */

/* Error classes have the ABI's values.  Every error class is also an error
 * code; shmpi's other error codes are larger than MPI_ERR_LASTCODE and
 * carry a message (MPI_Error_class and MPI_Error_string decode them). */
enum {
  MPI_SUCCESS = 0,
  MPI_ERR_BUFFER = 1,
  MPI_ERR_COUNT = 2,
  MPI_ERR_TYPE = 3,
  MPI_ERR_TAG = 4,
  MPI_ERR_COMM = 5,
  MPI_ERR_RANK = 6,
  MPI_ERR_REQUEST = 7,
  MPI_ERR_ROOT = 8,
  MPI_ERR_GROUP = 9,
  MPI_ERR_OP = 10,
  MPI_ERR_TOPOLOGY = 11,
  MPI_ERR_DIMS = 12,
  MPI_ERR_ARG = 13,
  MPI_ERR_UNKNOWN = 14,
  MPI_ERR_TRUNCATE = 15,
  MPI_ERR_OTHER = 16,
  MPI_ERR_INTERN = 17,
  MPI_ERR_PENDING = 18,
  MPI_ERR_IN_STATUS = 19,
  MPI_ERR_ACCESS = 20,
  MPI_ERR_AMODE = 21,
  MPI_ERR_ASSERT = 22,
  MPI_ERR_BAD_FILE = 23,
  MPI_ERR_BASE = 24,
  MPI_ERR_CONVERSION = 25,
  MPI_ERR_DISP = 26,
  MPI_ERR_DUP_DATAREP = 27,
  MPI_ERR_FILE_EXISTS = 28,
  MPI_ERR_FILE_IN_USE = 29,
  MPI_ERR_FILE = 30,
  MPI_ERR_INFO_KEY = 31,
  MPI_ERR_INFO_NOKEY = 32,
  MPI_ERR_INFO_VALUE = 33,
  MPI_ERR_INFO = 34,
  MPI_ERR_IO = 35,
  MPI_ERR_KEYVAL = 36,
  MPI_ERR_LOCKTYPE = 37,
  MPI_ERR_NAME = 38,
  MPI_ERR_NO_MEM = 39,
  MPI_ERR_NOT_SAME = 40,
  MPI_ERR_NO_SPACE = 41,
  MPI_ERR_NO_SUCH_FILE = 42,
  MPI_ERR_PORT = 43,
  MPI_ERR_QUOTA = 44,
  MPI_ERR_READ_ONLY = 45,
  MPI_ERR_RMA_ATTACH = 46,
  MPI_ERR_RMA_CONFLICT = 47,
  MPI_ERR_RMA_RANGE = 48,
  MPI_ERR_RMA_SHARED = 49,
  MPI_ERR_RMA_SYNC = 50,
  MPI_ERR_SERVICE = 51,
  MPI_ERR_SIZE = 52,
  MPI_ERR_SPAWN = 53,
  MPI_ERR_UNSUPPORTED_DATAREP = 54,
  MPI_ERR_UNSUPPORTED_OPERATION = 55,
  MPI_ERR_WIN = 56,
  MPI_ERR_RMA_FLAVOR = 57,
  MPI_ERR_PROC_ABORTED = 58,
  MPI_ERR_VALUE_TOO_LARGE = 59,
  MPI_ERR_SESSION = 60,

  /* Return codes of the tool information interface (MPI_T_*). */
  MPI_T_ERR_CANNOT_INIT = 1001,
  MPI_T_ERR_NOT_ACCESSIBLE = 1002,
  MPI_T_ERR_NOT_INITIALIZED = 1003,
  MPI_T_ERR_NOT_SUPPORTED = 1004,
  MPI_T_ERR_MEMORY = 1005,
  MPI_T_ERR_INVALID = 1006,
  MPI_T_ERR_INVALID_INDEX = 1007,
  MPI_T_ERR_INVALID_ITEM = 1008, /* deprecated in MPI 4.0 */
  MPI_T_ERR_INVALID_SESSION = 1009,
  MPI_T_ERR_INVALID_HANDLE = 1010,
  MPI_T_ERR_INVALID_NAME = 1011,
  MPI_T_ERR_OUT_OF_HANDLES = 1012,
  MPI_T_ERR_OUT_OF_SESSIONS = 1013,
  MPI_T_ERR_CVAR_SET_NOT_NOW = 1014,
  MPI_T_ERR_CVAR_SET_NEVER = 1015,
  MPI_T_ERR_PVAR_NO_WRITE = 1016,
  MPI_T_ERR_PVAR_NO_STARTSTOP = 1017,
  MPI_T_ERR_PVAR_NO_ATOMIC = 1018,

  MPI_ERR_LASTCODE = 0x3fff
};

/* ---- Buffer addresses and ignored arguments ---------------------------- */

#define MPI_BOTTOM SHMPI_NULL(void*)
#define MPI_IN_PLACE SHMPI_POINTER(void*, 1)

#define MPI_ARGV_NULL SHMPI_NULL(char**)
#define MPI_ARGVS_NULL SHMPI_NULL(char***)
#define MPI_ERRCODES_IGNORE SHMPI_NULL(int*)
#define MPI_STATUS_IGNORE SHMPI_NULL(MPI_Status*)
#define MPI_STATUSES_IGNORE SHMPI_NULL(MPI_Status*)
#define MPI_F_STATUS_IGNORE SHMPI_NULL(MPI_Fint*)
#define MPI_F_STATUSES_IGNORE SHMPI_NULL(MPI_Fint*)
#define MPI_F08_STATUS_IGNORE SHMPI_NULL(MPI_F08_status*)
#define MPI_F08_STATUSES_IGNORE SHMPI_NULL(MPI_F08_status*)
#define MPI_UNWEIGHTED SHMPI_POINTER(int*, 10)
#define MPI_WEIGHTS_EMPTY SHMPI_POINTER(int*, 11)

/* ---- String lengths (each includes the terminating NUL) ---------------- */

#define MPI_MAX_DATAREP_STRING 128
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_INFO_KEY 256
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_PORT_NAME 1024
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_STRINGTAG_LEN 1024
#define MPI_MAX_PSET_NAME_LEN 1024

#define MPI_BSEND_OVERHEAD 512

/* ---- Modes (powers of two, to be or-ed) -------------------------------- */

enum {
  /* File access modes. */
  MPI_MODE_APPEND = 1,
  MPI_MODE_CREATE = 2,
  MPI_MODE_DELETE_ON_CLOSE = 4,
  MPI_MODE_EXCL = 8,
  MPI_MODE_RDONLY = 16,
  MPI_MODE_RDWR = 32,
  MPI_MODE_SEQUENTIAL = 64,
  MPI_MODE_UNIQUE_OPEN = 128,
  MPI_MODE_WRONLY = 256,

  /* Window assertions. */
  MPI_MODE_NOCHECK = 1024,
  MPI_MODE_NOPRECEDE = 2048,
  MPI_MODE_NOPUT = 4096,
  MPI_MODE_NOSTORE = 8192,
  MPI_MODE_NOSUCCEED = 16384
};

/* ---- Sentinels ---------------------------------------------------------- */

enum {
  MPI_ANY_SOURCE = -1,
  MPI_ANY_TAG = -2,
  MPI_PROC_NULL = -3,
  MPI_ROOT = -4,
  MPI_UNDEFINED = -32766
};

/* ---- Assorted enumerations --------------------------------------------- */

enum {
  /* Thread levels, ordered SINGLE < FUNNELED < SERIALIZED < MULTIPLE. */
  MPI_THREAD_SINGLE = 0,
  MPI_THREAD_FUNNELED = 1024,
  MPI_THREAD_SERIALIZED = 2048,
  MPI_THREAD_MULTIPLE = 4096,

  /* Array storage order (MPI_Type_create_subarray, _darray). */
  MPI_ORDER_C = 12,
  MPI_ORDER_FORTRAN = 15,

  /* Distributions (MPI_Type_create_darray). */
  MPI_DISTRIBUTE_NONE = 16,
  MPI_DISTRIBUTE_BLOCK = 17,
  MPI_DISTRIBUTE_CYCLIC = 18,
  MPI_DISTRIBUTE_DFLT_DARG = 19,

  /* Datatype combiners (MPI_Type_get_envelope). */
  MPI_COMBINER_NAMED = 101,
  MPI_COMBINER_DUP = 102,
  MPI_COMBINER_CONTIGUOUS = 103,
  MPI_COMBINER_VECTOR = 104,
  MPI_COMBINER_HVECTOR = 105,
  MPI_COMBINER_INDEXED = 106,
  MPI_COMBINER_HINDEXED = 107,
  MPI_COMBINER_INDEXED_BLOCK = 108,
  MPI_COMBINER_HINDEXED_BLOCK = 109,
  MPI_COMBINER_STRUCT = 110,
  MPI_COMBINER_SUBARRAY = 111,
  MPI_COMBINER_DARRAY = 112,
  MPI_COMBINER_F90_INTEGER = 113,
  MPI_COMBINER_F90_REAL = 114,
  MPI_COMBINER_F90_COMPLEX = 115,
  MPI_COMBINER_RESIZED = 116,

  /* Type classes (MPI_Type_match_size). */
  MPI_TYPECLASS_INTEGER = 192,
  MPI_TYPECLASS_REAL = 193,
  MPI_TYPECLASS_COMPLEX = 194,

  /* Results of MPI_Comm_compare and MPI_Group_compare. */
  MPI_IDENT = 201,
  MPI_CONGRUENT = 202,
  MPI_SIMILAR = 203,
  MPI_UNEQUAL = 204,

  /* Topology kinds (MPI_Topo_test). */
  MPI_CART = 211,
  MPI_GRAPH = 212,
  MPI_DIST_GRAPH = 213,

  /* Split types (MPI_Comm_split_type). */
  MPI_COMM_TYPE_SHARED = 221,
  MPI_COMM_TYPE_HW_UNGUIDED = 222,
  MPI_COMM_TYPE_HW_GUIDED = 223,

  /* Window lock types. */
  MPI_LOCK_EXCLUSIVE = 301,
  MPI_LOCK_SHARED = 302,

  /* Window flavors. */
  MPI_WIN_FLAVOR_CREATE = 311,
  MPI_WIN_FLAVOR_ALLOCATE = 312,
  MPI_WIN_FLAVOR_DYNAMIC = 313,
  MPI_WIN_FLAVOR_SHARED = 314,

  /* Window memory models. */
  MPI_WIN_UNIFIED = 321,
  MPI_WIN_SEPARATE = 322,

  /* File positioning (MPI_File_seek). */
  MPI_SEEK_SET = 401,
  MPI_SEEK_CUR = 402,
  MPI_SEEK_END = 403
};

#define MPI_DISPLACEMENT_CURRENT INT64_C(-1) /* an MPI_Offset */

/* ---- Predefined attribute keys ------------------------------------------ */

enum {
  MPI_KEYVAL_INVALID = 0,

  /* Communicator attributes (cached on MPI_COMM_WORLD). */
  MPI_TAG_UB = 501,
  MPI_IO = 502,
  MPI_HOST = 503,
  MPI_WTIME_IS_GLOBAL = 504,
  MPI_UNIVERSE_SIZE = 505,
  MPI_APPNUM = 506,
  MPI_LASTUSEDCODE = 507,

  /* Window attributes. */
  MPI_WIN_BASE = 601,
  MPI_WIN_DISP_UNIT = 602,
  MPI_WIN_SIZE = 603,
  MPI_WIN_CREATE_FLAVOR = 604,
  MPI_WIN_MODEL = 605
};

/* ---- Callback types ------------------------------------------------------ */

typedef void MPI_User_function(void* invec, void* inoutvec, int* len,
                               MPI_Datatype* datatype);
typedef void MPI_User_function_c(void* invec, void* inoutvec, MPI_Count* len,
                                 MPI_Datatype* datatype);

typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
                                        void* extra_state,
                                        void* attribute_val_in,
                                        void* attribute_val_out, int* flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
                                          void* attribute_val,
                                          void* extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval,
                                        void* extra_state,
                                        void* attribute_val_in,
                                        void* attribute_val_out, int* flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype,
                                          int type_keyval, void* attribute_val,
                                          void* extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
                                       void* extra_state,
                                       void* attribute_val_in,
                                       void* attribute_val_out, int* flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
                                         void* attribute_val,
                                         void* extra_state);
/* Deprecated since MPI 2.0, still part of MPI 4.0. */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void* extra_state,
                              void* attribute_val_in, void* attribute_val_out,
                              int* flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void* attribute_val,
                                void* extra_state);

typedef void MPI_Comm_errhandler_function(MPI_Comm* comm, int* error_code, ...);
typedef void MPI_Win_errhandler_function(MPI_Win* win, int* error_code, ...);
typedef void MPI_File_errhandler_function(MPI_File* file, int* error_code, ...);
typedef void MPI_Session_errhandler_function(MPI_Session* session,
                                             int* error_code, ...);
/* Deprecated names of the error handler types. */
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef MPI_Session_errhandler_function MPI_Session_errhandler_fn;

typedef int MPI_Grequest_query_function(void* extra_state, MPI_Status* status);
typedef int MPI_Grequest_free_function(void* extra_state);
typedef int MPI_Grequest_cancel_function(void* extra_state, int complete);

typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint* extent,
                                        void* extra_state);
typedef int MPI_Datarep_conversion_function(void* userbuf,
                                            MPI_Datatype datatype, int count,
                                            void* filebuf, MPI_Offset position,
                                            void* extra_state);
typedef int MPI_Datarep_conversion_function_c(void* userbuf,
                                              MPI_Datatype datatype,
                                              MPI_Count count, void* filebuf,
                                              MPI_Offset position,
                                              void* extra_state);

/* ---- Predefined callbacks ------------------------------------------------ */

/* The predefined copy and delete callbacks are real functions of libshmpi:
 * a program may call them or store their addresses like its own. */
SHMPI_API int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval,
                                    void* extra_state, void* attribute_val_in,
                                    void* attribute_val_out,
                                    int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval,
                              void* extra_state, void* attribute_val_in,
                              void* attribute_val_out,
                              int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval,
                                      void* attribute_val,
                                      void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int type_keyval,
                                    void* extra_state, void* attribute_val_in,
                                    void* attribute_val_out,
                                    int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int type_keyval,
                              void* extra_state, void* attribute_val_in,
                              void* attribute_val_out,
                              int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype datatype, int type_keyval,
                                      void* attribute_val,
                                      void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int win_keyval,
                                   void* extra_state, void* attribute_val_in,
                                   void* attribute_val_out,
                                   int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_WIN_DUP_FN(MPI_Win oldwin, int win_keyval, void* extra_state,
                             void* attribute_val_in, void* attribute_val_out,
                             int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int win_keyval,
                                     void* attribute_val,
                                     void* extra_state) SHMPI_NOEXCEPT;
/* Deprecated since MPI 2.0, still part of MPI 4.0. */
SHMPI_API int MPI_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void* extra_state,
                               void* attribute_val_in, void* attribute_val_out,
                               int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_DUP_FN(MPI_Comm oldcomm, int keyval, void* extra_state,
                         void* attribute_val_in, void* attribute_val_out,
                         int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_NULL_DELETE_FN(MPI_Comm comm, int keyval, void* attribute_val,
                                 void* extra_state) SHMPI_NOEXCEPT;

/* "No conversion" for MPI_Register_datarep: a null function pointer. */
#define MPI_CONVERSION_FN_NULL SHMPI_NULL(MPI_Datarep_conversion_function*)
#define MPI_CONVERSION_FN_NULL_C SHMPI_NULL(MPI_Datarep_conversion_function_c*)

/* ---- Tool information interface (MPI_T) --------------------------------- */

typedef struct MPI_T_enum_t* MPI_T_enum;
typedef struct MPI_T_cvar_handle_t* MPI_T_cvar_handle;
typedef struct MPI_T_pvar_handle_t* MPI_T_pvar_handle;
typedef struct MPI_T_pvar_session_t* MPI_T_pvar_session;
typedef struct MPI_T_event_registration_t* MPI_T_event_registration;
typedef struct MPI_T_event_instance_t* MPI_T_event_instance;

#define MPI_T_ENUM_NULL SHMPI_NULL(MPI_T_enum)
#define MPI_T_CVAR_HANDLE_NULL SHMPI_NULL(MPI_T_cvar_handle)
#define MPI_T_PVAR_HANDLE_NULL SHMPI_NULL(MPI_T_pvar_handle)
#define MPI_T_PVAR_ALL_HANDLES SHMPI_HANDLE(MPI_T_pvar_handle, 1)
#define MPI_T_PVAR_SESSION_NULL SHMPI_NULL(MPI_T_pvar_session)

typedef enum MPI_T_cb_safety {
  MPI_T_CB_REQUIRE_NONE = 0x00,
  MPI_T_CB_REQUIRE_MPI_RESTRICTED = 0x03,
  MPI_T_CB_REQUIRE_THREAD_SAFE = 0x0f,
  MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 0x3f
} MPI_T_cb_safety;

typedef enum MPI_T_source_order {
  MPI_T_SOURCE_ORDERED = 1,
  MPI_T_SOURCE_UNORDERED = 2
} MPI_T_source_order;

enum {
  MPI_T_VERBOSITY_USER_BASIC = 0x09,
  MPI_T_VERBOSITY_USER_DETAIL = 0x0a,
  MPI_T_VERBOSITY_USER_ALL = 0x0c,
  MPI_T_VERBOSITY_TUNER_BASIC = 0x11,
  MPI_T_VERBOSITY_TUNER_DETAIL = 0x12,
  MPI_T_VERBOSITY_TUNER_ALL = 0x14,
  MPI_T_VERBOSITY_MPIDEV_BASIC = 0x21,
  MPI_T_VERBOSITY_MPIDEV_DETAIL = 0x22,
  MPI_T_VERBOSITY_MPIDEV_ALL = 0x24
};

enum {
  MPI_T_BIND_NO_OBJECT = 1,
  MPI_T_BIND_MPI_COMM = 2,
  MPI_T_BIND_MPI_DATATYPE = 3,
  MPI_T_BIND_MPI_ERRHANDLER = 4,
  MPI_T_BIND_MPI_FILE = 5,
  MPI_T_BIND_MPI_GROUP = 6,
  MPI_T_BIND_MPI_OP = 7,
  MPI_T_BIND_MPI_REQUEST = 8,
  MPI_T_BIND_MPI_WIN = 9,
  MPI_T_BIND_MPI_MESSAGE = 10,
  MPI_T_BIND_MPI_INFO = 11,
  MPI_T_BIND_MPI_SESSION = 12
};

enum {
  MPI_T_SCOPE_CONSTANT = 1,
  MPI_T_SCOPE_READONLY = 2,
  MPI_T_SCOPE_LOCAL = 3,
  MPI_T_SCOPE_GROUP = 4,
  MPI_T_SCOPE_GROUP_EQ = 5,
  MPI_T_SCOPE_ALL = 6,
  MPI_T_SCOPE_ALL_EQ = 7
};

enum {
  MPI_T_PVAR_CLASS_STATE = 1,
  MPI_T_PVAR_CLASS_LEVEL = 2,
  MPI_T_PVAR_CLASS_SIZE = 3,
  MPI_T_PVAR_CLASS_PERCENTAGE = 4,
  MPI_T_PVAR_CLASS_HIGHWATERMARK = 5,
  MPI_T_PVAR_CLASS_LOWWATERMARK = 6,
  MPI_T_PVAR_CLASS_COUNTER = 7,
  MPI_T_PVAR_CLASS_AGGREGATE = 8,
  MPI_T_PVAR_CLASS_TIMER = 9,
  MPI_T_PVAR_CLASS_GENERIC = 10
};

typedef void MPI_T_event_cb_function(
    MPI_T_event_instance event_instance,
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    void* user_data);
typedef void MPI_T_event_free_cb_function(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    void* user_data);
typedef void MPI_T_event_dropped_cb_function(
    MPI_Count count, MPI_T_event_registration event_registration,
    int source_index, MPI_T_cb_safety cb_safety, void* user_data);

/* ---- Functions ----------------------------------------------------------- */

/* BEGIN GENERATED PROTOTYPES (tools/gen_unsupported.py) */
/* clang-format off */

/* Point-to-point communication */

SHMPI_API int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bsend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bsend_c(const void* buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bsend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype,
                              int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bsend_init_c(const void* buf, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bsend_init_c(const void* buf, MPI_Count count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Buffer_attach(void* buffer, int size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Buffer_attach(void* buffer, int size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Buffer_attach_c(void* buffer, MPI_Count size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Buffer_attach_c(void* buffer, MPI_Count size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Buffer_detach(void* buffer_addr, int* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Buffer_detach(void* buffer_addr, int* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Buffer_detach_c(void* buffer_addr,
                                  MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Buffer_detach_c(void* buffer_addr,
                                   MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cancel(MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cancel(MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype,
                            int* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype,
                             int* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype,
                              MPI_Count* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype,
                               MPI_Count* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ibsend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ibsend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ibsend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag,
                          MPI_Message* message,
                          MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag,
                           MPI_Message* message,
                           MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype,
                         MPI_Message* message,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Imrecv(void* buf, int count, MPI_Datatype datatype,
                          MPI_Message* message,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Message* message,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Message* message,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag,
                         MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag,
                          MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source,
                        int tag, MPI_Comm comm,
                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Irsend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Irsend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Isend(const void* buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm,
                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Isend_c(const void* buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Isend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Isendrecv(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, int dest, int sendtag,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype,
                            int source, int recvtag, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Isendrecv(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, int dest, int sendtag,
                             void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, int dest, int sendtag,
                              void* recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, int source, int recvtag,
                              MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, int dest, int sendtag,
                               void* recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype,
                                    int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Isendrecv_replace(void* buf, int count,
                                     MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag,
                                     MPI_Comm comm,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Isendrecv_replace_c(void* buf, MPI_Count count,
                                      MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag,
                                      MPI_Comm comm,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Isendrecv_replace_c(void* buf, MPI_Count count,
                                       MPI_Datatype datatype, int dest,
                                       int sendtag, int source, int recvtag,
                                       MPI_Comm comm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Issend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Issend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Issend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Mprobe(int source, int tag, MPI_Comm comm,
                         MPI_Message* message,
                         MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Mprobe(int source, int tag, MPI_Comm comm,
                          MPI_Message* message,
                          MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype,
                        MPI_Message* message,
                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Mrecv(void* buf, int count, MPI_Datatype datatype,
                         MPI_Message* message,
                         MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Message* message,
                          MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Message* message,
                           MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Probe(int source, int tag, MPI_Comm comm,
                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Probe(int source, int tag, MPI_Comm comm,
                         MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source,
                       int tag, MPI_Comm comm,
                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source,
                        int tag, MPI_Comm comm,
                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm,
                         MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm,
                          MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Recv_init(void* buf, int count, MPI_Datatype datatype,
                            int source, int tag, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Recv_init(void* buf, int count, MPI_Datatype datatype,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                              int source, int tag, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Recv_init_c(void* buf, MPI_Count count,
                               MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Request_free(MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Request_free(MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Request_get_status(MPI_Request request, int* flag,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Request_get_status(MPI_Request request, int* flag,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rsend_c(const void* buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rsend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype,
                              int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rsend_init_c(const void* buf, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rsend_init_c(const void* buf, MPI_Count count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Send(const void* buf, int count, MPI_Datatype datatype,
                       int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Send(const void* buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Send_c(const void* buf, MPI_Count count,
                         MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Send_c(const void* buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype,
                            int dest, int tag, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Send_init(const void* buf, int count, MPI_Datatype datatype,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Send_init_c(const void* buf, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Send_init_c(const void* buf, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Sendrecv(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, int dest, int sendtag,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           int source, int recvtag, MPI_Comm comm,
                           MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Sendrecv(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, int dest, int sendtag,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype,
                            int source, int recvtag, MPI_Comm comm,
                            MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, int dest, int sendtag,
                             void* recvbuf, MPI_Count recvcount,
                             MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, int dest, int sendtag,
                              void* recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, int source, int recvtag,
                              MPI_Comm comm, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype,
                                   int dest, int sendtag, int source,
                                   int recvtag, MPI_Comm comm,
                                   MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype,
                                    int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Sendrecv_replace_c(void* buf, MPI_Count count,
                                     MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag,
                                     MPI_Comm comm,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Sendrecv_replace_c(void* buf, MPI_Count count,
                                      MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag,
                                      MPI_Comm comm,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype,
                        int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ssend_c(const void* buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ssend_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype,
                              int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ssend_init_c(const void* buf, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ssend_init_c(const void* buf, MPI_Count count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Start(MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Start(MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Startall(int count,
                           MPI_Request array_of_requests[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Startall(int count,
                            MPI_Request array_of_requests[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Test(MPI_Request* request, int* flag,
                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Test(MPI_Request* request, int* flag,
                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Test_cancelled(const MPI_Status* status,
                                 int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Test_cancelled(const MPI_Status* status,
                                  int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Testall(int count, MPI_Request array_of_requests[], int* flag,
                          MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Testall(int count, MPI_Request array_of_requests[],
                           int* flag,
                           MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Testany(int count, MPI_Request array_of_requests[], int* indx,
                          int* flag, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Testany(int count, MPI_Request array_of_requests[],
                           int* indx, int* flag,
                           MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Testsome(int incount, MPI_Request array_of_requests[],
                           int* outcount, int array_of_indices[],
                           MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Testsome(int incount, MPI_Request array_of_requests[],
                            int* outcount, int array_of_indices[],
                            MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Wait(MPI_Request* request, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Wait(MPI_Request* request,
                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Waitall(int count, MPI_Request array_of_requests[],
                          MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Waitall(int count, MPI_Request array_of_requests[],
                           MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Waitany(int count, MPI_Request array_of_requests[], int* indx,
                          MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Waitany(int count, MPI_Request array_of_requests[],
                           int* indx, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Waitsome(int incount, MPI_Request array_of_requests[],
                           int* outcount, int array_of_indices[],
                           MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Waitsome(int incount, MPI_Request array_of_requests[],
                            int* outcount, int array_of_indices[],
                            MPI_Status array_of_statuses[]) SHMPI_NOEXCEPT;

/* Partitioned communication */

SHMPI_API int MPI_Parrived(MPI_Request request, int partition,
                           int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Parrived(MPI_Request request, int partition,
                            int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pready(int partition, MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pready(int partition, MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pready_list(int length, int array_of_partitions[],
                              MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pready_list(int length, int array_of_partitions[],
                               MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pready_range(int partition_low, int partition_high,
                               MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pready_range(int partition_low, int partition_high,
                                MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Precv_init(void* buf, int partitions, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Info info,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Precv_init(void* buf, int partitions, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Psend_init(const void* buf, int partitions, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Info info,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count,
                              MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;

/* Datatypes */

SHMPI_API MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) SHMPI_NOEXCEPT;
SHMPI_API MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) SHMPI_NOEXCEPT;
SHMPI_API MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) SHMPI_NOEXCEPT;
SHMPI_API MPI_Aint PMPI_Aint_diff(MPI_Aint addr1,
                                  MPI_Aint addr2) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_address(const void* location,
                              MPI_Aint* address) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_address(const void* location,
                               MPI_Aint* address) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype,
                               int* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype,
                                int* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_elements_c(const MPI_Status* status,
                                 MPI_Datatype datatype,
                                 MPI_Count* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_elements_c(const MPI_Status* status,
                                  MPI_Datatype datatype,
                                  MPI_Count* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_elements_x(const MPI_Status* status,
                                 MPI_Datatype datatype,
                                 MPI_Count* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_elements_x(const MPI_Status* status,
                                  MPI_Datatype datatype,
                                  MPI_Count* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype,
                       void* outbuf, int outsize, int* position,
                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype,
                        void* outbuf, int outsize, int* position,
                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_c(const void* inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void* outbuf, MPI_Count outsize,
                         MPI_Count* position, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_c(const void* inbuf, MPI_Count incount,
                          MPI_Datatype datatype, void* outbuf,
                          MPI_Count outsize, MPI_Count* position,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_external(const char* datarep, const void* inbuf,
                                int incount, MPI_Datatype datatype,
                                void* outbuf, MPI_Aint outsize,
                                MPI_Aint* position) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_external(const char* datarep, const void* inbuf,
                                 int incount, MPI_Datatype datatype,
                                 void* outbuf, MPI_Aint outsize,
                                 MPI_Aint* position) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_external_c(const char* datarep, const void* inbuf,
                                  MPI_Count incount, MPI_Datatype datatype,
                                  void* outbuf, MPI_Count outsize,
                                  MPI_Count* position) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_external_c(const char* datarep, const void* inbuf,
                                   MPI_Count incount, MPI_Datatype datatype,
                                   void* outbuf, MPI_Count outsize,
                                   MPI_Count* position) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_external_size(const char* datarep, int incount,
                                     MPI_Datatype datatype,
                                     MPI_Aint* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_external_size(const char* datarep, int incount,
                                      MPI_Datatype datatype,
                                      MPI_Aint* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_external_size_c(const char* datarep, MPI_Count incount,
                                       MPI_Datatype datatype,
                                       MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_external_size_c(const char* datarep, MPI_Count incount,
                                        MPI_Datatype datatype,
                                        MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                            int* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                             int* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype,
                              MPI_Comm comm, MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype,
                               MPI_Comm comm, MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_commit(MPI_Datatype* datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_commit(MPI_Datatype* datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_contiguous(int count, MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_contiguous(int count, MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                                     MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_darray(int size, int rank, int ndims,
                                     const int array_of_gsizes[],
                                     const int array_of_distribs[],
                                     const int array_of_dargs[],
                                     const int array_of_psizes[], int order,
                                     MPI_Datatype oldtype,
                                     MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_darray(int size, int rank, int ndims,
                                      const int array_of_gsizes[],
                                      const int array_of_distribs[],
                                      const int array_of_dargs[],
                                      const int array_of_psizes[], int order,
                                      MPI_Datatype oldtype,
                                      MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_darray_c(int size, int rank, int ndims,
                                       const MPI_Count array_of_gsizes[],
                                       const int array_of_distribs[],
                                       const int array_of_dargs[],
                                       const int array_of_psizes[], int order,
                                       MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_darray_c(int size, int rank, int ndims,
                                        const MPI_Count array_of_gsizes[],
                                        const int array_of_distribs[],
                                        const int array_of_dargs[],
                                        const int array_of_psizes[], int order,
                                        MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_hindexed(int count,
                                       const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[],
                                       MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_hindexed(int count,
                                        const int array_of_blocklengths[],
                                        const MPI_Aint array_of_displacements[],
                                        MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_hindexed_block(
    int count, int blocklength, const MPI_Aint array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_hindexed_block(
    int count, int blocklength, const MPI_Aint array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_hindexed_block_c(
    MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_hindexed_block_c(
    MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_hindexed_c(
    MPI_Count count, const MPI_Count array_of_blocklengths[],
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_hindexed_c(
    MPI_Count count, const MPI_Count array_of_blocklengths[],
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_hvector(int count, int blocklength,
                                      MPI_Aint stride, MPI_Datatype oldtype,
                                      MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_hvector(int count, int blocklength,
                                       MPI_Aint stride, MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
                                        MPI_Count stride, MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_hvector_c(
    MPI_Count count, MPI_Count blocklength, MPI_Count stride,
    MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_indexed_block(
    int count, int blocklength, const int array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_indexed_block(
    int count, int blocklength, const int array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_indexed_block_c(
    MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_indexed_block_c(
    MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                                      MPI_Aint extent,
                                      MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                                       MPI_Aint extent,
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb,
                                        MPI_Count extent,
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_resized_c(
    MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
    MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_struct(int count,
                                     const int array_of_blocklengths[],
                                     const MPI_Aint array_of_displacements[],
                                     const MPI_Datatype array_of_types[],
                                     MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_struct(int count,
                                      const int array_of_blocklengths[],
                                      const MPI_Aint array_of_displacements[],
                                      const MPI_Datatype array_of_types[],
                                      MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_struct_c(MPI_Count count,
                                       const MPI_Count array_of_blocklengths[],
                                       const MPI_Count array_of_displacements[],
                                       const MPI_Datatype array_of_types[],
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_struct_c(MPI_Count count,
                                        const MPI_Count array_of_blocklengths[],
                                        const MPI_Count array_of_displacements[],
                                        const MPI_Datatype array_of_types[],
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                                       const int array_of_subsizes[],
                                       const int array_of_starts[], int order,
                                       MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                                        const int array_of_subsizes[],
                                        const int array_of_starts[], int order,
                                        MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_subarray_c(
    int ndims, const MPI_Count array_of_sizes[],
    const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
    int order, MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_subarray_c(
    int ndims, const MPI_Count array_of_sizes[],
    const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
    int order, MPI_Datatype oldtype, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_dup(MPI_Datatype oldtype,
                           MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_dup(MPI_Datatype oldtype,
                            MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_free(MPI_Datatype* datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_free(MPI_Datatype* datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers,
                                    int max_addresses, int max_datatypes,
                                    int array_of_integers[],
                                    MPI_Aint array_of_addresses[],
                                    MPI_Datatype array_of_datatypes[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers,
                                     int max_addresses, int max_datatypes,
                                     int array_of_integers[],
                                     MPI_Aint array_of_addresses[],
                                     MPI_Datatype array_of_datatypes[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_contents_c(MPI_Datatype datatype,
                                      MPI_Count max_integers,
                                      MPI_Count max_addresses,
                                      MPI_Count max_large_counts,
                                      MPI_Count max_datatypes,
                                      int array_of_integers[],
                                      MPI_Aint array_of_addresses[],
                                      MPI_Count array_of_large_counts[],
                                      MPI_Datatype array_of_datatypes[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_contents_c(MPI_Datatype datatype,
                                       MPI_Count max_integers,
                                       MPI_Count max_addresses,
                                       MPI_Count max_large_counts,
                                       MPI_Count max_datatypes,
                                       int array_of_integers[],
                                       MPI_Aint array_of_addresses[],
                                       MPI_Count array_of_large_counts[],
                                       MPI_Datatype array_of_datatypes[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers,
                                    int* num_addresses, int* num_datatypes,
                                    int* combiner) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers,
                                     int* num_addresses, int* num_datatypes,
                                     int* combiner) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_envelope_c(MPI_Datatype datatype,
                                      MPI_Count* num_integers,
                                      MPI_Count* num_addresses,
                                      MPI_Count* num_large_counts,
                                      MPI_Count* num_datatypes,
                                      int* combiner) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_envelope_c(MPI_Datatype datatype,
                                       MPI_Count* num_integers,
                                       MPI_Count* num_addresses,
                                       MPI_Count* num_large_counts,
                                       MPI_Count* num_datatypes,
                                       int* combiner) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb,
                                  MPI_Aint* extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb,
                                   MPI_Aint* extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb,
                                    MPI_Count* extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb,
                                     MPI_Count* extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb,
                                    MPI_Count* extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb,
                                     MPI_Count* extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_name(MPI_Datatype datatype, char* type_name,
                                int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name,
                                 int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb,
                                       MPI_Aint* true_extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_true_extent(MPI_Datatype datatype,
                                        MPI_Aint* true_lb,
                                        MPI_Aint* true_extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_true_extent_c(
    MPI_Datatype datatype, MPI_Count* true_lb,
    MPI_Count* true_extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_true_extent_c(
    MPI_Datatype datatype, MPI_Count* true_lb,
    MPI_Count* true_extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_true_extent_x(
    MPI_Datatype datatype, MPI_Count* true_lb,
    MPI_Count* true_extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_true_extent_x(
    MPI_Datatype datatype, MPI_Count* true_lb,
    MPI_Count* true_extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                               const int array_of_displacements[],
                               MPI_Datatype oldtype,
                               MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                                const int array_of_displacements[],
                                MPI_Datatype oldtype,
                                MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_indexed_c(MPI_Count count,
                                 const MPI_Count array_of_blocklengths[],
                                 const MPI_Count array_of_displacements[],
                                 MPI_Datatype oldtype,
                                 MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_indexed_c(MPI_Count count,
                                  const MPI_Count array_of_blocklengths[],
                                  const MPI_Count array_of_displacements[],
                                  MPI_Datatype oldtype,
                                  MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_set_name(MPI_Datatype datatype,
                                const char* type_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_set_name(MPI_Datatype datatype,
                                 const char* type_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_size(MPI_Datatype datatype, int* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_size(MPI_Datatype datatype, int* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_size_c(MPI_Datatype datatype,
                              MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_size_c(MPI_Datatype datatype,
                               MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_size_x(MPI_Datatype datatype,
                              MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_size_x(MPI_Datatype datatype,
                               MPI_Count* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_vector(int count, int blocklength, int stride,
                              MPI_Datatype oldtype,
                              MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_vector(int count, int blocklength, int stride,
                               MPI_Datatype oldtype,
                               MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
                                MPI_Count stride, MPI_Datatype oldtype,
                                MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength,
                                 MPI_Count stride, MPI_Datatype oldtype,
                                 MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Unpack(const void* inbuf, int insize, int* position,
                         void* outbuf, int outcount, MPI_Datatype datatype,
                         MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Unpack(const void* inbuf, int insize, int* position,
                          void* outbuf, int outcount, MPI_Datatype datatype,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Unpack_c(const void* inbuf, MPI_Count insize,
                           MPI_Count* position, void* outbuf,
                           MPI_Count outcount, MPI_Datatype datatype,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Unpack_c(const void* inbuf, MPI_Count insize,
                            MPI_Count* position, void* outbuf,
                            MPI_Count outcount, MPI_Datatype datatype,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Unpack_external(const char datarep[], const void* inbuf,
                                  MPI_Aint insize, MPI_Aint* position,
                                  void* outbuf, int outcount,
                                  MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Unpack_external(const char datarep[], const void* inbuf,
                                   MPI_Aint insize, MPI_Aint* position,
                                   void* outbuf, int outcount,
                                   MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Unpack_external_c(const char datarep[], const void* inbuf,
                                    MPI_Count insize, MPI_Count* position,
                                    void* outbuf, MPI_Count outcount,
                                    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Unpack_external_c(const char datarep[], const void* inbuf,
                                     MPI_Count insize, MPI_Count* position,
                                     void* outbuf, MPI_Count outcount,
                                     MPI_Datatype datatype) SHMPI_NOEXCEPT;

/* Collective communication */

SHMPI_API int MPI_Allgather(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgather(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgather_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgather_c(const void* sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgather_init(const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgather_init(const void* sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void* recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void* recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgatherv(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype,
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgatherv(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype,
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgatherv_c(const void* sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgatherv_c(const void* sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgatherv_init(const void* sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void* recvbuf,
                                  const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgatherv_init(const void* sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void* recvbuf,
                                   const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void* recvbuf,
                                    const MPI_Count recvcounts[],
                                    const MPI_Aint displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount,
                                     MPI_Datatype sendtype, void* recvbuf,
                                     const MPI_Count recvcounts[],
                                     const MPI_Aint displs[],
                                     MPI_Datatype recvtype, MPI_Comm comm,
                                     MPI_Info info,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allreduce_c(const void* sendbuf, void* recvbuf,
                              MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allreduce_c(const void* sendbuf, void* recvbuf,
                               MPI_Count count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Allreduce_init_c(const void* sendbuf, void* recvbuf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Allreduce_init_c(const void* sendbuf, void* recvbuf,
                                    MPI_Count count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoall(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoall(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoall_init(const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoall_init(const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void* recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void* recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallv(const void* sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallv_c(const void* sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype,
                               void* recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype,
                                 void* recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallv_init(const void* sendbuf, const int sendcounts[],
                                  const int sdispls[], MPI_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[],
                                  const int rdispls[], MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallv_init_c(const void* sendbuf,
                                   const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void* recvbuf,
                                   const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallv_init_c(const void* sendbuf,
                                    const MPI_Count sendcounts[],
                                    const MPI_Aint sdispls[],
                                    MPI_Datatype sendtype, void* recvbuf,
                                    const MPI_Count recvcounts[],
                                    const MPI_Aint rdispls[],
                                    MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallw(const void* sendbuf, const int sendcounts[],
                            const int sdispls[], const MPI_Datatype sendtypes[],
                            void* recvbuf, const int recvcounts[],
                            const int rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[],
                             const int sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[],
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf,
                              const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[],
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallw_c(const void* sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[],
                               const MPI_Datatype recvtypes[],
                               MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[],
                                 const int sdispls[],
                                 const MPI_Datatype sendtypes[], void* recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallw_init(const void* sendbuf, const int sendcounts[],
                                  const int sdispls[],
                                  const MPI_Datatype sendtypes[], void* recvbuf,
                                  const int recvcounts[], const int rdispls[],
                                  const MPI_Datatype recvtypes[], MPI_Comm comm,
                                  MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alltoallw_init_c(const void* sendbuf,
                                   const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[],
                                   void* recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[],
                                   const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alltoallw_init_c(const void* sendbuf,
                                    const MPI_Count sendcounts[],
                                    const MPI_Aint sdispls[],
                                    const MPI_Datatype sendtypes[],
                                    void* recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint rdispls[],
                                    const MPI_Datatype recvtypes[],
                                    MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Barrier(MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Barrier(MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Barrier_init(MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype,
                        int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype,
                         int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype,
                          int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype,
                           int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype,
                             int root, MPI_Comm comm, MPI_Info info,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype,
                              int root, MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Bcast_init_c(void* buffer, MPI_Count count,
                               MPI_Datatype datatype, int root, MPI_Comm comm,
                               MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Bcast_init_c(void* buffer, MPI_Count count,
                                MPI_Datatype datatype, int root, MPI_Comm comm,
                                MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Exscan(const void* sendbuf, void* recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Exscan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Exscan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Exscan_init(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Exscan_init(const void* sendbuf, void* recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Exscan_init_c(const void* sendbuf, void* recvbuf,
                                MPI_Count count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Exscan_init_c(const void* sendbuf, void* recvbuf,
                                 MPI_Count count, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gather(const void* sendbuf, int sendcount,
                         MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root,
                         MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gather(const void* sendbuf, int sendcount,
                          MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gather_c(const void* sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void* recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gather_c(const void* sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype,
                            int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gather_init(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gather_init(const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype,
                                int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void* recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gatherv(const void* sendbuf, int sendcount,
                          MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, int root,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gatherv(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf,
                           const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            const MPI_Count recvcounts[],
                            const MPI_Aint displs[], MPI_Datatype recvtype,
                            int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             const MPI_Count recvcounts[],
                             const MPI_Aint displs[], MPI_Datatype recvtype,
                             int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gatherv_init(const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gatherv_init(const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void* recvbuf,
                                 const MPI_Count recvcounts[],
                                 const MPI_Aint displs[], MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void* recvbuf,
                                  const MPI_Count recvcounts[],
                                  const MPI_Aint displs[],
                                  MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iallgather(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iallgather(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iallgather_c(const void* sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iallgather_c(const void* sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iallgatherv(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iallgatherv(const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iallgatherv_c(const void* sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iallgatherv_c(const void* sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void* recvbuf,
                                 const MPI_Count recvcounts[],
                                 const MPI_Aint displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iallreduce_c(const void* sendbuf, void* recvbuf,
                               MPI_Count count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iallreduce_c(const void* sendbuf, void* recvbuf,
                                MPI_Count count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ialltoall(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ialltoall(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ialltoallv_c(const void* sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype,
                               void* recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype,
                               MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ialltoallv_c(const void* sendbuf,
                                const MPI_Count sendcounts[],
                                const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                void* recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[],
                             const int sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[],
                              const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ialltoallw_c(const void* sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf,
                               const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ialltoallw_c(const void* sendbuf,
                                const MPI_Count sendcounts[],
                                const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void* recvbuf,
                                const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype,
                         int root, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype,
                          int root, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ibcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype,
                           int root, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ibcast_c(void* buffer, MPI_Count count,
                            MPI_Datatype datatype, int root, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iexscan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iexscan_c(const void* sendbuf, void* recvbuf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Igather(const void* sendbuf, int sendcount,
                          MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Igather(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Igather_c(const void* sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype,
                            int root, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Igather_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             int root, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Igatherv(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf,
                           const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Igatherv(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             const MPI_Count recvcounts[],
                             const MPI_Aint displs[], MPI_Datatype recvtype,
                             int root, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              const MPI_Count recvcounts[],
                              const MPI_Aint displs[], MPI_Datatype recvtype,
                              int root, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, int root,
                          MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ireduce_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ireduce_c(const void* sendbuf, void* recvbuf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             int root, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf,
                                  const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf,
                                   const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf,
                                        int recvcount, MPI_Datatype datatype,
                                        MPI_Op op, MPI_Comm comm,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ireduce_scatter_block(
    const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
    MPI_Op op, MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ireduce_scatter_block_c(
    const void* sendbuf, void* recvbuf, MPI_Count recvcount,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ireduce_scatter_block_c(
    const void* sendbuf, void* recvbuf, MPI_Count recvcount,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ireduce_scatter_c(const void* sendbuf, void* recvbuf,
                                    const MPI_Count recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ireduce_scatter_c(const void* sendbuf, void* recvbuf,
                                     const MPI_Count recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op,
                                     MPI_Comm comm,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iscan(const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iscan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iscan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iscatter(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iscatter(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             int root, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iscatterv(const void* sendbuf, const int sendcounts[],
                            const int displs[], MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype,
                            int root, MPI_Comm comm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[],
                             const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint displs[], MPI_Datatype sendtype,
                              void* recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Iscatterv_c(const void* sendbuf,
                               const MPI_Count sendcounts[],
                               const MPI_Aint displs[], MPI_Datatype sendtype,
                               void* recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Op_commutative(MPI_Op op, int* commute) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Op_commutative(MPI_Op op, int* commute) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Op_create(MPI_User_function* user_fn, int commute,
                            MPI_Op* op) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Op_create(MPI_User_function* user_fn, int commute,
                             MPI_Op* op) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Op_create_c(MPI_User_function_c* user_fn, int commute,
                              MPI_Op* op) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Op_create_c(MPI_User_function_c* user_fn, int commute,
                               MPI_Op* op) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Op_free(MPI_Op* op) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Op_free(MPI_Op* op) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce(const void* sendbuf, void* recvbuf, int count,
                         MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, int root,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_init(const void* sendbuf, void* recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, int root,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_init_c(const void* sendbuf, void* recvbuf,
                                MPI_Count count, MPI_Datatype datatype,
                                MPI_Op op, int root, MPI_Comm comm,
                                MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_init_c(const void* sendbuf, void* recvbuf,
                                 MPI_Count count, MPI_Datatype datatype,
                                 MPI_Op op, int root, MPI_Comm comm,
                                 MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count,
                               MPI_Datatype datatype, MPI_Op op) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count,
                                MPI_Datatype datatype,
                                MPI_Op op) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_local_c(const void* inbuf, void* inoutbuf,
                                 MPI_Count count, MPI_Datatype datatype,
                                 MPI_Op op) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_local_c(const void* inbuf, void* inoutbuf,
                                  MPI_Count count, MPI_Datatype datatype,
                                  MPI_Op op) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf,
                                 const int recvcounts[], MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf,
                                  const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf,
                                       int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf,
                                        int recvcount, MPI_Datatype datatype,
                                        MPI_Op op,
                                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_block_c(
    const void* sendbuf, void* recvbuf, MPI_Count recvcount,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_block_c(
    const void* sendbuf, void* recvbuf, MPI_Count recvcount,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_block_init(
    const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
    MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_block_init(
    const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
    MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_block_init_c(
    const void* sendbuf, void* recvbuf, MPI_Count recvcount,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_block_init_c(
    const void* sendbuf, void* recvbuf, MPI_Count recvcount,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_c(const void* sendbuf, void* recvbuf,
                                   const MPI_Count recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_c(const void* sendbuf, void* recvbuf,
                                    const MPI_Count recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op,
                                    MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf,
                                      const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm, MPI_Info info,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf,
                                       const int recvcounts[],
                                       MPI_Datatype datatype, MPI_Op op,
                                       MPI_Comm comm, MPI_Info info,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Reduce_scatter_init_c(const void* sendbuf, void* recvbuf,
                                        const MPI_Count recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op,
                                        MPI_Comm comm, MPI_Info info,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Reduce_scatter_init_c(
    const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scan(const void* sendbuf, void* recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scan(const void* sendbuf, void* recvbuf, int count,
                        MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scan_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scan_init(const void* sendbuf, void* recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scan_init(const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Info info,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scan_init_c(const void* sendbuf, void* recvbuf,
                              MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scan_init_c(const void* sendbuf, void* recvbuf,
                               MPI_Count count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatter(const void* sendbuf, int sendcount,
                          MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root,
                          MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatter(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root,
                           MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatter_c(const void* sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype,
                            int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatter_c(const void* sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype,
                             int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatter_init(const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatter_init(const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root,
                                MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void* recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void* recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatterv(const void* sendbuf, const int sendcounts[],
                           const int displs[], MPI_Datatype sendtype,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype,
                           int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatterv(const void* sendbuf, const int sendcounts[],
                            const int displs[], MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype,
                            int root, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint displs[], MPI_Datatype sendtype,
                             void* recvbuf, MPI_Count recvcount,
                             MPI_Datatype recvtype, int root,
                             MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint displs[], MPI_Datatype sendtype,
                              void* recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, int root,
                              MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[],
                                const int displs[], MPI_Datatype sendtype,
                                void* recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Info info,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatterv_init(const void* sendbuf, const int sendcounts[],
                                 const int displs[], MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount,
                                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 MPI_Info info,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Scatterv_init_c(const void* sendbuf,
                                  const MPI_Count sendcounts[],
                                  const MPI_Aint displs[],
                                  MPI_Datatype sendtype, void* recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Scatterv_init_c(const void* sendbuf,
                                   const MPI_Count sendcounts[],
                                   const MPI_Aint displs[],
                                   MPI_Datatype sendtype, void* recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype,
                                   int root, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request) SHMPI_NOEXCEPT;

/* Groups, contexts, communicators and caching */

SHMPI_API int MPI_Attr_delete(MPI_Comm comm, int keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Attr_delete(MPI_Comm comm, int keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val,
                           int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val,
                            int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Attr_put(MPI_Comm comm, int keyval,
                           void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Attr_put(MPI_Comm comm, int keyval,
                            void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2,
                               int* result) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2,
                                int* result) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_create(MPI_Comm comm, MPI_Group group,
                              MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_create(MPI_Comm comm, MPI_Group group,
                               MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                                    MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                                     MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                                     MPI_Comm_delete_attr_function* comm_delete_attr_fn,
                                     int* comm_keyval,
                                     void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                                      MPI_Comm_delete_attr_function* comm_delete_attr_fn,
                                      int* comm_keyval,
                                      void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_delete_attr(MPI_Comm comm,
                                   int comm_keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_delete_attr(MPI_Comm comm,
                                    int comm_keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info,
                                     MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info,
                                      MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_free(MPI_Comm* comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_free(MPI_Comm* comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_free_keyval(int* comm_keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_free_keyval(int* comm_keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval,
                                void* attribute_val, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval,
                                 void* attribute_val, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_get_info(MPI_Comm comm,
                                MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_get_info(MPI_Comm comm,
                                 MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_get_name(MPI_Comm comm, char* comm_name,
                                int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name,
                                 int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm,
                            MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info,
                                      MPI_Comm* newcomm,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info,
                                       MPI_Comm* newcomm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_rank(MPI_Comm comm, int* rank) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_rank(MPI_Comm comm, int* rank) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_remote_group(MPI_Comm comm,
                                    MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_remote_group(MPI_Comm comm,
                                     MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_remote_size(MPI_Comm comm, int* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_remote_size(MPI_Comm comm, int* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval,
                                void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval,
                                 void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_set_name(MPI_Comm comm,
                                const char* comm_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_set_name(MPI_Comm comm,
                                 const char* comm_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_size(MPI_Comm comm, int* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_size(MPI_Comm comm, int* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_split(MPI_Comm comm, int color, int key,
                             MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_split(MPI_Comm comm, int color, int key,
                              MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                                  MPI_Info info,
                                  MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                                   MPI_Info info,
                                   MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_test_inter(MPI_Comm comm, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_compare(MPI_Group group1, MPI_Group group2,
                                int* result) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_compare(MPI_Group group1, MPI_Group group2,
                                 int* result) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_difference(MPI_Group group1, MPI_Group group2,
                                   MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_difference(MPI_Group group1, MPI_Group group2,
                                    MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
                             MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_excl(MPI_Group group, int n, const int ranks[],
                              MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_free(MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_free(MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
                             MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_incl(MPI_Group group, int n, const int ranks[],
                              MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                                     MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                                      MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                                   MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                                    MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                                   MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                                    MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_rank(MPI_Group group, int* rank) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_rank(MPI_Group group, int* rank) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_size(MPI_Group group, int* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_size(MPI_Group group, int* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_translate_ranks(MPI_Group group1, int n,
                                        const int ranks1[], MPI_Group group2,
                                        int ranks2[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_translate_ranks(
    MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
    int ranks2[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_union(MPI_Group group1, MPI_Group group2,
                              MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_union(MPI_Group group1, MPI_Group group2,
                               MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                                   MPI_Comm peer_comm, int remote_leader,
                                   int tag,
                                   MPI_Comm* newintercomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                                    MPI_Comm peer_comm, int remote_leader,
                                    int tag,
                                    MPI_Comm* newintercomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Intercomm_create_from_groups(
    MPI_Group local_group, int local_leader, MPI_Group remote_group,
    int remote_leader, const char* stringtag, MPI_Info info,
    MPI_Errhandler errhandler, MPI_Comm* newintercomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Intercomm_create_from_groups(
    MPI_Group local_group, int local_leader, MPI_Group remote_group,
    int remote_leader, const char* stringtag, MPI_Info info,
    MPI_Errhandler errhandler, MPI_Comm* newintercomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Intercomm_merge(MPI_Comm intercomm, int high,
                                  MPI_Comm* newintracomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Intercomm_merge(MPI_Comm intercomm, int high,
                                   MPI_Comm* newintracomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Keyval_create(MPI_Copy_function* copy_fn,
                                MPI_Delete_function* delete_fn, int* keyval,
                                void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Keyval_create(MPI_Copy_function* copy_fn,
                                 MPI_Delete_function* delete_fn, int* keyval,
                                 void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Keyval_free(int* keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Keyval_free(int* keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                                     MPI_Type_delete_attr_function* type_delete_attr_fn,
                                     int* type_keyval,
                                     void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                                      MPI_Type_delete_attr_function* type_delete_attr_fn,
                                      int* type_keyval,
                                      void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_delete_attr(MPI_Datatype datatype,
                                   int type_keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_delete_attr(MPI_Datatype datatype,
                                    int type_keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_free_keyval(int* type_keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_free_keyval(int* type_keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                                void* attribute_val, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                                 void* attribute_val, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                                void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                                 void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                                    MPI_Win_delete_attr_function* win_delete_attr_fn,
                                    int* win_keyval,
                                    void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                                     MPI_Win_delete_attr_function* win_delete_attr_fn,
                                     int* win_keyval,
                                     void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_delete_attr(MPI_Win win, int win_keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_free_keyval(int* win_keyval) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_free_keyval(int* win_keyval) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val,
                               int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_get_attr(MPI_Win win, int win_keyval,
                                void* attribute_val, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_set_attr(MPI_Win win, int win_keyval,
                               void* attribute_val) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_set_attr(MPI_Win win, int win_keyval,
                                void* attribute_val) SHMPI_NOEXCEPT;

/* Virtual topologies and neighborhood collectives */

SHMPI_API int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims,
                              int coords[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims,
                               int coords[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                              const int periods[], int reorder,
                              MPI_Comm* comm_cart) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                               const int periods[], int reorder,
                               MPI_Comm* comm_cart) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[],
                           int periods[], int coords[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[],
                            int periods[], int coords[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                           const int periods[], int* newrank) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                            const int periods[], int* newrank) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cart_rank(MPI_Comm comm, const int coords[],
                            int* rank) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_rank(MPI_Comm comm, const int coords[],
                             int* rank) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cart_shift(MPI_Comm comm, int direction, int disp,
                             int* rank_source, int* rank_dest) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp,
                              int* rank_source, int* rank_dest) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[],
                           MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[],
                            MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Cartdim_get(MPI_Comm comm, int* ndims) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Dims_create(int nnodes, int ndims, int dims[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Dims_create(int nnodes, int ndims,
                               int dims[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Dist_graph_create(MPI_Comm comm_old, int n,
                                    const int sources[], const int degrees[],
                                    const int destinations[],
                                    const int* weights, MPI_Info info,
                                    int reorder,
                                    MPI_Comm* comm_dist_graph) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Dist_graph_create(MPI_Comm comm_old, int n,
                                     const int sources[], const int degrees[],
                                     const int destinations[],
                                     const int* weights, MPI_Info info,
                                     int reorder,
                                     MPI_Comm* comm_dist_graph) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Dist_graph_create_adjacent(
    MPI_Comm comm_old, int indegree, const int sources[],
    const int* sourceweights, int outdegree, const int destinations[],
    const int* destweights, MPI_Info info, int reorder,
    MPI_Comm* comm_dist_graph) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Dist_graph_create_adjacent(
    MPI_Comm comm_old, int indegree, const int sources[],
    const int* sourceweights, int outdegree, const int destinations[],
    const int* destweights, MPI_Info info, int reorder,
    MPI_Comm* comm_dist_graph) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree,
                                       int sources[], int* sourceweights,
                                       int maxoutdegree, int destinations[],
                                       int* destweights) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree,
                                        int sources[], int* sourceweights,
                                        int maxoutdegree, int destinations[],
                                        int* destweights) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Dist_graph_neighbors_count(
    MPI_Comm comm, int* indegree, int* outdegree, int* weighted) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Dist_graph_neighbors_count(
    MPI_Comm comm, int* indegree, int* outdegree, int* weighted) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[],
                               const int edges[], int reorder,
                               MPI_Comm* comm_graph) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[],
                                const int edges[], int reorder,
                                MPI_Comm* comm_graph) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges,
                            int indx[], int edges[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges,
                             int indx[], int edges[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Graph_map(MPI_Comm comm, int nnodes, const int indx[],
                            const int edges[], int* newrank) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int indx[],
                             const int edges[], int* newrank) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                                  int neighbors[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                                   int neighbors[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Graph_neighbors_count(MPI_Comm comm, int rank,
                                        int* nneighbors) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Graph_neighbors_count(
    MPI_Comm comm, int rank, int* nneighbors) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Graphdims_get(MPI_Comm comm, int* nnodes,
                                int* nedges) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes,
                                 int* nedges) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void* recvbuf,
                                       int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_allgather_c(const void* sendbuf,
                                        MPI_Count sendcount,
                                        MPI_Datatype sendtype, void* recvbuf,
                                        MPI_Count recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_allgather_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void* recvbuf,
                                       const int recvcounts[],
                                       const int displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void* recvbuf,
                                        const int recvcounts[],
                                        const int displs[],
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_allgatherv_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_allgatherv_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void* recvbuf,
                                     int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void* recvbuf,
                                       MPI_Count recvcount,
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_alltoall_c(const void* sendbuf,
                                        MPI_Count sendcount,
                                        MPI_Datatype sendtype, void* recvbuf,
                                        MPI_Count recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_alltoallv(const void* sendbuf,
                                      const int sendcounts[],
                                      const int sdispls[],
                                      MPI_Datatype sendtype, void* recvbuf,
                                      const int recvcounts[],
                                      const int rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_alltoallv(const void* sendbuf,
                                       const int sendcounts[],
                                       const int sdispls[],
                                       MPI_Datatype sendtype, void* recvbuf,
                                       const int recvcounts[],
                                       const int rdispls[],
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_alltoallv_c(const void* sendbuf,
                                        const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[],
                                        MPI_Datatype sendtype, void* recvbuf,
                                        const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[],
                                        MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_alltoallv_c(
    const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_alltoallw(const void* sendbuf,
                                      const int sendcounts[],
                                      const MPI_Aint sdispls[],
                                      const MPI_Datatype sendtypes[],
                                      void* recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[],
                                      const MPI_Datatype recvtypes[],
                                      MPI_Comm comm,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_alltoallw(const void* sendbuf,
                                       const int sendcounts[],
                                       const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[],
                                       void* recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[],
                                       const MPI_Datatype recvtypes[],
                                       MPI_Comm comm,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Ineighbor_alltoallw_c(const void* sendbuf,
                                        const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[],
                                        void* recvbuf,
                                        const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[],
                                        const MPI_Datatype recvtypes[],
                                        MPI_Comm comm,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Ineighbor_alltoallw_c(
    const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgather(const void* sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void* recvbuf,
                                     int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgather_c(const void* sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void* recvbuf,
                                       MPI_Count recvcount,
                                       MPI_Datatype recvtype,
                                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgather_c(const void* sendbuf,
                                        MPI_Count sendcount,
                                        MPI_Datatype sendtype, void* recvbuf,
                                        MPI_Count recvcount,
                                        MPI_Datatype recvtype,
                                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgather_init(
    const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgather_init(
    const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgather_init_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgather_init_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount,
                                      MPI_Datatype sendtype, void* recvbuf,
                                      const int recvcounts[],
                                      const int displs[], MPI_Datatype recvtype,
                                      MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount,
                                       MPI_Datatype sendtype, void* recvbuf,
                                       const int recvcounts[],
                                       const int displs[],
                                       MPI_Datatype recvtype,
                                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgatherv_c(const void* sendbuf,
                                        MPI_Count sendcount,
                                        MPI_Datatype sendtype, void* recvbuf,
                                        const MPI_Count recvcounts[],
                                        const MPI_Aint displs[],
                                        MPI_Datatype recvtype,
                                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgatherv_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgatherv_init(
    const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgatherv_init(
    const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_allgatherv_init_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_allgatherv_init_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void* recvbuf,
                                    int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void* recvbuf,
                                     int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount,
                                      MPI_Datatype sendtype, void* recvbuf,
                                      MPI_Count recvcount,
                                      MPI_Datatype recvtype,
                                      MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount,
                                       MPI_Datatype sendtype, void* recvbuf,
                                       MPI_Count recvcount,
                                       MPI_Datatype recvtype,
                                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoall_init(
    const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoall_init(
    const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoall_init_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoall_init_c(
    const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallv(const void* sendbuf,
                                     const int sendcounts[],
                                     const int sdispls[], MPI_Datatype sendtype,
                                     void* recvbuf, const int recvcounts[],
                                     const int rdispls[], MPI_Datatype recvtype,
                                     MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallv(const void* sendbuf,
                                      const int sendcounts[],
                                      const int sdispls[],
                                      MPI_Datatype sendtype, void* recvbuf,
                                      const int recvcounts[],
                                      const int rdispls[],
                                      MPI_Datatype recvtype,
                                      MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallv_c(const void* sendbuf,
                                       const MPI_Count sendcounts[],
                                       const MPI_Aint sdispls[],
                                       MPI_Datatype sendtype, void* recvbuf,
                                       const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[],
                                       MPI_Datatype recvtype,
                                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallv_c(const void* sendbuf,
                                        const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[],
                                        MPI_Datatype sendtype, void* recvbuf,
                                        const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[],
                                        MPI_Datatype recvtype,
                                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallv_init(
    const void* sendbuf, const int sendcounts[], const int sdispls[],
    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallv_init(
    const void* sendbuf, const int sendcounts[], const int sdispls[],
    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallv_init_c(
    const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallv_init_c(
    const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallw(const void* sendbuf,
                                     const int sendcounts[],
                                     const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[],
                                     void* recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[],
                                     const MPI_Datatype recvtypes[],
                                     MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallw(const void* sendbuf,
                                      const int sendcounts[],
                                      const MPI_Aint sdispls[],
                                      const MPI_Datatype sendtypes[],
                                      void* recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[],
                                      const MPI_Datatype recvtypes[],
                                      MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallw_c(const void* sendbuf,
                                       const MPI_Count sendcounts[],
                                       const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[],
                                       void* recvbuf,
                                       const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[],
                                       const MPI_Datatype recvtypes[],
                                       MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallw_c(const void* sendbuf,
                                        const MPI_Count sendcounts[],
                                        const MPI_Aint sdispls[],
                                        const MPI_Datatype sendtypes[],
                                        void* recvbuf,
                                        const MPI_Count recvcounts[],
                                        const MPI_Aint rdispls[],
                                        const MPI_Datatype recvtypes[],
                                        MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallw_init(
    const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallw_init(
    const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Neighbor_alltoallw_init_c(
    const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Neighbor_alltoallw_init_c(
    const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
    const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
    MPI_Info info, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Topo_test(MPI_Comm comm, int* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Topo_test(MPI_Comm comm, int* status) SHMPI_NOEXCEPT;

/* Environmental management: versions, memory, error handling, timers */

SHMPI_API int MPI_Add_error_class(int* errorclass) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Add_error_class(int* errorclass) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Add_error_code(int errorclass, int* errorcode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Add_error_code(int errorclass,
                                  int* errorcode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Add_error_string(int errorcode,
                                   const char* string) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Add_error_string(int errorcode,
                                    const char* string) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Alloc_mem(MPI_Aint size, MPI_Info info,
                            void* baseptr) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info,
                             void* baseptr) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_call_errhandler(MPI_Comm comm,
                                       int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_call_errhandler(MPI_Comm comm,
                                        int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_create_errhandler(
    MPI_Comm_errhandler_function* comm_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_create_errhandler(
    MPI_Comm_errhandler_function* comm_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_get_errhandler(MPI_Comm comm,
                                      MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_get_errhandler(MPI_Comm comm,
                                       MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_set_errhandler(MPI_Comm comm,
                                      MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_set_errhandler(MPI_Comm comm,
                                       MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Errhandler_free(MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Errhandler_free(MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Error_class(int errorcode, int* errorclass) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Error_class(int errorcode, int* errorclass) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Error_string(int errorcode, char* string,
                               int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Error_string(int errorcode, char* string,
                                int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_call_errhandler(MPI_File fh,
                                       int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_call_errhandler(MPI_File fh,
                                        int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_create_errhandler(
    MPI_File_errhandler_function* file_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_create_errhandler(
    MPI_File_errhandler_function* file_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_errhandler(MPI_File file,
                                      MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_errhandler(MPI_File file,
                                       MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_set_errhandler(MPI_File file,
                                      MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_set_errhandler(MPI_File file,
                                       MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Free_mem(void* base) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Free_mem(void* base) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_library_version(char* version,
                                      int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_library_version(char* version,
                                       int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_processor_name(char* name, int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_processor_name(char* name,
                                      int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_version(int* version, int* subversion) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_version(int* version, int* subversion) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_call_errhandler(
    MPI_Session session, int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_call_errhandler(
    MPI_Session session, int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_create_errhandler(
    MPI_Session_errhandler_function* session_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_create_errhandler(
    MPI_Session_errhandler_function* session_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_get_errhandler(
    MPI_Session session, MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_get_errhandler(
    MPI_Session session, MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_set_errhandler(
    MPI_Session session, MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_set_errhandler(
    MPI_Session session, MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_call_errhandler(MPI_Win win,
                                      int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_call_errhandler(MPI_Win win,
                                       int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_create_errhandler(MPI_Win_errhandler_function* win_errhandler_fn,
                                        MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_create_errhandler(
    MPI_Win_errhandler_function* win_errhandler_fn,
    MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_get_errhandler(MPI_Win win,
                                     MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_get_errhandler(MPI_Win win,
                                      MPI_Errhandler* errhandler) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_set_errhandler(MPI_Win win,
                                     MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_set_errhandler(MPI_Win win,
                                      MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API double MPI_Wtick(void) SHMPI_NOEXCEPT;
SHMPI_API double PMPI_Wtick(void) SHMPI_NOEXCEPT;
SHMPI_API double MPI_Wtime(void) SHMPI_NOEXCEPT;
SHMPI_API double PMPI_Wtime(void) SHMPI_NOEXCEPT;

/* The info object */

SHMPI_API int MPI_Info_create(MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_create(MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_create_env(int argc, char* argv[],
                                  MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_create_env(int argc, char* argv[],
                                   MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_delete(MPI_Info info, const char* key) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_delete(MPI_Info info, const char* key) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_free(MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_free(MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_get(MPI_Info info, const char* key, int valuelen,
                           char* value, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_get(MPI_Info info, const char* key, int valuelen,
                            char* value, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_get_nthkey(MPI_Info info, int n,
                                  char* key) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_get_nthkey(MPI_Info info, int n,
                                   char* key) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_get_string(MPI_Info info, const char* key, int* buflen,
                                  char* value, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen,
                                   char* value, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_get_valuelen(MPI_Info info, const char* key,
                                    int* valuelen, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_get_valuelen(MPI_Info info, const char* key,
                                     int* valuelen, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Info_set(MPI_Info info, const char* key,
                           const char* value) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Info_set(MPI_Info info, const char* key,
                            const char* value) SHMPI_NOEXCEPT;

/* Process initialization, sessions and finalization */

SHMPI_API int MPI_Abort(MPI_Comm comm, int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Abort(MPI_Comm comm, int errorcode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_create_from_group(
    MPI_Group group, const char* stringtag, MPI_Info info,
    MPI_Errhandler errhandler, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_create_from_group(
    MPI_Group group, const char* stringtag, MPI_Info info,
    MPI_Errhandler errhandler, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Finalize(void) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Finalize(void) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Finalized(int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Finalized(int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Group_from_session_pset(
    MPI_Session session, const char* pset_name,
    MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Group_from_session_pset(
    MPI_Session session, const char* pset_name,
    MPI_Group* newgroup) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Init(int* argc, char*** argv) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Init(int* argc, char*** argv) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Init_thread(int* argc, char*** argv, int required,
                              int* provided) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Init_thread(int* argc, char*** argv, int required,
                               int* provided) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Initialized(int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Initialized(int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Is_thread_main(int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Is_thread_main(int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Query_thread(int* provided) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Query_thread(int* provided) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_finalize(MPI_Session* session) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_finalize(MPI_Session* session) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_get_info(MPI_Session session,
                                   MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_get_info(MPI_Session session,
                                    MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info,
                                       int n, int* pset_len,
                                       char* pset_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info,
                                        int n, int* pset_len,
                                        char* pset_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
                                        int* npset_names) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_get_num_psets(
    MPI_Session session, MPI_Info info, int* npset_names) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_get_pset_info(MPI_Session session,
                                        const char* pset_name,
                                        MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_get_pset_info(
    MPI_Session session, const char* pset_name, MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                               MPI_Session* session) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Session* session) SHMPI_NOEXCEPT;

/* Process creation and management */

SHMPI_API int MPI_Close_port(const char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Close_port(const char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_accept(const char* port_name, MPI_Info info, int root,
                              MPI_Comm comm, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_accept(const char* port_name, MPI_Info info, int root,
                               MPI_Comm comm, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_connect(const char* port_name, MPI_Info info, int root,
                               MPI_Comm comm, MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_connect(const char* port_name, MPI_Info info, int root,
                                MPI_Comm comm,
                                MPI_Comm* newcomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_disconnect(MPI_Comm* comm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_disconnect(MPI_Comm* comm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_get_parent(MPI_Comm* parent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_get_parent(MPI_Comm* parent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_join(int fd, MPI_Comm* intercomm) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_join(int fd, MPI_Comm* intercomm) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs,
                             MPI_Info info, int root, MPI_Comm comm,
                             MPI_Comm* intercomm,
                             int array_of_errcodes[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_spawn(const char* command, char* argv[], int maxprocs,
                              MPI_Info info, int root, MPI_Comm comm,
                              MPI_Comm* intercomm,
                              int array_of_errcodes[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Comm_spawn_multiple(int count, char* array_of_commands[],
                                      char** array_of_argv[],
                                      const int array_of_maxprocs[],
                                      const MPI_Info array_of_info[], int root,
                                      MPI_Comm comm, MPI_Comm* intercomm,
                                      int array_of_errcodes[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Comm_spawn_multiple(int count, char* array_of_commands[],
                                       char** array_of_argv[],
                                       const int array_of_maxprocs[],
                                       const MPI_Info array_of_info[], int root,
                                       MPI_Comm comm, MPI_Comm* intercomm,
                                       int array_of_errcodes[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Lookup_name(const char* service_name, MPI_Info info,
                              char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Lookup_name(const char* service_name, MPI_Info info,
                               char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Open_port(MPI_Info info, char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Open_port(MPI_Info info, char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Publish_name(const char* service_name, MPI_Info info,
                               const char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Publish_name(const char* service_name, MPI_Info info,
                                const char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Unpublish_name(const char* service_name, MPI_Info info,
                                 const char* port_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Unpublish_name(const char* service_name, MPI_Info info,
                                  const char* port_name) SHMPI_NOEXCEPT;

/* One-sided communication */

SHMPI_API int MPI_Accumulate(const void* origin_addr, int origin_count,
                             MPI_Datatype origin_datatype, int target_rank,
                             MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_datatype, MPI_Op op,
                             MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Accumulate(const void* origin_addr, int origin_count,
                              MPI_Datatype origin_datatype, int target_rank,
                              MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_datatype, MPI_Op op,
                              MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Accumulate_c(const void* origin_addr, MPI_Count origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, MPI_Count target_count,
                               MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Accumulate_c(const void* origin_addr, MPI_Count origin_count,
                                MPI_Datatype origin_datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Count target_count,
                                MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Compare_and_swap(const void* origin_addr,
                                   const void* compare_addr, void* result_addr,
                                   MPI_Datatype datatype, int target_rank,
                                   MPI_Aint target_disp,
                                   MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Compare_and_swap(const void* origin_addr,
                                    const void* compare_addr, void* result_addr,
                                    MPI_Datatype datatype, int target_rank,
                                    MPI_Aint target_disp,
                                    MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Fetch_and_op(const void* origin_addr, void* result_addr,
                               MPI_Datatype datatype, int target_rank,
                               MPI_Aint target_disp, MPI_Op op,
                               MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Fetch_and_op(const void* origin_addr, void* result_addr,
                                MPI_Datatype datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Op op,
                                MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get(void* origin_addr, int origin_count,
                      MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get(void* origin_addr, int origin_count,
                       MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype,
                       MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_accumulate(const void* origin_addr, int origin_count,
                                 MPI_Datatype origin_datatype,
                                 void* result_addr, int result_count,
                                 MPI_Datatype result_datatype, int target_rank,
                                 MPI_Aint target_disp, int target_count,
                                 MPI_Datatype target_datatype, MPI_Op op,
                                 MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_accumulate(const void* origin_addr, int origin_count,
                                  MPI_Datatype origin_datatype,
                                  void* result_addr, int result_count,
                                  MPI_Datatype result_datatype, int target_rank,
                                  MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_datatype, MPI_Op op,
                                  MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_accumulate_c(const void* origin_addr,
                                   MPI_Count origin_count,
                                   MPI_Datatype origin_datatype,
                                   void* result_addr, MPI_Count result_count,
                                   MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp,
                                   MPI_Count target_count,
                                   MPI_Datatype target_datatype, MPI_Op op,
                                   MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_accumulate_c(const void* origin_addr,
                                    MPI_Count origin_count,
                                    MPI_Datatype origin_datatype,
                                    void* result_addr, MPI_Count result_count,
                                    MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp,
                                    MPI_Count target_count,
                                    MPI_Datatype target_datatype, MPI_Op op,
                                    MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Get_c(void* origin_addr, MPI_Count origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Count target_count,
                        MPI_Datatype target_datatype,
                        MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Get_c(void* origin_addr, MPI_Count origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, MPI_Count target_count,
                         MPI_Datatype target_datatype,
                         MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Put(const void* origin_addr, int origin_count,
                      MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_datatype, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Put(const void* origin_addr, int origin_count,
                       MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype,
                       MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Put_c(const void* origin_addr, MPI_Count origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Count target_count,
                        MPI_Datatype target_datatype,
                        MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Put_c(const void* origin_addr, MPI_Count origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, MPI_Count target_count,
                         MPI_Datatype target_datatype,
                         MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Raccumulate(const void* origin_addr, int origin_count,
                              MPI_Datatype origin_datatype, int target_rank,
                              MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_datatype, MPI_Op op,
                              MPI_Win win, MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Raccumulate(const void* origin_addr, int origin_count,
                               MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Raccumulate_c(const void* origin_addr, MPI_Count origin_count,
                                MPI_Datatype origin_datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Count target_count,
                                MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Raccumulate_c(const void* origin_addr,
                                 MPI_Count origin_count,
                                 MPI_Datatype origin_datatype, int target_rank,
                                 MPI_Aint target_disp, MPI_Count target_count,
                                 MPI_Datatype target_datatype, MPI_Op op,
                                 MPI_Win win,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rget(void* origin_addr, int origin_count,
                       MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Win win,
                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rget(void* origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win,
                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rget_accumulate(const void* origin_addr, int origin_count,
                                  MPI_Datatype origin_datatype,
                                  void* result_addr, int result_count,
                                  MPI_Datatype result_datatype, int target_rank,
                                  MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_datatype, MPI_Op op,
                                  MPI_Win win,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rget_accumulate(const void* origin_addr, int origin_count,
                                   MPI_Datatype origin_datatype,
                                   void* result_addr, int result_count,
                                   MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp,
                                   int target_count,
                                   MPI_Datatype target_datatype, MPI_Op op,
                                   MPI_Win win,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rget_accumulate_c(const void* origin_addr,
                                    MPI_Count origin_count,
                                    MPI_Datatype origin_datatype,
                                    void* result_addr, MPI_Count result_count,
                                    MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp,
                                    MPI_Count target_count,
                                    MPI_Datatype target_datatype, MPI_Op op,
                                    MPI_Win win,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rget_accumulate_c(const void* origin_addr,
                                     MPI_Count origin_count,
                                     MPI_Datatype origin_datatype,
                                     void* result_addr, MPI_Count result_count,
                                     MPI_Datatype result_datatype,
                                     int target_rank, MPI_Aint target_disp,
                                     MPI_Count target_count,
                                     MPI_Datatype target_datatype, MPI_Op op,
                                     MPI_Win win,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rget_c(void* origin_addr, MPI_Count origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, MPI_Count target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rget_c(void* origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Win win,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rput(const void* origin_addr, int origin_count,
                       MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Win win,
                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rput(const void* origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Win win,
                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Rput_c(const void* origin_addr, MPI_Count origin_count,
                         MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, MPI_Count target_count,
                         MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Rput_c(const void* origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Win win,
                          MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                               MPI_Comm comm, void* baseptr,
                               MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                                MPI_Comm comm, void* baseptr,
                                MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit,
                                 MPI_Info info, MPI_Comm comm, void* baseptr,
                                 MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit,
                                  MPI_Info info, MPI_Comm comm, void* baseptr,
                                  MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit,
                                      MPI_Info info, MPI_Comm comm,
                                      void* baseptr,
                                      MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit,
                                       MPI_Info info, MPI_Comm comm,
                                       void* baseptr,
                                       MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
                                        MPI_Info info, MPI_Comm comm,
                                        void* baseptr,
                                        MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_allocate_shared_c(
    MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
    void* baseptr, MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_attach(MPI_Win win, void* base,
                             MPI_Aint size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_attach(MPI_Win win, void* base,
                              MPI_Aint size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_complete(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_complete(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_create(void* base, MPI_Aint size, int disp_unit,
                             MPI_Info info, MPI_Comm comm,
                             MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit,
                              MPI_Info info, MPI_Comm comm,
                              MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit,
                               MPI_Info info, MPI_Comm comm,
                               MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit,
                                MPI_Info info, MPI_Comm comm,
                                MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm,
                                     MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm,
                                      MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_detach(MPI_Win win, const void* base) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_detach(MPI_Win win, const void* base) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_fence(int assert, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_fence(int assert, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_flush(int rank, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_flush(int rank, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_flush_all(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_flush_all(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_flush_local(int rank, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_flush_local(int rank, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_flush_local_all(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_flush_local_all(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_free(MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_free(MPI_Win* win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_get_group(MPI_Win win, MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_get_info(MPI_Win win,
                                MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_get_name(MPI_Win win, char* win_name,
                               int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_get_name(MPI_Win win, char* win_name,
                                int* resultlen) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_lock(int lock_type, int rank, int assert,
                           MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_lock(int lock_type, int rank, int assert,
                            MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_lock_all(int assert, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_lock_all(int assert, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_post(MPI_Group group, int assert,
                           MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_post(MPI_Group group, int assert,
                            MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_set_info(MPI_Win win, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_set_info(MPI_Win win, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_set_name(MPI_Win win,
                               const char* win_name) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_set_name(MPI_Win win,
                                const char* win_name) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size,
                                   int* disp_unit,
                                   void* baseptr) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size,
                                    int* disp_unit,
                                    void* baseptr) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size,
                                     MPI_Aint* disp_unit,
                                     void* baseptr) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size,
                                      MPI_Aint* disp_unit,
                                      void* baseptr) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_start(MPI_Group group, int assert,
                            MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_start(MPI_Group group, int assert,
                             MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_sync(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_sync(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_test(MPI_Win win, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_test(MPI_Win win, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_unlock(int rank, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_unlock(int rank, MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_unlock_all(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_unlock_all(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Win_wait(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Win_wait(MPI_Win win) SHMPI_NOEXCEPT;

/* External interfaces */

SHMPI_API int MPI_Grequest_complete(MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Grequest_complete(MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Grequest_start(MPI_Grequest_query_function* query_fn,
                                 MPI_Grequest_free_function* free_fn,
                                 MPI_Grequest_cancel_function* cancel_fn,
                                 void* extra_state,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn,
                                  MPI_Grequest_free_function* free_fn,
                                  MPI_Grequest_cancel_function* cancel_fn,
                                  void* extra_state,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_set_cancelled(MPI_Status* status,
                                       int flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_set_cancelled(MPI_Status* status,
                                        int flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype,
                                      int count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_set_elements(MPI_Status* status,
                                       MPI_Datatype datatype,
                                       int count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_set_elements_c(MPI_Status* status,
                                        MPI_Datatype datatype,
                                        MPI_Count count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_set_elements_c(
    MPI_Status* status, MPI_Datatype datatype, MPI_Count count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_set_elements_x(MPI_Status* status,
                                        MPI_Datatype datatype,
                                        MPI_Count count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_set_elements_x(
    MPI_Status* status, MPI_Datatype datatype, MPI_Count count) SHMPI_NOEXCEPT;

/* I/O */

SHMPI_API int MPI_File_close(MPI_File* fh) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_close(MPI_File* fh) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_delete(const char* filename,
                              MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_delete(const char* filename,
                               MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_amode(MPI_File fh, int* amode) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_amode(MPI_File fh, int* amode) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_atomicity(MPI_File fh, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_atomicity(MPI_File fh, int* flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                                       MPI_Offset* disp) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                                        MPI_Offset* disp) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_group(MPI_File fh, MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_group(MPI_File fh, MPI_Group* group) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_info(MPI_File fh,
                                MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_info(MPI_File fh,
                                 MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_position(MPI_File fh,
                                    MPI_Offset* offset) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_position(MPI_File fh,
                                     MPI_Offset* offset) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_position_shared(
    MPI_File fh, MPI_Offset* offset) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_position_shared(
    MPI_File fh, MPI_Offset* offset) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_size(MPI_File fh, MPI_Offset* size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_size(MPI_File fh, MPI_Offset* size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
                                       MPI_Aint* extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
                                        MPI_Aint* extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_type_extent_c(
    MPI_File fh, MPI_Datatype datatype, MPI_Count* extent) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_type_extent_c(
    MPI_File fh, MPI_Datatype datatype, MPI_Count* extent) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_get_view(MPI_File fh, MPI_Offset* disp,
                                MPI_Datatype* etype, MPI_Datatype* filetype,
                                char* datarep) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp,
                                 MPI_Datatype* etype, MPI_Datatype* filetype,
                                 char* datarep) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread(MPI_File fh, void* buf, int count,
                             MPI_Datatype datatype,
                             MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread(MPI_File fh, void* buf, int count,
                              MPI_Datatype datatype,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_all(MPI_File fh, void* buf, int count,
                                 MPI_Datatype datatype,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_all(MPI_File fh, void* buf, int count,
                                  MPI_Datatype datatype,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_all_c(MPI_File fh, void* buf, MPI_Count count,
                                   MPI_Datatype datatype,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_all_c(MPI_File fh, void* buf, MPI_Count count,
                                    MPI_Datatype datatype,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf,
                                int count, MPI_Datatype datatype,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf,
                                 int count, MPI_Datatype datatype,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf,
                                    int count, MPI_Datatype datatype,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf,
                                     int count, MPI_Datatype datatype,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void* buf,
                                      MPI_Count count, MPI_Datatype datatype,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset,
                                       void* buf, MPI_Count count,
                                       MPI_Datatype datatype,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void* buf,
                                  MPI_Count count, MPI_Datatype datatype,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void* buf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_c(MPI_File fh, void* buf, MPI_Count count,
                               MPI_Datatype datatype,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_c(MPI_File fh, void* buf, MPI_Count count,
                                MPI_Datatype datatype,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_shared(MPI_File fh, void* buf, int count,
                                    MPI_Datatype datatype,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_shared(MPI_File fh, void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iread_shared_c(MPI_File fh, void* buf, MPI_Count count,
                                      MPI_Datatype datatype,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iread_shared_c(MPI_File fh, void* buf, MPI_Count count,
                                       MPI_Datatype datatype,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite(MPI_File fh, const void* buf, int count,
                              MPI_Datatype datatype,
                              MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite(MPI_File fh, const void* buf, int count,
                               MPI_Datatype datatype,
                               MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_all(MPI_File fh, const void* buf, int count,
                                  MPI_Datatype datatype,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_all(MPI_File fh, const void* buf, int count,
                                   MPI_Datatype datatype,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_all_c(MPI_File fh, const void* buf,
                                    MPI_Count count, MPI_Datatype datatype,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_all_c(MPI_File fh, const void* buf,
                                     MPI_Count count, MPI_Datatype datatype,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset,
                                 const void* buf, int count,
                                 MPI_Datatype datatype,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset,
                                  const void* buf, int count,
                                  MPI_Datatype datatype,
                                  MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset,
                                     const void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset,
                                      const void* buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset,
                                       const void* buf, MPI_Count count,
                                       MPI_Datatype datatype,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset,
                                        const void* buf, MPI_Count count,
                                        MPI_Datatype datatype,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset,
                                   const void* buf, MPI_Count count,
                                   MPI_Datatype datatype,
                                   MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset,
                                    const void* buf, MPI_Count count,
                                    MPI_Datatype datatype,
                                    MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_c(MPI_File fh, const void* buf, MPI_Count count,
                                MPI_Datatype datatype,
                                MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_c(MPI_File fh, const void* buf, MPI_Count count,
                                 MPI_Datatype datatype,
                                 MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_shared(MPI_File fh, const void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_shared(MPI_File fh, const void* buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_iwrite_shared_c(MPI_File fh, const void* buf,
                                       MPI_Count count, MPI_Datatype datatype,
                                       MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_iwrite_shared_c(MPI_File fh, const void* buf,
                                        MPI_Count count, MPI_Datatype datatype,
                                        MPI_Request* request) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_open(MPI_Comm comm, const char* filename, int amode,
                            MPI_Info info, MPI_File* fh) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_open(MPI_Comm comm, const char* filename, int amode,
                             MPI_Info info, MPI_File* fh) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_preallocate(MPI_File fh, MPI_Offset size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_preallocate(MPI_File fh,
                                    MPI_Offset size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read(MPI_File fh, void* buf, int count,
                            MPI_Datatype datatype,
                            MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read(MPI_File fh, void* buf, int count,
                             MPI_Datatype datatype,
                             MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_all(MPI_File fh, void* buf, int count,
                                MPI_Datatype datatype,
                                MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_all(MPI_File fh, void* buf, int count,
                                 MPI_Datatype datatype,
                                 MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_all_begin(MPI_File fh, void* buf, int count,
                                      MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_all_begin(MPI_File fh, void* buf, int count,
                                       MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_all_begin_c(MPI_File fh, void* buf, MPI_Count count,
                                        MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_all_begin_c(
    MPI_File fh, void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_all_c(MPI_File fh, void* buf, MPI_Count count,
                                  MPI_Datatype datatype,
                                  MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_all_c(MPI_File fh, void* buf, MPI_Count count,
                                   MPI_Datatype datatype,
                                   MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_all_end(MPI_File fh, void* buf,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_all_end(MPI_File fh, void* buf,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf,
                               int count, MPI_Datatype datatype,
                               MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf,
                                int count, MPI_Datatype datatype,
                                MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf,
                                   int count, MPI_Datatype datatype,
                                   MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf,
                                    int count, MPI_Datatype datatype,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at_all_begin(
    MPI_File fh, MPI_Offset offset, void* buf, int count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at_all_begin(
    MPI_File fh, MPI_Offset offset, void* buf, int count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at_all_begin_c(
    MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at_all_begin_c(
    MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void* buf,
                                     MPI_Count count, MPI_Datatype datatype,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void* buf,
                                      MPI_Count count, MPI_Datatype datatype,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at_all_end(MPI_File fh, void* buf,
                                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at_all_end(MPI_File fh, void* buf,
                                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void* buf,
                                 MPI_Count count, MPI_Datatype datatype,
                                 MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void* buf,
                                  MPI_Count count, MPI_Datatype datatype,
                                  MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_c(MPI_File fh, void* buf, MPI_Count count,
                              MPI_Datatype datatype,
                              MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_c(MPI_File fh, void* buf, MPI_Count count,
                               MPI_Datatype datatype,
                               MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_ordered(MPI_File fh, void* buf, int count,
                                    MPI_Datatype datatype,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_ordered(MPI_File fh, void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_ordered_begin(
    MPI_File fh, void* buf, int count, MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_ordered_begin(
    MPI_File fh, void* buf, int count, MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_ordered_begin_c(
    MPI_File fh, void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_ordered_begin_c(
    MPI_File fh, void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_ordered_c(MPI_File fh, void* buf, MPI_Count count,
                                      MPI_Datatype datatype,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_ordered_c(MPI_File fh, void* buf, MPI_Count count,
                                       MPI_Datatype datatype,
                                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_ordered_end(MPI_File fh, void* buf,
                                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_ordered_end(
    MPI_File fh, void* buf, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_shared(MPI_File fh, void* buf, int count,
                                   MPI_Datatype datatype,
                                   MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_shared(MPI_File fh, void* buf, int count,
                                    MPI_Datatype datatype,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_read_shared_c(MPI_File fh, void* buf, MPI_Count count,
                                     MPI_Datatype datatype,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_read_shared_c(MPI_File fh, void* buf, MPI_Count count,
                                      MPI_Datatype datatype,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_seek(MPI_File fh, MPI_Offset offset,
                            int whence) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_seek(MPI_File fh, MPI_Offset offset,
                             int whence) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset,
                                   int whence) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset,
                                    int whence) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_set_atomicity(MPI_File fh, int flag) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_set_atomicity(MPI_File fh, int flag) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_set_info(MPI_File fh, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_set_info(MPI_File fh, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_set_size(MPI_File fh, MPI_Offset size) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_set_size(MPI_File fh, MPI_Offset size) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_set_view(MPI_File fh, MPI_Offset disp,
                                MPI_Datatype etype, MPI_Datatype filetype,
                                const char* datarep,
                                MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_set_view(MPI_File fh, MPI_Offset disp,
                                 MPI_Datatype etype, MPI_Datatype filetype,
                                 const char* datarep,
                                 MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_sync(MPI_File fh) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_sync(MPI_File fh) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write(MPI_File fh, const void* buf, int count,
                             MPI_Datatype datatype,
                             MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write(MPI_File fh, const void* buf, int count,
                              MPI_Datatype datatype,
                              MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_all(MPI_File fh, const void* buf, int count,
                                 MPI_Datatype datatype,
                                 MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_all(MPI_File fh, const void* buf, int count,
                                  MPI_Datatype datatype,
                                  MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_all_begin(MPI_File fh, const void* buf, int count,
                                       MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_all_begin(MPI_File fh, const void* buf, int count,
                                        MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_all_begin_c(
    MPI_File fh, const void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_all_begin_c(
    MPI_File fh, const void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_all_c(MPI_File fh, const void* buf,
                                   MPI_Count count, MPI_Datatype datatype,
                                   MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_all_c(MPI_File fh, const void* buf,
                                    MPI_Count count, MPI_Datatype datatype,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_all_end(MPI_File fh, const void* buf,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_all_end(MPI_File fh, const void* buf,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf,
                                int count, MPI_Datatype datatype,
                                MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at(MPI_File fh, MPI_Offset offset,
                                 const void* buf, int count,
                                 MPI_Datatype datatype,
                                 MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset,
                                    const void* buf, int count,
                                    MPI_Datatype datatype,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset,
                                     const void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at_all_begin(
    MPI_File fh, MPI_Offset offset, const void* buf, int count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at_all_begin(
    MPI_File fh, MPI_Offset offset, const void* buf, int count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at_all_begin_c(
    MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at_all_begin_c(
    MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset,
                                      const void* buf, MPI_Count count,
                                      MPI_Datatype datatype,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset,
                                       const void* buf, MPI_Count count,
                                       MPI_Datatype datatype,
                                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at_all_end(MPI_File fh, const void* buf,
                                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at_all_end(
    MPI_File fh, const void* buf, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_at_c(MPI_File fh, MPI_Offset offset,
                                  const void* buf, MPI_Count count,
                                  MPI_Datatype datatype,
                                  MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset,
                                   const void* buf, MPI_Count count,
                                   MPI_Datatype datatype,
                                   MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_c(MPI_File fh, const void* buf, MPI_Count count,
                               MPI_Datatype datatype,
                               MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_c(MPI_File fh, const void* buf, MPI_Count count,
                                MPI_Datatype datatype,
                                MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_ordered(MPI_File fh, const void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_ordered(MPI_File fh, const void* buf, int count,
                                      MPI_Datatype datatype,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_ordered_begin(
    MPI_File fh, const void* buf, int count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_ordered_begin(
    MPI_File fh, const void* buf, int count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_ordered_begin_c(
    MPI_File fh, const void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_ordered_begin_c(
    MPI_File fh, const void* buf, MPI_Count count,
    MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_ordered_c(MPI_File fh, const void* buf,
                                       MPI_Count count, MPI_Datatype datatype,
                                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_ordered_c(MPI_File fh, const void* buf,
                                        MPI_Count count, MPI_Datatype datatype,
                                        MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_ordered_end(
    MPI_File fh, const void* buf, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_ordered_end(
    MPI_File fh, const void* buf, MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_shared(MPI_File fh, const void* buf, int count,
                                    MPI_Datatype datatype,
                                    MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_shared(MPI_File fh, const void* buf, int count,
                                     MPI_Datatype datatype,
                                     MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_File_write_shared_c(MPI_File fh, const void* buf,
                                      MPI_Count count, MPI_Datatype datatype,
                                      MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_File_write_shared_c(MPI_File fh, const void* buf,
                                       MPI_Count count, MPI_Datatype datatype,
                                       MPI_Status* status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Register_datarep(const char* datarep,
                                   MPI_Datarep_conversion_function* read_conversion_fn,
                                   MPI_Datarep_conversion_function* write_conversion_fn,
                                   MPI_Datarep_extent_function* dtype_file_extent_fn,
                                   void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Register_datarep(const char* datarep,
                                    MPI_Datarep_conversion_function* read_conversion_fn,
                                    MPI_Datarep_conversion_function* write_conversion_fn,
                                    MPI_Datarep_extent_function* dtype_file_extent_fn,
                                    void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Register_datarep_c(const char* datarep,
                                     MPI_Datarep_conversion_function_c* read_conversion_fn,
                                     MPI_Datarep_conversion_function_c* write_conversion_fn,
                                     MPI_Datarep_extent_function* dtype_file_extent_fn,
                                     void* extra_state) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Register_datarep_c(const char* datarep,
                                      MPI_Datarep_conversion_function_c* read_conversion_fn,
                                      MPI_Datarep_conversion_function_c* write_conversion_fn,
                                      MPI_Datarep_extent_function* dtype_file_extent_fn,
                                      void* extra_state) SHMPI_NOEXCEPT;

/* Tool support */

SHMPI_API int MPI_Pcontrol(const int level, ...) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Pcontrol(const int level, ...) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_changed(int* update_number) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_changed(int* update_number) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_categories(
    int cat_index, int len, int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_categories(
    int cat_index, int len, int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_cvars(int cat_index, int len,
                                       int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_cvars(int cat_index, int len,
                                        int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_events(int cat_index, int len,
                                        int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_events(
    int cat_index, int len, int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_index(const char* name,
                                       int* cat_index) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_index(const char* name,
                                        int* cat_index) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_info(int cat_index, char* name, int* name_len,
                                      char* desc, int* desc_len, int* num_cvars,
                                      int* num_pvars,
                                      int* num_categories) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_info(int cat_index, char* name, int* name_len,
                                       char* desc, int* desc_len,
                                       int* num_cvars, int* num_pvars,
                                       int* num_categories) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_num(int* num_cat) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_num(int* num_cat) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_num_events(
    int cat_index, int* num_events) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_num_events(
    int cat_index, int* num_events) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_category_get_pvars(int cat_index, int len,
                                       int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_category_get_pvars(int cat_index, int len,
                                        int indices[]) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_get_index(const char* name,
                                   int* cvar_index) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_get_index(const char* name,
                                    int* cvar_index) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_get_info(int cvar_index, char* name, int* name_len,
                                  int* verbosity, MPI_Datatype* datatype,
                                  MPI_T_enum* enumtype, char* desc,
                                  int* desc_len, int* bind,
                                  int* scope) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len,
                                   int* verbosity, MPI_Datatype* datatype,
                                   MPI_T_enum* enumtype, char* desc,
                                   int* desc_len, int* bind,
                                   int* scope) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_get_num(int* num_cvar) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_get_num(int* num_cvar) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_handle_alloc(int cvar_index, void* obj_handle,
                                      MPI_T_cvar_handle* handle,
                                      int* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_handle_alloc(int cvar_index, void* obj_handle,
                                       MPI_T_cvar_handle* handle,
                                       int* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_read(MPI_T_cvar_handle handle,
                              void* buf) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_read(MPI_T_cvar_handle handle,
                               void* buf) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_cvar_write(MPI_T_cvar_handle handle,
                               const void* buf) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_cvar_write(MPI_T_cvar_handle handle,
                                const void* buf) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name,
                                  int* name_len) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name,
                                   int* name_len) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int* value,
                                  char* name, int* name_len) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int* value,
                                   char* name, int* name_len) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_callback_get_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_callback_get_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_callback_set_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_callback_set_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_copy(MPI_T_event_instance event_instance,
                               void* buffer) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_copy(MPI_T_event_instance event_instance,
                                void* buffer) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_get_index(const char* name,
                                    int* event_index) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_get_index(const char* name,
                                     int* event_index) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_get_info(int event_index, char* name, int* name_len,
                                   int* verbosity,
                                   MPI_Datatype array_of_datatypes[],
                                   MPI_Aint array_of_displacements[],
                                   int* num_elements, MPI_T_enum* enumtype,
                                   MPI_Info* info, char* desc, int* desc_len,
                                   int* bind) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_get_info(int event_index, char* name, int* name_len,
                                    int* verbosity,
                                    MPI_Datatype array_of_datatypes[],
                                    MPI_Aint array_of_displacements[],
                                    int* num_elements, MPI_T_enum* enumtype,
                                    MPI_Info* info, char* desc, int* desc_len,
                                    int* bind) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_get_num(int* num_events) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_get_num(int* num_events) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_get_source(MPI_T_event_instance event_instance,
                                     int* source_index) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_get_source(MPI_T_event_instance event_instance,
                                      int* source_index) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance,
                                        MPI_Count* event_timestamp) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_get_timestamp(
    MPI_T_event_instance event_instance,
    MPI_Count* event_timestamp) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_handle_alloc(int event_index, void* obj_handle,
                                       MPI_Info info,
                                       MPI_T_event_registration* event_registration) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_handle_alloc(int event_index, void* obj_handle,
                                        MPI_Info info,
                                        MPI_T_event_registration* event_registration) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_handle_free(MPI_T_event_registration event_registration,
                                      void* user_data,
                                      MPI_T_event_free_cb_function free_cb_function) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_handle_free(MPI_T_event_registration event_registration,
                                       void* user_data,
                                       MPI_T_event_free_cb_function free_cb_function) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_handle_get_info(
    MPI_T_event_registration event_registration,
    MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_handle_get_info(
    MPI_T_event_registration event_registration,
    MPI_Info* info_used) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_handle_set_info(
    MPI_T_event_registration event_registration, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_handle_set_info(
    MPI_T_event_registration event_registration, MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_read(MPI_T_event_instance event_instance,
                               int element_index, void* buffer) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_read(MPI_T_event_instance event_instance,
                                int element_index, void* buffer) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_register_callback(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info, void* user_data,
    MPI_T_event_cb_function event_cb_function) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_register_callback(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info, void* user_data,
    MPI_T_event_cb_function event_cb_function) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_event_set_dropped_handler(
    MPI_T_event_registration event_registration,
    MPI_T_event_dropped_cb_function dropped_cb_function) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_event_set_dropped_handler(
    MPI_T_event_registration event_registration,
    MPI_T_event_dropped_cb_function dropped_cb_function) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_finalize(void) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_finalize(void) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_init_thread(int required, int* provided) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_init_thread(int required, int* provided) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_get_index(const char* name, int var_class,
                                   int* pvar_index) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_get_index(const char* name, int var_class,
                                    int* pvar_index) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_get_info(int pvar_index, char* name, int* name_len,
                                  int* verbosity, int* var_class,
                                  MPI_Datatype* datatype, MPI_T_enum* enumtype,
                                  char* desc, int* desc_len, int* bind,
                                  int* readonly, int* continuous,
                                  int* atomic) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_get_info(int pvar_index, char* name, int* name_len,
                                   int* verbosity, int* var_class,
                                   MPI_Datatype* datatype, MPI_T_enum* enumtype,
                                   char* desc, int* desc_len, int* bind,
                                   int* readonly, int* continuous,
                                   int* atomic) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_get_num(int* num_pvar) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_get_num(int* num_pvar) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session,
                                      int pvar_index, void* obj_handle,
                                      MPI_T_pvar_handle* handle,
                                      int* count) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session,
                                       int pvar_index, void* obj_handle,
                                       MPI_T_pvar_handle* handle,
                                       int* count) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_handle_free(MPI_T_pvar_session session,
                                     MPI_T_pvar_handle* handle) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                                      MPI_T_pvar_handle* handle) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_read(MPI_T_pvar_session session,
                              MPI_T_pvar_handle handle,
                              void* buf) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_read(MPI_T_pvar_session session,
                               MPI_T_pvar_handle handle,
                               void* buf) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_readreset(MPI_T_pvar_session session,
                                   MPI_T_pvar_handle handle,
                                   void* buf) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                                    MPI_T_pvar_handle handle,
                                    void* buf) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_reset(MPI_T_pvar_session session,
                               MPI_T_pvar_handle handle) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_reset(MPI_T_pvar_session session,
                                MPI_T_pvar_handle handle) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_session_create(MPI_T_pvar_session* session) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_session_create(
    MPI_T_pvar_session* session) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_session_free(MPI_T_pvar_session* session) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_start(MPI_T_pvar_session session,
                               MPI_T_pvar_handle handle) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_start(MPI_T_pvar_session session,
                                MPI_T_pvar_handle handle) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_stop(MPI_T_pvar_session session,
                              MPI_T_pvar_handle handle) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_stop(MPI_T_pvar_session session,
                               MPI_T_pvar_handle handle) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_pvar_write(MPI_T_pvar_session session,
                               MPI_T_pvar_handle handle,
                               const void* buf) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_pvar_write(MPI_T_pvar_session session,
                                MPI_T_pvar_handle handle,
                                const void* buf) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_source_get_info(int source_index, char* name, int* name_len,
                                    char* desc, int* desc_len,
                                    MPI_T_source_order* ordering,
                                    MPI_Count* ticks_per_second,
                                    MPI_Count* max_ticks,
                                    MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_source_get_info(int source_index, char* name,
                                     int* name_len, char* desc, int* desc_len,
                                     MPI_T_source_order* ordering,
                                     MPI_Count* ticks_per_second,
                                     MPI_Count* max_ticks,
                                     MPI_Info* info) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_source_get_num(int* num_sources) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_source_get_num(int* num_sources) SHMPI_NOEXCEPT;
SHMPI_API int MPI_T_source_get_timestamp(
    int source_index, MPI_Count* timestamp) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_T_source_get_timestamp(
    int source_index, MPI_Count* timestamp) SHMPI_NOEXCEPT;

/* Language interoperability */

SHMPI_API MPI_Fint MPI_Comm_c2f(MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) SHMPI_NOEXCEPT;
SHMPI_API MPI_Comm MPI_Comm_f2c(MPI_Fint comm) SHMPI_NOEXCEPT;
SHMPI_API MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler) SHMPI_NOEXCEPT;
SHMPI_API MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) SHMPI_NOEXCEPT;
SHMPI_API MPI_Errhandler PMPI_Errhandler_f2c(
    MPI_Fint errhandler) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_File_c2f(MPI_File file) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_File_c2f(MPI_File file) SHMPI_NOEXCEPT;
SHMPI_API MPI_File MPI_File_f2c(MPI_Fint file) SHMPI_NOEXCEPT;
SHMPI_API MPI_File PMPI_File_f2c(MPI_Fint file) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Group_c2f(MPI_Group group) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Group_c2f(MPI_Group group) SHMPI_NOEXCEPT;
SHMPI_API MPI_Group MPI_Group_f2c(MPI_Fint group) SHMPI_NOEXCEPT;
SHMPI_API MPI_Group PMPI_Group_f2c(MPI_Fint group) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Info_c2f(MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Info_c2f(MPI_Info info) SHMPI_NOEXCEPT;
SHMPI_API MPI_Info MPI_Info_f2c(MPI_Fint info) SHMPI_NOEXCEPT;
SHMPI_API MPI_Info PMPI_Info_f2c(MPI_Fint info) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Message_c2f(MPI_Message message) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Message_c2f(MPI_Message message) SHMPI_NOEXCEPT;
SHMPI_API MPI_Message MPI_Message_f2c(MPI_Fint message) SHMPI_NOEXCEPT;
SHMPI_API MPI_Message PMPI_Message_f2c(MPI_Fint message) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Op_c2f(MPI_Op op) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Op_c2f(MPI_Op op) SHMPI_NOEXCEPT;
SHMPI_API MPI_Op MPI_Op_f2c(MPI_Fint op) SHMPI_NOEXCEPT;
SHMPI_API MPI_Op PMPI_Op_f2c(MPI_Fint op) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Request_c2f(MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Request_c2f(MPI_Request request) SHMPI_NOEXCEPT;
SHMPI_API MPI_Request MPI_Request_f2c(MPI_Fint request) SHMPI_NOEXCEPT;
SHMPI_API MPI_Request PMPI_Request_f2c(MPI_Fint request) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Session_c2f(MPI_Session session) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Session_c2f(MPI_Session session) SHMPI_NOEXCEPT;
SHMPI_API MPI_Session MPI_Session_f2c(MPI_Fint session) SHMPI_NOEXCEPT;
SHMPI_API MPI_Session PMPI_Session_f2c(MPI_Fint session) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_c2f(const MPI_Status* c_status,
                             MPI_Fint* f_status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_c2f(const MPI_Status* c_status,
                              MPI_Fint* f_status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_c2f08(const MPI_Status* c_status,
                               MPI_F08_status* f08_status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_c2f08(const MPI_Status* c_status,
                                MPI_F08_status* f08_status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_f082c(const MPI_F08_status* f08_status,
                               MPI_Status* c_status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_f082c(const MPI_F08_status* f08_status,
                                MPI_Status* c_status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_f082f(const MPI_F08_status* f08_status,
                               MPI_Fint* f_status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_f082f(const MPI_F08_status* f08_status,
                                MPI_Fint* f_status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_f2c(const MPI_Fint* f_status,
                             MPI_Status* c_status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_f2c(const MPI_Fint* f_status,
                              MPI_Status* c_status) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Status_f2f08(const MPI_Fint* f_status,
                               MPI_F08_status* f08_status) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Status_f2f08(const MPI_Fint* f_status,
                                MPI_F08_status* f08_status) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Type_c2f(MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_f90_complex(
    int p, int r, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_f90_complex(
    int p, int r, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_f90_integer(
    int r, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_f90_integer(
    int r, MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_create_f90_real(int p, int r,
                                       MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_create_f90_real(int p, int r,
                                        MPI_Datatype* newtype) SHMPI_NOEXCEPT;
SHMPI_API MPI_Datatype MPI_Type_f2c(MPI_Fint datatype) SHMPI_NOEXCEPT;
SHMPI_API MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype) SHMPI_NOEXCEPT;
SHMPI_API int MPI_Type_match_size(int typeclass, int size,
                                  MPI_Datatype* datatype) SHMPI_NOEXCEPT;
SHMPI_API int PMPI_Type_match_size(int typeclass, int size,
                                   MPI_Datatype* datatype) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint MPI_Win_c2f(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API MPI_Fint PMPI_Win_c2f(MPI_Win win) SHMPI_NOEXCEPT;
SHMPI_API MPI_Win MPI_Win_f2c(MPI_Fint win) SHMPI_NOEXCEPT;
SHMPI_API MPI_Win PMPI_Win_f2c(MPI_Fint win) SHMPI_NOEXCEPT;

/* clang-format on */
/* END GENERATED PROTOTYPES */

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* SHMPI_MPI_H_ */
