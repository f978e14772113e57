// A persistent pool of worker threads for the batched API (batch.hpp): ``run(job)`` calls
// ``job(t)`` once for every part t in [0, parts()), part 0 on the calling thread and part t on
// worker t-1, and returns when every part is done. The workers are made once, when the pool
// is, and sleep between runs (a C++20 atomic wait: a futex on Linux), so a run costs two
// wake-ups, never a thread creation.
//
// An exception thrown by a part is kept and rethrown by ``run`` once every part has finished
// (the lowest part's first), so no worker is left running on the caller's data.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include <unistd.h>

namespace forest::native {

class ThreadPool {
 public:
  // ``parts`` >= 1: the caller and parts - 1 workers.
  explicit ThreadPool(int parts) : parts_(parts), owner_pid_(::getpid()), errors_(static_cast<size_t>(parts)) {
    if (parts < 1) throw std::invalid_argument("a thread pool needs at least one part");
    workers_.reserve(static_cast<size_t>(parts - 1));
    for (int t = 1; t < parts; ++t) workers_.emplace_back([this, t] { work(t); });
  }

  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  ~ThreadPool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    // a child of fork() has none of these threads: joining them there would wait for ever
    if (::getpid() != owner_pid_) {
      for (auto &w : workers_) w.detach();
      return;
    }
    for (auto &w : workers_) w.join();
  }

  int parts() const { return parts_; }

  // job(t) for every part t; returns when all are done, rethrowing the first part's error.
  template <class Job>
  void run(Job &job) {
    if (::getpid() != owner_pid_)
      throw std::runtime_error("this batch was made before the process forked; its worker threads are not here: "
                               "make the batch in the process that steps it");
    for (auto &e : errors_) e = nullptr;
    call_ = [](void *j, int t) { (*static_cast<Job *>(j))(t); };
    job_ = &job;
    if (parts_ > 1) {
      remaining_.store(parts_ - 1, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      generation_.notify_all();
    }
    run_part(0);
    for (int left = remaining_.load(std::memory_order_acquire); left != 0;
         left = remaining_.load(std::memory_order_acquire))
      remaining_.wait(left, std::memory_order_acquire);
    for (auto &e : errors_)
      if (e) std::rethrow_exception(e);
  }

 private:
  void run_part(int t) {
    try {
      call_(job_, t);
    } catch (...) {
      errors_[static_cast<size_t>(t)] = std::current_exception();
    }
  }

  void work(int t) {
    uint64_t seen = 0;
    for (;;) {
      generation_.wait(seen, std::memory_order_acquire);
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      run_part(t);
      if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_one();
    }
  }

  const int parts_;
  const pid_t owner_pid_;
  std::vector<std::exception_ptr> errors_;  // per part; part t writes only its own
  void (*call_)(void *, int) = nullptr;
  void *job_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // one more per run: wakes the workers
  std::atomic<int> remaining_{0};        // workers still running this run
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;     // last: made once everything above is ready
};

}  // namespace forest::native
