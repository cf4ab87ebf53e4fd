// SPDX-License-Identifier: MIT
// shmpi's context-ID introspection (include/shmpi.h): the free count, the
// IDs held in dup reserves, the holders and the mask as hex.
#include <mpi.h>
#include <shmpi.h>
#include <stdio.h>
#include <string.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int free_ids = 0, reserved = 0;
  shmpi_context_ids_free(&free_ids, &reserved);
  MT_ASSERT(free_ids == 2045 && reserved == 0);
  char hex[513];
  shmpi_context_mask_hex(hex, sizeof hex);
  MT_ASSERT(strncmp(hex, "fffffff8ffffffff", 16) == 0);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_name(dup, "the dup");
  shmpi_context_ids_free(&free_ids, &reserved);
  // One round agreed a batch: one ID in use, the rest in reserve.
  MT_ASSERT(free_ids + reserved + 1 == 2045 && reserved >= 0);
  MPI_Comm comms[8];
  int ids[8], count = 0;
  shmpi_context_id_holders(comms, ids, 8, &count);
  MT_ASSERT(count == 3);
  int found = 0;
  for (int i = 0; i < count; ++i) {
    if (comms[i] == dup) {
      found = 1;
      MT_ASSERT(ids[i] == 496);  // word 0, bit 31: the first ID after init
    }
    if (comms[i] == MPI_COMM_WORLD) {
      MT_ASSERT(ids[i] == 0);
    }
  }
  MT_ASSERT(found);
  MPI_Comm_free(&dup);
  shmpi_context_id_holders(comms, ids, 8, &count);
  MT_ASSERT(count == 2);
  MPI_Finalize();
  return 0;
}
