// SPDX-License-Identifier: MIT
// Collectives are written once, as C++20 coroutines, and run either to the
// end inside the call (blocking forms) or a step at a time from the progress
// engine (nonblocking forms). A coroutine suspends only on `co_await
// until(condition)` when the condition is false; the driver then polls that
// condition and resumes the innermost coroutine when it holds. Collectives
// call sub-collectives with `co_await`, which runs them inline.
#pragma once

#include <concepts>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <utility>

#include "p2p/poll_hint.hpp"

namespace shmpi::coll {

// What a suspended collective waits for, and how to start waiting for it
// when ranks outnumber cores (nullptr: as usual).
struct Poll {
  bool (*ready)(void*) = nullptr;
  p2p::PollHint (*hint)(void*) = nullptr;
  void* context = nullptr;
};

// One running collective: the innermost coroutine and its wait.
struct Run {
  std::coroutine_handle<> current;
  Poll poll;
  std::uint64_t waits = 0;  // suspensions so far: each is a new wait
  int error = 0;  // MPI error class the collective ends with (0: success)
};

// The hint for the wait the run is suspended on.
inline p2p::PollHint hint_of(const Run& run) {
  return run.poll.hint != nullptr ? run.poll.hint(run.poll.context)
                                  : p2p::PollHint::kAsUsual;
}

// Coroutine frames come from a per-thread cache of recently freed frames of
// the same size class, so a blocking collective does not call malloc once
// warm (frames are a few hundred bytes; larger ones go to operator new).
namespace frame_cache {
void* allocate(std::size_t bytes);
void release(void* frame, std::size_t bytes) noexcept;
}  // namespace frame_cache

class [[nodiscard]] Task {
 public:
  struct promise_type {
    Run* run = nullptr;
    std::coroutine_handle<> continuation;

    static void* operator new(std::size_t bytes) {
      return frame_cache::allocate(bytes);
    }
    static void operator delete(void* frame, std::size_t bytes) noexcept {
      frame_cache::release(frame, bytes);
    }

    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(
          std::coroutine_handle<promise_type> self) noexcept {
        promise_type& p = self.promise();
        if (p.continuation) {
          p.run->current = p.continuation;
          return p.continuation;
        }
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    [[noreturn]] void unhandled_exception() noexcept { std::terminate(); }
  };

  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      destroy();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { destroy(); }

  // Binds the top-level task to its run (before the first step).
  void bind(Run& run) {
    handle_.promise().run = &run;
    run.current = handle_;
  }
  bool done() const { return handle_.done(); }

  // co_await of a sub-collective: it runs in the caller's Run.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(
      std::coroutine_handle<promise_type> caller) noexcept {
    promise_type& p = handle_.promise();
    p.run = caller.promise().run;
    p.continuation = caller;
    p.run->current = handle_;
    return handle_;
  }
  void await_resume() const noexcept {}

 private:
  explicit Task(std::coroutine_handle<promise_type> handle) : handle_(handle) {}
  void destroy() {
    if (handle_) {
      handle_.destroy();
      handle_ = {};
    }
  }
  std::coroutine_handle<promise_type> handle_;
};

// co_await until(condition): continues at once if condition() holds, else
// suspends until the driver finds that it does. A condition with a hint()
// member tells a blocking driver how to wait for it (p2p::PollHint).
template <typename Condition>
struct Until {
  Condition condition;
  bool await_ready() { return condition(); }
  void await_suspend(std::coroutine_handle<Task::promise_type> self) {
    Run& run = *self.promise().run;
    run.poll.ready = [](void* c) { return (*static_cast<Condition*>(c))(); };
    run.poll.hint = nullptr;
    if constexpr (requires(Condition & c) {
                    { c.hint() } -> std::same_as<p2p::PollHint>;
                  }) {
      run.poll.hint = [](void* c) {
        return static_cast<Condition*>(c)->hint();
      };
    }
    run.poll.context = &condition;
    ++run.waits;
  }
  void await_resume() const noexcept {}
};
template <typename Condition>
Until<Condition> until(Condition condition) {
  return Until<Condition>{std::move(condition)};
}

// co_await fail_with(error_class): the collective ends with that MPI error
// (the caller then returns); continues at once.
struct FailWith {
  int error;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<Task::promise_type> self) noexcept {
    self.promise().run->error = error;
    return false;
  }
  void await_resume() const noexcept {}
};
inline FailWith fail_with(int error) { return FailWith{error}; }

// co_await current_run(): the Run the calling coroutine belongs to (its
// top-level task's), so that it can read or record the run's error class
// after sub-collectives; continues at once.
struct CurrentRun {
  Run* run = nullptr;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<Task::promise_type> self) noexcept {
    run = self.promise().run;
    return false;
  }
  Run* await_resume() const noexcept { return run; }
};
inline CurrentRun current_run() { return CurrentRun{}; }

// Advances `task` (bound to `run`) as far as it goes without waiting; true
// once it has finished.
inline bool step(Task& task, Run& run) {
  for (;;) {
    if (task.done()) {
      return true;
    }
    if (run.poll.ready != nullptr) {
      if (!run.poll.ready(run.poll.context)) {
        return false;
      }
      run.poll = {};
    }
    run.current.resume();
  }
}

}  // namespace shmpi::coll
