/* SPDX-License-Identifier: MIT */
/* shmpi's extensions to MPI. Programs that use them include this header
 * after mpi.h and test for SHMPI_EXTENSIONS, so the same source still
 * builds against MPICH or Open MPI:
 *
 *   #include <mpi.h>
 *   #if __has_include(<shmpi.h>)
 *   #include <shmpi.h>
 *   #endif
 *   #ifdef SHMPI_EXTENSIONS
 *     int free_ids, reserved;
 *     shmpi_context_ids_free(&free_ids, &reserved);
 *   #endif
 */
#ifndef SHMPI_H_INCLUDED
#define SHMPI_H_INCLUDED

#include <mpi.h>

#define SHMPI_EXTENSIONS 1

#if defined(__cplusplus)
extern "C" {
#endif

/* Context IDs of the calling process: how many of the 2048 mask bits are
 * free, and how many are agreed in advance for future MPI_Comm_dup calls
 * (held in reserve by their parent communicator, counted as not free). */
SHMPI_API int shmpi_context_ids_free(int* free_ids,
                                     int* reserved_ids) SHMPI_NOEXCEPT;

/* The communicators of the calling process that hold a context ID (an
 * intercommunicator holds its receive context), up to `max` of them, with
 * the ID each holds; *count is the number there are in all, which may be
 * more than max. MPI_COMM_WORLD and MPI_COMM_SELF are included. */
SHMPI_API int shmpi_context_id_holders(MPI_Comm comms[], int context_ids[],
                                       int max, int* count) SHMPI_NOEXCEPT;

/* The mask as 512 hex digits (word 0 first; a set bit is a free ID) plus a
 * terminating NUL: `text` must hold 513 characters. */
SHMPI_API int shmpi_context_mask_hex(char* text, int length) SHMPI_NOEXCEPT;

#if defined(__cplusplus)
}
#endif

#endif /* SHMPI_H_INCLUDED */
