// SPDX-License-Identifier: MIT
#include "segment/spawn_request.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <set>

namespace shmpi::segment {

namespace {

constexpr int kErrOther = 16;  // MPI_ERR_OTHER; callers pick their class

// Encoding: u32 command count, then per command u32 maxprocs, u32 allowed
// count, the allowed counts (u32 each), wdir, path, u32 argc and argc
// strings; a string is a u32 length and its bytes (no terminator).
class Writer {
 public:
  void word(std::uint32_t value) {
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof value);
  }
  void text(const std::string& s) {
    word(static_cast<std::uint32_t>(s.size()));
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    bytes_.insert(bytes_.end(), p, p + s.size());
  }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool word(std::uint32_t* value) {
    if (bytes_.size() - at_ < sizeof *value) {
      return false;
    }
    std::memcpy(value, bytes_.data() + at_, sizeof *value);
    at_ += sizeof *value;
    return true;
  }
  bool text(std::string* s) {
    std::uint32_t length = 0;
    if (!word(&length) || bytes_.size() - at_ < length) {
      return false;
    }
    s->assign(reinterpret_cast<const char*>(bytes_.data() + at_), length);
    at_ += length;
    return true;
  }
  bool at_end() const { return at_ == bytes_.size(); }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<std::byte> encode_spawn_commands(
    std::span<const SpawnCommand> commands) {
  Writer w;
  w.word(static_cast<std::uint32_t>(commands.size()));
  for (const SpawnCommand& c : commands) {
    w.word(c.maxprocs);
    w.word(static_cast<std::uint32_t>(c.allowed.size()));
    for (std::uint32_t count : c.allowed) {
      w.word(count);
    }
    w.text(c.wdir);
    w.text(c.path);
    w.word(static_cast<std::uint32_t>(c.argv.size()));
    for (const std::string& word : c.argv) {
      w.text(word);
    }
  }
  return w.take();
}

Result<std::vector<SpawnCommand>> decode_spawn_commands(
    std::span<const std::byte> bytes) {
  const Err bad{kErrOther, "the spawn request's command list is malformed"};
  Reader r(bytes);
  std::uint32_t count = 0;
  // Every count is checked against the bytes left before anything is
  // reserved, so a garbage count cannot make us allocate gigabytes.
  if (!r.word(&count) || count == 0 || count > r.left() / 4) {
    return bad;
  }
  std::vector<SpawnCommand> commands(count);
  for (SpawnCommand& c : commands) {
    std::uint32_t allowed = 0;
    if (!r.word(&c.maxprocs) || !r.word(&allowed) || allowed > r.left() / 4) {
      return bad;
    }
    c.allowed.resize(allowed);
    for (std::uint32_t& value : c.allowed) {
      if (!r.word(&value)) {
        return bad;
      }
    }
    std::uint32_t argc = 0;
    if (!r.text(&c.wdir) || !r.text(&c.path) || !r.word(&argc) || argc == 0 ||
        argc > r.left() / 4) {
      return bad;
    }
    c.argv.resize(argc);
    for (std::string& word : c.argv) {
      if (!r.text(&word) || word.find('\0') != std::string::npos) {
        return bad;
      }
    }
    if (c.argv[0].empty() || c.wdir.find('\0') != std::string::npos ||
        c.path.find('\0') != std::string::npos ||
        !std::is_sorted(c.allowed.begin(), c.allowed.end())) {
      return bad;
    }
  }
  if (!r.at_end()) {
    return bad;
  }
  return commands;
}

std::int64_t spawn_count(const SpawnCommand& command,
                         std::uint64_t free_slots) {
  if (command.allowed.empty()) {
    return command.maxprocs <= free_slots ? std::int64_t{command.maxprocs} : -1;
  }
  for (auto it = command.allowed.rbegin(); it != command.allowed.rend(); ++it) {
    if (*it <= free_slots) {
      return *it;
    }
  }
  return -1;
}

Result<std::vector<std::uint32_t>> parse_soft(std::string_view text,
                                              std::uint32_t maxprocs) {
  const Err bad{kErrOther, "malformed \"soft\" value"};
  std::set<std::uint32_t> allowed;
  auto number = [](std::string_view s, std::int64_t* out) {
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, *out);
    return ec == std::errc() && p == end;
  };
  for (bool more = true; more;) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    more = comma != std::string_view::npos;
    text = more ? text.substr(comma + 1) : std::string_view();
    std::int64_t values[3] = {0, 0, 1};
    int n = 0;
    while (true) {
      const std::size_t colon = item.find(':');
      if (n == 3 || !number(item.substr(0, colon), &values[n])) {
        return bad;
      }
      ++n;
      if (colon == std::string_view::npos) {
        break;
      }
      item = item.substr(colon + 1);
    }
    const std::int64_t a = values[0];
    const std::int64_t b = n >= 2 ? values[1] : a;
    const std::int64_t step = n == 3 ? values[2] : (b >= a ? 1 : -1);
    if (step == 0 || (b > a && step < 0) || (b < a && step > 0)) {
      return bad;
    }
    for (std::int64_t v = a; step > 0 ? v <= b : v >= b; v += step) {
      if (v < 0 || v > maxprocs) {
        return bad;
      }
      if (v > 0) {
        allowed.insert(static_cast<std::uint32_t>(v));
      }
    }
  }
  if (allowed.empty()) {
    return bad;
  }
  return std::vector<std::uint32_t>(allowed.begin(), allowed.end());
}

}  // namespace shmpi::segment
