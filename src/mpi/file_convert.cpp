// SPDX-License-Identifier: MIT
// The data moves in stretches of whole units (elements of a predefined
// type, datatype/signature.hpp) of at most kStageBytes in memory's packed
// form and in the file's, so that the stages stay bounded whatever the
// count (MPI 4.0 §14.5.3 allows calling a conversion function several times
// with increasing positions). Per stretch:
//   write: memory -> packed native bytes (pack, or the memory itself when
//          contiguous) -> file bytes (external32: datatype/external32.hpp;
//          a user representation: its write_conversion_fn, which reads the
//          program's buffer itself) -> pwrite of the view's runs;
//   read:  pread of the view's runs -> the whole units read -> native bytes
//          (external32) -> memory (unpack), or read_conversion_fn straight
//          into the program's buffer.
// A direction registered with MPI_CONVERSION_FN_NULL moves native bytes
// (§14.5.3: "perform the requested data access using the native data
// representation").
#include "mpi/file_convert.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "datatype/external32.hpp"
#include "datatype/pack.hpp"
#include "datatype/signature.hpp"
#include "io/posix_file.hpp"
#include "mpi/datarep.hpp"
#include "mpi/datatype.hpp"
#include "mpi/file_write_guard.hpp"

namespace shmpi::mpi {

namespace {

// Native bytes and file bytes per stretch, and units per stretch (a user
// representation may give an element no bytes in the file).
constexpr std::uint64_t kStageBytes = 4u << 20;
constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

enum class Conversion {
  kExternal32,  // datatype/external32.hpp
  kCallback,    // the user representation's conversion function
  kNone,        // MPI_CONVERSION_FN_NULL: the native bytes
};

// The units of a call's data, in the file's representation.
struct Walk {
  const datatype::TypeDesc& desc;
  std::uint64_t per_element;  // units in one element of the datatype
  std::uint64_t units;        // in the whole data
  FileExtents& extents;
  Conversion conversion;
};

// A stretch of the data: its units, and the basic elements (MPI's "data
// items", a pair being two), native bytes and file bytes they hold.
struct Stretch {
  std::uint64_t units = 0;
  std::uint64_t items = 0;
  std::uint64_t native = 0;
  std::uint64_t file = 0;
};

// How many more elements of `each` bytes fit between `used` and `limit`.
std::uint64_t room(std::uint64_t limit, std::uint64_t used,
                   std::uint64_t each) {
  if (each == 0) {
    return kNoLimit;
  }
  return limit > used ? (limit - used) / each : 0;
}

// The longest stretch from unit `first`, of at most `units` units, whose
// native and file bytes stay within the limits; with `at_least_one`, one
// unit even when it alone is larger. MPI_SUCCESS or MPI_ERR_CONVERSION
// (*why says why).
int measure(Walk& w, std::uint64_t first, std::uint64_t units,
            std::uint64_t native_limit, std::uint64_t file_limit,
            bool at_least_one, Stretch* s, std::string* why) {
  *s = Stretch{};
  int rc = MPI_SUCCESS;
  datatype::for_each_signature_run(
      w.desc, w.per_element, first, units,
      [&](const datatype::BasicType& type, std::uint64_t n) {
        std::int64_t extent = 0;
        rc = w.extents.of(type, &extent);
        if (rc != MPI_SUCCESS) {
          *why = w.extents.why();
          return false;
        }
        const std::uint64_t native = type.size;
        const auto file = static_cast<std::uint64_t>(extent);
        if (w.conversion == Conversion::kNone && file != native) {
          rc = MPI_ERR_CONVERSION;
          *why = "data representation \"" + w.extents.rep().name +
                 "\" has no conversion function this way "
                 "(MPI_CONVERSION_FN_NULL), so " +
                 type.name + " keeps its " + std::to_string(native) +
                 " native bytes, but its dtype_file_extent_fn gives it " +
                 std::to_string(file) + " in the file";
          return false;
        }
        std::uint64_t take = std::min(n, kStageBytes - s->units);
        take = std::min(take, room(native_limit, s->native, native));
        take = std::min(take, room(file_limit, s->file, file));
        if (take == 0 && s->units == 0 && at_least_one) {
          take = 1;
        }
        s->units += take;
        s->items += take * (type.cls == datatype::TypeClass::kPair ? 2 : 1);
        s->native += take * native;
        s->file += take * file;
        return take == n;
      });
  return rc;
}

// Converts units [first, first + units) between native bytes and
// external32.
void convert_external32(Walk& w, std::uint64_t first, std::uint64_t units,
                        bool to_file, std::byte* native, std::byte* file) {
  datatype::for_each_signature_run(
      w.desc, w.per_element, first, units,
      [&](const datatype::BasicType& type, std::uint64_t n) {
        const std::size_t native_size = datatype::external32_native_size(type);
        const std::size_t file_size = datatype::external32_size(type);
        for (std::uint64_t i = 0; i < n; ++i) {
          if (to_file) {
            datatype::to_external32(type, native, file);
          } else {
            datatype::from_external32(type, file, native);
          }
          native += native_size;
          file += file_size;
        }
        return true;
      });
}

// Calls the user representation's conversion function on `items` data
// items from item `position` of the call's data.
int call_conversion(const Datarep& rep, bool write, const FileData& data,
                    std::uint64_t items, std::byte* file,
                    std::uint64_t position) {
  // The program's buffer, as it passed it: writes only read it.
  void* user = const_cast<void*>(data.buffer);
  const auto at = static_cast<MPI_Offset>(position);
  if (rep.large) {
    MPI_Datarep_conversion_function_c* fn =
        write ? rep.write_fn_c : rep.read_fn_c;
    return fn(user, data.type, static_cast<MPI_Count>(items), file, at,
              rep.extra_state);
  }
  // A stretch holds at most 2 * kStageBytes items: an int.
  MPI_Datarep_conversion_function* fn = write ? rep.write_fn : rep.read_fn;
  return fn(user, data.type, static_cast<int>(items), file, at,
            rep.extra_state);
}

// Reads or writes `bytes` file bytes of the view's stream from `position`
// at `buffer`; *got the bytes moved (fewer only at the end of the file).
// 0 or the errno of a failed call.
int move_runs(File& file, bool write, std::byte* buffer, std::uint64_t position,
              std::uint64_t bytes, std::uint64_t* got) {
  int error_number = 0;
  *got = 0;
  // Writes are announced to sieving writers (mpi/file_write_guard.hpp);
  // in atomic mode the caller's lock covers them already.
  std::optional<PlainWriteGuard> announced;
  if (write && bytes > 0 && !file.atomic.load(std::memory_order_relaxed)) {
    const io::FileView::Span span = file.view.span(position, bytes);
    announced.emplace(file, span.first, span.end);
  }
  file.view.for_each_run(
      position, bytes,
      [&](std::int64_t at, std::uint64_t from, std::uint64_t length) {
        std::byte* memory = buffer + (from - position);
        const std::int64_t n = write ? io::write_at(file.fd, memory, length, at)
                                     : io::read_at(file.fd, memory, length, at);
        if (n < 0) {
          error_number = static_cast<int>(-n);
          return false;
        }
        *got += static_cast<std::uint64_t>(n);
        return static_cast<std::uint64_t>(n) == length;
      });
  return error_number;
}

Conversion conversion_of(const Datarep& rep, bool write) {
  if (rep.kind == Datarep::Kind::kExternal32) {
    return Conversion::kExternal32;
  }
  return rep.converts(write) ? Conversion::kCallback : Conversion::kNone;
}

// File bytes of one element of the walk's datatype.
int element_file_bytes(Walk& w, std::uint64_t* out, std::string* why) {
  Stretch all;
  // Every unit: no limits (measure caps units per stretch, so loop).
  std::uint64_t bytes = 0;
  for (std::uint64_t unit = 0; unit < w.per_element; unit += all.units) {
    if (int rc = measure(w, unit, w.per_element - unit, kNoLimit, kNoLimit,
                         true, &all, why);
        rc != MPI_SUCCESS) {
      return rc;
    }
    bytes += all.file;
  }
  *out = bytes;
  return MPI_SUCCESS;
}

}  // namespace

int file_data_bytes(File& file, bool write, const FileData& data,
                    std::uint64_t* out, const char* function) noexcept {
  const datatype::DescPtr desc = describe(data.type);
  FileExtents extents(*file.representation);
  Walk w{*desc, datatype::signature_units(*desc), 0, extents,
         conversion_of(*file.representation, write)};
  std::uint64_t per_element = 0;
  std::string why;
  if (int rc = element_file_bytes(w, &per_element, &why); rc != MPI_SUCCESS) {
    return fail_file(&file, rc, function, "%s", why.c_str());
  }
  *out = per_element * static_cast<std::uint64_t>(data.count);
  return MPI_SUCCESS;
}

int convert_transfer(File& file, bool write, MPI_Offset offset,
                     const FileData& data, const TypeArg& type,
                     MPI_Status* status, MPI_Offset* moved,
                     const char* function) noexcept {
  const Datarep& rep = *file.representation;
  const datatype::DescPtr desc = describe(data.type);
  FileExtents extents(rep);
  const std::uint64_t per_element = datatype::signature_units(*desc);
  Walk w{*desc, per_element,
         per_element * static_cast<std::uint64_t>(data.count), extents,
         conversion_of(rep, write)};
  std::string why;
  std::uint64_t element_bytes = 0;
  if (int rc = element_file_bytes(w, &element_bytes, &why); rc != MPI_SUCCESS) {
    return fail_file(&file, rc, function, "%s", why.c_str());
  }
  const std::uint64_t file_bytes =
      element_bytes * static_cast<std::uint64_t>(data.count);
  const std::uint64_t position =
      static_cast<std::uint64_t>(offset) * file.etype_size;
  // Atomic mode: the file bytes this call touches are locked against the
  // other processes' calls (MPI 4.0 §14.6.1). Relaxed, as in transfer():
  // read once to decide (file.hpp).
  std::optional<io::RangeLock> lock;
  if (file.atomic.load(std::memory_order_relaxed) && file_bytes > 0) {
    const io::FileView::Span span = file.view.span(position, file_bytes);
    lock.emplace(file.fd, span.first, span.end, write);
    if (lock->error() != 0) {
      return fail_file(&file, MPI_ERR_IO, function,
                       "locking the bytes for atomic mode: %s",
                       std::strerror(lock->error()));
    }
  }
  const datatype::Layout layout =
      type.layout(data.buffer, static_cast<std::size_t>(data.count));
  const bool contiguous = layout.map == nullptr;
  std::vector<std::byte> native_stage;
  std::vector<std::byte> file_stage;
  Stretch done;
  while (done.units < w.units) {
    Stretch s;
    if (int rc = measure(w, done.units, w.units - done.units, kStageBytes,
                         kStageBytes, true, &s, &why);
        rc != MPI_SUCCESS) {
      return fail_file(&file, rc, function, "%s", why.c_str());
    }
    // The stretch's native bytes in memory when contiguous, else staged.
    std::byte* native = layout.base + done.native;
    if (!contiguous && w.conversion != Conversion::kCallback) {
      native_stage.resize(std::max<std::size_t>(native_stage.size(), s.native));
      native = native_stage.data();
    }
    // Its file bytes: staged, but for native bytes moving unconverted.
    std::byte* bytes = native;
    if (w.conversion != Conversion::kNone) {
      file_stage.resize(std::max<std::size_t>(file_stage.size(), s.file));
      bytes = file_stage.data();
    }
    bool short_read = false;
    if (write) {
      if (!contiguous && w.conversion != Conversion::kCallback) {
        datatype::pack(layout, done.native, native, s.native);
      }
      if (w.conversion == Conversion::kExternal32) {
        convert_external32(w, done.units, s.units, true, native, bytes);
      } else if (w.conversion == Conversion::kCallback) {
        if (int rc =
                call_conversion(rep, true, data, s.items, bytes, done.items);
            rc != MPI_SUCCESS) {
          return fail_file(&file, MPI_ERR_CONVERSION, function,
                           "the write_conversion_fn of data representation "
                           "\"%s\" returned error %d",
                           rep.name.c_str(), rc);
        }
      }
      std::uint64_t got = 0;
      if (int e =
              move_runs(file, true, bytes, position + done.file, s.file, &got);
          e != 0) {
        return fail_file(&file, io_error_class(e), function, "%s",
                         std::strerror(e));
      }
    } else {
      std::uint64_t got = 0;
      if (int e =
              move_runs(file, false, bytes, position + done.file, s.file, &got);
          e != 0) {
        return fail_file(&file, io_error_class(e), function, "%s",
                         std::strerror(e));
      }
      if (got < s.file) {
        // The end of the file: only the whole units read count.
        short_read = true;
        if (int rc =
                measure(w, done.units, s.units, kNoLimit, got, false, &s, &why);
            rc != MPI_SUCCESS) {
          return fail_file(&file, rc, function, "%s", why.c_str());
        }
      }
      if (w.conversion == Conversion::kExternal32) {
        convert_external32(w, done.units, s.units, false, native, bytes);
      } else if (w.conversion == Conversion::kCallback && s.items > 0) {
        if (int rc =
                call_conversion(rep, false, data, s.items, bytes, done.items);
            rc != MPI_SUCCESS) {
          return fail_file(&file, MPI_ERR_CONVERSION, function,
                           "the read_conversion_fn of data representation "
                           "\"%s\" returned error %d",
                           rep.name.c_str(), rc);
        }
      }
      if (!contiguous && w.conversion != Conversion::kCallback) {
        datatype::unpack(layout, done.native, native, s.native);
      }
    }
    done.units += s.units;
    done.items += s.items;
    done.native += s.native;
    done.file += s.file;
    if (short_read) {
      break;
    }
  }
  *moved = static_cast<MPI_Offset>(done.file / file.etype_size);
  set_io_status(status, static_cast<MPI_Count>(done.native));
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
