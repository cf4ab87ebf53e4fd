// SPDX-License-Identifier: MIT
// File views (MPI 4.0 §14.3): MPI_File_set_view, MPI_File_get_view, and
// MPI_File_get_type_extent(_c) (§14.5.1).
//
// MPI_File_set_view is collective. Each member checks its own arguments,
// then the members agree in one allreduce on the first error any of them
// found (every member returns it, so none is left with the old view while
// the others take the new one) and on what must be the same everywhere:
// "the values for datarep and the extents of etype in the file data
// representation must be identical on all processes in the group"
// (MPI_ERR_NOT_SAME otherwise). The allreduce also ends every member's
// earlier use of the shared file pointer: file rank 0 then resets it, after
// reading it for MPI_DISPLACEMENT_CURRENT, and broadcasts, which orders the
// reset before every member's later use.
#include <mpi.h>

#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "io/file_view.hpp"
#include "mpi/core.hpp"
#include "mpi/datarep.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"
#include "mpi/file_type.hpp"
#include "mpi/info.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// One member's view from its arguments, or the error they hold.
struct NewView {
  int error_class = MPI_SUCCESS;
  std::string why;
  const Datarep* rep = nullptr;  // nullptr: native or internal
  std::string datarep;
  datatype::DescPtr etype;     // in file terms (native: as in memory)
  datatype::DescPtr filetype;  // likewise

  bool reject(int mpi_class, std::string text) {
    error_class = mpi_class;
    why = std::move(text);
    return false;
  }
};

// An etype or filetype argument: a valid, committed datatype.
bool check_view_type(MPI_Datatype type, const char* which, NewView* v) {
  if (type == MPI_DATATYPE_NULL) {
    return v->reject(MPI_ERR_TYPE,
                     std::string(which) + " is MPI_DATATYPE_NULL");
  }
  if (describe(type) == nullptr) {
    return v->reject(MPI_ERR_TYPE,
                     std::string(which) + " is not a valid datatype handle");
  }
  if (const Datatype* derived = find_derived(type);
      derived != nullptr && !derived->committed) {
    return v->reject(MPI_ERR_TYPE,
                     std::string(which) + " has not been committed");
  }
  return true;
}

// The file form of a view type (mpi/file_type.hpp): the type itself in a
// native representation.
bool file_form(const Datarep* rep, MPI_Datatype type, datatype::DescPtr* out,
               NewView* v) {
  if (rep == nullptr) {
    *out = describe(type);
    return true;
  }
  FileExtents extents(*rep);
  if (int rc = file_type_desc(extents, type, out); rc != MPI_SUCCESS) {
    return v->reject(rc, extents.why());
  }
  return true;
}

// The checks of one member's arguments, in the order of the arguments.
bool check_arguments(const File& f, MPI_Offset disp, MPI_Datatype etype,
                     MPI_Datatype filetype, const char* datarep, MPI_Info info,
                     NewView* v) {
  if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT) {
    return v->reject(MPI_ERR_ARG,
                     "negative displacement " + std::to_string(disp));
  }
  if (f.sequential() && disp != MPI_DISPLACEMENT_CURRENT) {
    return v->reject(MPI_ERR_ARG,
                     "the file was opened MPI_MODE_SEQUENTIAL, so the "
                     "displacement must be MPI_DISPLACEMENT_CURRENT (got " +
                         std::to_string(disp) + ")");
  }
  if (!f.sequential() && disp == MPI_DISPLACEMENT_CURRENT) {
    return v->reject(MPI_ERR_ARG,
                     "MPI_DISPLACEMENT_CURRENT is for files opened "
                     "MPI_MODE_SEQUENTIAL only");
  }
  if (!check_view_type(etype, "etype", v) ||
      !check_view_type(filetype, "filetype", v)) {
    return false;
  }
  if (datarep == nullptr) {
    return v->reject(MPI_ERR_ARG, "datarep is NULL");
  }
  if (!find_datarep(datarep, &v->rep)) {
    return v->reject(
        MPI_ERR_UNSUPPORTED_DATAREP,
        "no data representation is called \"" +
            std::string(datarep, ::strnlen(datarep, MPI_MAX_DATAREP_STRING)) +
            "\"");
  }
  v->datarep = datarep;
  if (info != MPI_INFO_NULL && find_info(info) == nullptr) {
    return v->reject(MPI_ERR_INFO, "invalid info object");
  }
  if (!file_form(v->rep, etype, &v->etype, v) ||
      !file_form(v->rep, filetype, &v->filetype, v)) {
    return false;
  }
  if (v->etype->size == 0) {
    return v->reject(MPI_ERR_TYPE, "the etype holds no data");
  }
  if (v->filetype->size % v->etype->size != 0) {
    return v->reject(MPI_ERR_TYPE,
                     "the filetype's " + std::to_string(v->filetype->size) +
                         " bytes of data are not a whole number of etypes (" +
                         std::to_string(v->etype->size) + " bytes each)" +
                         (v->rep != nullptr ? " in the file" : ""));
  }
  if (const char* why = io::check_filetype(*v->filetype)) {
    return v->reject(MPI_ERR_TYPE, why);
  }
  return true;
}

void retain_view_type(MPI_Datatype type) {
  if (Datatype* derived = find_derived(type)) {
    retain(derived);
  }
}

void release_view_type(MPI_Datatype type) {
  if (Datatype* derived = find_derived(type)) {
    release(derived);
  }
}

// A view type for MPI_File_get_view: a predefined type itself, a derived
// one a new committed handle of the same type map, which the program frees.
int returned_type(MPI_Datatype type, MPI_Datatype* out, const char* function) {
  if (find_derived(type) == nullptr) {
    *out = type;
    return MPI_SUCCESS;
  }
  if (int rc = make_handle(describe(type), MPI_COMBINER_DUP, {}, {}, {}, {type},
                           out, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  find_derived(*out)->committed = true;
  return MPI_SUCCESS;
}

template <typename E>
int type_extent_impl(MPI_File fh, MPI_Datatype type, E* extent,
                     const char* function) {
  File* f = nullptr;
  if (int rc = check_file(fh, &f, function); rc != MPI_SUCCESS) {
    return rc;
  }
  const datatype::DescPtr desc = describe(type);
  if (desc == nullptr) {
    return fail_file(f, MPI_ERR_TYPE, function,
                     type == MPI_DATATYPE_NULL
                         ? "datatype is MPI_DATATYPE_NULL"
                         : "datatype is not a valid datatype handle");
  }
  if (extent == nullptr) {
    return fail_file(f, MPI_ERR_ARG, function, "extent is NULL");
  }
  if (f->representation == nullptr) {
    *extent = static_cast<E>(desc->extent());
    return MPI_SUCCESS;
  }
  FileExtents extents(*f->representation);
  datatype::DescPtr in_file;
  if (int rc = file_type_desc(extents, type, &in_file); rc != MPI_SUCCESS) {
    return fail_file(f, rc, function, "%s", extents.why().c_str());
  }
  *extent = static_cast<E>(in_file->extent());
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_File_set_view(MPI_File fh, MPI_Offset disp,
                                  MPI_Datatype etype, MPI_Datatype filetype,
                                  const char* datarep, MPI_Info info) noexcept {
  constexpr const char* kFunction = "MPI_File_set_view";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  NewView v;
  // Info hints: MPI 4.0 §14.2.8 lets an implementation ignore them, and
  // none of the reserved ones changes what shmpi does with a view.
  const bool valid =
      check_arguments(*f, disp, etype, filetype, datarep, info, &v);

  // Agreement: the representation's name and the etype's extent in the
  // file, each with its complement (equal everywhere iff max(x) ==
  // ~max(~x)), the largest error class, and whether some member's view is
  // not contiguous.
  const std::uint64_t name =
      valid ? std::hash<std::string_view>{}(v.datarep) : 0;
  const std::uint64_t extent =
      valid ? static_cast<std::uint64_t>(v.etype->extent()) : 0;
  const bool contiguous = valid && io::FileView(0, v.filetype).contiguous();
  std::uint64_t mine[6] = {name,
                           ~name,
                           extent,
                           ~extent,
                           static_cast<std::uint64_t>(v.error_class),
                           contiguous ? 0u : 1u};
  std::uint64_t agreed[6] = {};
  int rc =
      PMPI_Allreduce(mine, agreed, 6, MPI_UINT64_T, MPI_MAX, f->comm->handle);
  if (rc != MPI_SUCCESS) {
    return rc;  // raised on the file already (Comm::file)
  }
  if (!valid) {
    return fail_file(f, v.error_class, kFunction, "%s", v.why.c_str());
  }
  if (agreed[4] != MPI_SUCCESS) {
    return fail_file(f, static_cast<int>(agreed[4]), kFunction,
                     "another member of the file's group passed invalid "
                     "arguments");
  }
  if (agreed[0] != ~agreed[1]) {
    return fail_file(f, MPI_ERR_NOT_SAME, kFunction,
                     "the members passed different data representations "
                     "(\"%s\" here)",
                     v.datarep.c_str());
  }
  if (agreed[2] != ~agreed[3]) {
    return fail_file(f, MPI_ERR_NOT_SAME, kFunction,
                     "the members' etypes have different extents in the "
                     "file (%lld bytes here)",
                     static_cast<long long>(v.etype->extent()));
  }

  // Both file pointers go to the view's start (§14.3). File rank 0 moves
  // the shared one; MPI_DISPLACEMENT_CURRENT (sequential files) is where
  // it was, as a byte offset of the old view.
  MPI_Offset current = 0;
  if (f->comm->rank == 0) {
    // Relaxed: the allreduce above ordered the members' earlier
    // reservations before this, and the broadcast below orders the reset
    // before their later ones (file_shared.hpp).
    const MPI_Offset shared =
        f->shared->position.exchange(0, std::memory_order_relaxed);
    if (disp == MPI_DISPLACEMENT_CURRENT) {
      current = f->view.file_offset(static_cast<std::uint64_t>(shared) *
                                    f->etype_size);
    }
  }
  rc = PMPI_Bcast(&current, 1, MPI_OFFSET, 0, f->comm->handle);
  if (rc != MPI_SUCCESS) {
    return rc;
  }
  if (disp == MPI_DISPLACEMENT_CURRENT) {
    disp = current;
  }

  retain_view_type(etype);
  retain_view_type(filetype);
  release_view_type(f->etype);
  release_view_type(f->filetype);
  std::unique_lock<std::mutex> guard(f->pointer_mutex, std::defer_lock);
  if (state().thread_multiple) {
    guard.lock();
  }
  f->disp = disp;
  f->etype = etype;
  f->filetype = filetype;
  f->etype_size = v.etype->size;
  f->datarep = v.datarep;
  f->representation = v.rep;
  f->view = io::FileView(disp, v.filetype);
  f->views_contiguous = agreed[5] == 0;
  f->individual = 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_set_view);

extern "C" int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp,
                                  MPI_Datatype* etype, MPI_Datatype* filetype,
                                  char* datarep) noexcept {
  constexpr const char* kFunction = "MPI_File_get_view";
  File* f = nullptr;
  if (int rc = check_file(fh, &f, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (disp == nullptr || etype == nullptr || filetype == nullptr ||
      datarep == nullptr) {
    return fail_file(f, MPI_ERR_ARG, kFunction, "%s is NULL",
                     disp == nullptr       ? "disp"
                     : etype == nullptr    ? "etype"
                     : filetype == nullptr ? "filetype"
                                           : "datarep");
  }
  MPI_Datatype new_etype = MPI_DATATYPE_NULL;
  MPI_Datatype new_filetype = MPI_DATATYPE_NULL;
  if (int rc = returned_type(f->etype, &new_etype, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = returned_type(f->filetype, &new_filetype, kFunction);
      rc != MPI_SUCCESS) {
    release_view_type(new_etype);
    return rc;
  }
  *disp = f->disp;
  *etype = new_etype;
  *filetype = new_filetype;
  // Names are shorter than MPI_MAX_DATAREP_STRING (MPI_Register_datarep).
  std::memcpy(datarep, f->datarep.c_str(), f->datarep.size() + 1);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_File_get_view);

extern "C" int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
                                         MPI_Aint* extent) noexcept {
  return type_extent_impl(fh, datatype, extent, "MPI_File_get_type_extent");
}
SHMPI_PMPI_ALIAS(MPI_File_get_type_extent);

extern "C" int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype,
                                           MPI_Count* extent) noexcept {
  return type_extent_impl(fh, datatype, extent, "MPI_File_get_type_extent_c");
}
SHMPI_PMPI_ALIAS(MPI_File_get_type_extent_c);
