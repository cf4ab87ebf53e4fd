// SPDX-License-Identifier: MIT
// Output forwarding: pass-through, and line tagging with partial lines held
// back per rank and stream.
#include "launcher/output.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

namespace shmpi::launcher {
namespace {

// A memfd standing in for the launcher's stdout or stderr.
class Capture {
 public:
  Capture() : fd_(::memfd_create("capture", MFD_CLOEXEC)) {}
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  Capture(Capture&&) = delete;
  Capture& operator=(Capture&&) = delete;
  ~Capture() { ::close(fd_); }
  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] std::string text() const {
    std::string all;
    char buffer[4096];
    off_t offset = 0;
    for (;;) {
      ssize_t got = ::pread(fd_, buffer, sizeof buffer, offset);
      if (got <= 0) {
        return all;
      }
      all.append(buffer, static_cast<std::size_t>(got));
      offset += got;
    }
  }

 private:
  int fd_;
};

TEST(OutputForwarder, UntaggedBytesPassThroughUnchanged) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(2, false, out.fd(), err.fd());
  forwarder.forward(1, Stream::kStdout, "par");
  forwarder.forward(0, Stream::kStderr, "oops\n");
  forwarder.forward(1, Stream::kStdout, "tial\n");
  forwarder.finish_all();
  EXPECT_EQ(out.text(), "partial\n");
  EXPECT_EQ(err.text(), "oops\n");
}

// Regression: a rank's stdio buffer often ends mid-line; with stdout and
// stderr going to one file, the stderr line used to land inside the
// unfinished stdout line ("output rank 1 line 1stderr rank 1").
TEST(OutputForwarder, UntaggedPartialLineIsHeldUntilItsNewline) {
  Capture both;
  OutputForwarder forwarder(2, false, both.fd(), both.fd());
  forwarder.forward(1, Stream::kStdout, "line 0\nline 1");
  forwarder.forward(1, Stream::kStderr, "stderr rank 1\n");
  forwarder.forward(1, Stream::kStdout, " end\nno newline");
  forwarder.finish_all();
  EXPECT_EQ(both.text(), "line 0\nstderr rank 1\nline 1 end\nno newline");
}

TEST(OutputForwarder, TaggedLinesGetTheRankPrefix) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(12, true, out.fd(), err.fd());
  forwarder.forward(11, Stream::kStdout, "a\nb\n");
  forwarder.forward(0, Stream::kStderr, "e\n");
  EXPECT_EQ(out.text(), "[11] a\n[11] b\n");
  EXPECT_EQ(err.text(), "[0] e\n");
}

TEST(OutputForwarder, PartialLineWaitsForItsEnd) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(2, true, out.fd(), err.fd());
  forwarder.forward(0, Stream::kStdout, "hel");
  forwarder.forward(1, Stream::kStdout, "other\n");
  forwarder.forward(0, Stream::kStdout, "lo\nne");
  forwarder.forward(0, Stream::kStdout, "xt\n");
  EXPECT_EQ(out.text(), "[1] other\n[0] hello\n[0] next\n");
}

TEST(OutputForwarder, StreamsOfOneRankKeepSeparatePartialLines) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(1, true, out.fd(), err.fd());
  forwarder.forward(0, Stream::kStdout, "out-");
  forwarder.forward(0, Stream::kStderr, "err-");
  forwarder.forward(0, Stream::kStdout, "line\n");
  forwarder.forward(0, Stream::kStderr, "line\n");
  EXPECT_EQ(out.text(), "[0] out-line\n");
  EXPECT_EQ(err.text(), "[0] err-line\n");
}

TEST(OutputForwarder, FinishFlushesPartialLineWithNewline) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(3, true, out.fd(), err.fd());
  forwarder.forward(2, Stream::kStdout, "no newline");
  EXPECT_EQ(out.text(), "");
  forwarder.finish(2, Stream::kStdout);
  EXPECT_EQ(out.text(), "[2] no newline\n");
  forwarder.finish_all();  // nothing left
  EXPECT_EQ(out.text(), "[2] no newline\n");
}

TEST(OutputForwarder, FinishAllFlushesEveryRank) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(2, true, out.fd(), err.fd());
  forwarder.forward(0, Stream::kStdout, "x");
  forwarder.forward(1, Stream::kStderr, "y");
  forwarder.finish_all();
  EXPECT_EQ(out.text(), "[0] x\n");
  EXPECT_EQ(err.text(), "[1] y\n");
}

TEST(OutputForwarder, OverlongLineIsCutIntoTaggedPieces) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(1, true, out.fd(), err.fd());
  std::string chunk(OutputForwarder::kMaxLineBytes / 2, 'z');
  forwarder.forward(0, Stream::kStdout, chunk);
  forwarder.forward(0, Stream::kStdout, chunk);  // reaches the limit
  forwarder.forward(0, Stream::kStdout, "tail\n");
  EXPECT_EQ(out.text(), "[0] " + chunk + chunk + "\n[0] tail\n");
}

TEST(OutputForwarder, EmptyLinesAreTagged) {
  Capture out;
  Capture err;
  OutputForwarder forwarder(1, true, out.fd(), err.fd());
  forwarder.forward(0, Stream::kStdout, "\n\n");
  EXPECT_EQ(out.text(), "[0] \n[0] \n");
}

TEST(OutputForwarder, ClosedReaderDropsOutputQuietly) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  Capture err;
  // SIGPIPE is ignored by the launcher; do the same here.
  sighandler_t previous = ::signal(SIGPIPE, SIG_IGN);
  OutputForwarder forwarder(1, false, fds[1], err.fd());
  forwarder.forward(0, Stream::kStdout, "lost\n");
  forwarder.forward(0, Stream::kStdout, "lost too\n");
  forwarder.forward(0, Stream::kStderr, "kept\n");
  ::signal(SIGPIPE, previous);
  ::close(fds[1]);
  EXPECT_EQ(err.text(), "kept\n");
}

}  // namespace
}  // namespace shmpi::launcher
