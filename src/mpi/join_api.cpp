// SPDX-License-Identifier: MIT
// MPI_Comm_join (MPI 4.0 §11.4.5): both processes write who they are to
// the socket and read the other's: the job (the segment's job id and the
// memfd's inode, which only processes of one shmpirun job share) and the
// gpid. Two processes of one job then build their 1-to-1
// intercommunicator as MPI_Comm_accept / MPI_Comm_connect do; otherwise
// the call returns MPI_COMM_NULL, as the standard allows, and leaves the
// socket open.
#include <mpi.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/lpid_table.hpp"
#include "mpi/port_connect.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// What each side writes; fixed-width fields, both ends run on this host.
struct Hello {
  char magic[8];
  std::uint64_t job_id;
  std::uint64_t segment_dev;
  std::uint64_t segment_ino;
  std::uint64_t gpid;    // lpid::pack()
  std::uint64_t serial;  // this process's joins before this one
};
constexpr char kMagic[8] = {'s', 'h', 'm', 'p', 'i', 'j', 'n', '1'};

// create_from_group_round's purpose for the one-member local communicator.
constexpr std::uint64_t kJoinLocalPurpose = 0x4a6f696e;  // "Join"

bool write_all(int fd, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    // MSG_NOSIGNAL: a closed peer is an error here, not SIGPIPE.
    ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) {
      n = ::write(fd, p, bytes);
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t bytes) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::read(fd, p, bytes);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

extern "C" int PMPI_Comm_join(int fd, MPI_Comm* intercomm) noexcept {
  constexpr const char* kFn = "MPI_Comm_join";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (intercomm == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFn, "intercomm is NULL");
  }
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    return fail(nullptr, MPI_ERR_ARG, kFn, "invalid file descriptor %d", fd);
  }
  const segment::Segment& segment = state().runtime->segment();
  struct stat seg {};
  if (::fstat(segment.fd(), &seg) != 0) {
    return fail(nullptr, MPI_ERR_INTERN, kFn, "cannot stat the segment");
  }
  static std::atomic<std::uint64_t> joins{0};
  const lpid::Lpid me = my_lpid();
  const lpid::Gpid my_gpid = gpids_of(std::vector<lpid::Lpid>{me}).gpids[0];
  Hello mine{};
  std::memcpy(mine.magic, kMagic, sizeof kMagic);
  mine.job_id = segment.header().job_id;
  mine.segment_dev = static_cast<std::uint64_t>(seg.st_dev);
  mine.segment_ino = static_cast<std::uint64_t>(seg.st_ino);
  mine.gpid = lpid::pack(my_gpid);
  // Relaxed: only distinct values matter.
  mine.serial = joins.fetch_add(1, std::memory_order_relaxed);
  Hello theirs{};
  // Both write first: the hello is far smaller than a socket buffer.
  if (!write_all(fd, &mine, sizeof mine) ||
      !read_all(fd, &theirs, sizeof theirs)) {
    return fail(nullptr, MPI_ERR_OTHER, kFn,
                "the socket failed while exchanging identities (%s)",
                std::strerror(errno));
  }
  if (std::memcmp(theirs.magic, kMagic, sizeof kMagic) != 0 ||
      theirs.job_id != mine.job_id || theirs.segment_dev != mine.segment_dev ||
      theirs.segment_ino != mine.segment_ino || theirs.gpid == mine.gpid) {
    *intercomm = MPI_COMM_NULL;  // another job: no communication possible
    return MPI_SUCCESS;
  }
  // The same tag on both sides: both hellos, lower gpid first.
  const Hello& low = mine.gpid < theirs.gpid ? mine : theirs;
  const Hello& high = mine.gpid < theirs.gpid ? theirs : mine;
  const std::string tag = "shmpi-join:" + std::to_string(low.gpid) + ":" +
                          std::to_string(low.serial) + "/" +
                          std::to_string(high.gpid) + ":" +
                          std::to_string(high.serial);
  const char* why = "";
  SplitResult self;
  if (int rc = create_from_group_round({me}, 0, tag, MPI_ERRORS_RETURN, &self,
                                       &why, kJoinLocalPurpose);
      rc != MPI_SUCCESS) {
    return fail_static(nullptr, rc, kFn, why);
  }
  Comm* created = nullptr;
  const int rc = ports::connect_groups(
      *self.created, 0, {lpid::unpack(theirs.gpid)}, 0, tag, &created, &why);
  MPI_Comm local = self.created->handle;
  PMPI_Comm_free(&local);
  if (rc != MPI_SUCCESS) {
    *intercomm = MPI_COMM_NULL;
    return fail_static(nullptr, rc, kFn, why);
  }
  // No parent to inherit from: the default handler.
  created->errhandler = MPI_ERRORS_ARE_FATAL;
  *intercomm = created->handle;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_join);
