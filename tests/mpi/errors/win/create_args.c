// SPDX-License-Identifier: MIT
// Bad arguments to the window constructors and to calls on a window handle
// get their error class (MPI 4.0 §12.2, §9.4): a negative size
// (MPI_ERR_SIZE), a disp_unit that is not positive (MPI_ERR_DISP), no
// communicator (MPI_ERR_COMM), an intercommunicator (MPI_ERR_COMM), a null
// baseptr (MPI_ERR_ARG), and MPI_WIN_NULL or a garbage handle
// (MPI_ERR_WIN). Nothing is created by a failed call. With "extra", also a
// garbage handle and an intercommunicator (MPICH 4.0.2 crashes on both, so
// that run is shmpi-only). With "fatal", rank 0
// passes a negative size under MPI_ERRORS_ARE_FATAL and the job ends with
// a message naming MPI_Win_create.
#include <string.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int extra = argc > 1 && strcmp(argv[1], "extra") == 0;
  static int memory[16];
  MPI_Win win = MPI_WIN_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Win_create(memory, -1, sizeof(int), MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &win),
                    MPI_ERR_SIZE, "MPI_Win_create with size -1");
    MT_CHECK(win == MPI_WIN_NULL, "a failed MPI_Win_create set the window");
    MT_EXPECT_CLASS(fatal,
                    MPI_Win_create(memory, sizeof memory, 0, MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &win),
                    MPI_ERR_DISP, "MPI_Win_create with disp_unit 0");
    MT_EXPECT_CLASS(fatal,
                    MPI_Win_create(memory, sizeof memory, 1, MPI_INFO_NULL,
                                   MPI_COMM_NULL, &win),
                    MPI_ERR_COMM, "MPI_Win_create on MPI_COMM_NULL");
    void* base = NULL;
    MT_EXPECT_CLASS(
        fatal,
        MPI_Win_allocate(-8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
        MPI_ERR_SIZE, "MPI_Win_allocate with size -8");
    MT_EXPECT_CLASS(fatal,
                    MPI_Win_allocate_shared(8, -1, MPI_INFO_NULL,
                                            MPI_COMM_WORLD, &base, &win),
                    MPI_ERR_DISP, "MPI_Win_allocate_shared, disp_unit -1");
    MT_EXPECT_CLASS(fatal,
                    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_NULL, &win),
                    MPI_ERR_COMM, "MPI_Win_create_dynamic on MPI_COMM_NULL");
    MT_CHECK(win == MPI_WIN_NULL, "a failed constructor set the window");
    MPI_Win null_win = MPI_WIN_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Win_free(&null_win), MPI_ERR_WIN,
                    "MPI_Win_free(MPI_WIN_NULL)");
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    MT_EXPECT_CLASS(fatal, MPI_Win_get_name(MPI_WIN_NULL, name, &len),
                    MPI_ERR_WIN, "MPI_Win_get_name(MPI_WIN_NULL)");
    if (extra) {
      MPI_Group group;
      MT_EXPECT_CLASS(fatal, MPI_Win_get_group((MPI_Win)memory, &group),
                      MPI_ERR_WIN, "MPI_Win_get_group on a garbage handle");
    }
  }
  if (extra) {
    // An intercommunicator is refused by every member.
    const int size = mt_size();
    if (size >= 2) {
      MPI_Comm half, inter;
      const int color = mt_rank() % 2;
      MPI_Comm_split(MPI_COMM_WORLD, color, 0, &half);
      MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &inter);
      MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
      MT_EXPECT_CLASS(
          fatal,
          MPI_Win_create(memory, sizeof memory, 1, MPI_INFO_NULL, inter, &win),
          MPI_ERR_COMM, "MPI_Win_create on an intercommunicator");
      MPI_Comm_free(&inter);
      MPI_Comm_free(&half);
    }
  }
  if (!fatal) {
    // The library is still usable: a real window works afterwards.
    MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
  }
  return mt_errors_finish(fatal);
}
