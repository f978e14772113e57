// A persistent pool of worker threads for the batched API (batch.hpp): ``run(job, chunks)``
// calls ``job(chunk, thread)`` exactly once for every chunk in [0, chunks), on the calling
// thread (thread 0) and the pool's workers (threads 1..), and returns when every chunk is
// done. The workers are made once, with the pool, and sleep between runs (a C++20 atomic
// wait: a futex on Linux), so a run costs a wake-up, never a thread creation.
//
// Chunks are handed out one at a time from an atomic ticket, so whichever thread is running
// takes the next one: on a machine shared with other work, a worker the OS has not scheduled
// yet holds up nothing (the caller takes its chunks, and returns without waiting for a worker
// that never claimed one). Which thread steps a chunk changes nothing in what it computes.
//
// An exception thrown by a chunk is kept and rethrown by ``run`` once every claimed chunk has
// finished (the first thread's first), so no worker is left running on the caller's data.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <thread>
#include <vector>

#include <unistd.h>

namespace forest::native {

class ThreadPool {
 public:
  // At most this many chunks per run (the ticket holds the count and the next chunk in 16 bits).
  static constexpr int kMaxChunks = 1 << 15;

  // ``threads`` >= 1: the caller and threads - 1 workers.
  explicit ThreadPool(int threads) : threads_(threads), owner_pid_(::getpid()), errors_(static_cast<size_t>(threads)) {
    if (threads < 1) throw std::invalid_argument("a thread pool needs at least one thread");
    workers_.reserve(static_cast<size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
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

  int threads() const { return threads_; }

  // job(chunk, thread) for every chunk; returns when all are done, rethrowing the first error.
  template <class Job>
  void run(Job &job, int chunks) {
    if (::getpid() != owner_pid_)
      throw std::runtime_error("this batch was made before the process forked; its worker threads are not here: "
                               "make the batch in the process that steps it");
    if (chunks < 1 || chunks > kMaxChunks) throw std::invalid_argument("a run needs 1..32768 chunks");
    for (auto &e : errors_) e = nullptr;
    call_ = [](void *j, int chunk, int thread) { (*static_cast<Job *>(j))(chunk, thread); };
    job_ = &job;
    run_ += 1;
    // what the workers read (call_, job_, errors_) is published by this store
    ticket_.store(pack(run_, static_cast<uint32_t>(chunks), 0), std::memory_order_seq_cst);
    if (threads_ > 1) {
      generation_.store(run_, std::memory_order_release);
      generation_.notify_all();
    }
    take_chunks(run_, 0);
    // Every chunk is claimed: wait for the workers still stepping theirs. A worker counts
    // itself active before it claims, so one that claimed a chunk is seen here.
    for (int busy = active_.load(std::memory_order_seq_cst); busy != 0; busy = active_.load(std::memory_order_seq_cst))
      active_.wait(busy, std::memory_order_seq_cst);
    for (auto &e : errors_)
      if (e) std::rethrow_exception(e);
  }

 private:
  // ticket: run (32 bits) | chunks (16 bits) | next chunk (16 bits)
  static uint64_t pack(uint32_t run, uint32_t chunks, uint32_t next) {
    return (uint64_t{run} << 32) | (uint64_t{chunks} << 16) | next;
  }

  // Claim and step chunks of run ``run`` until none is left (or another run has begun).
  void take_chunks(uint32_t run, int thread) {
    for (;;) {
      uint64_t t = ticket_.load(std::memory_order_seq_cst);
      uint32_t chunk = 0;
      for (;;) {
        const uint32_t chunks = static_cast<uint32_t>((t >> 16) & 0xffffu);
        chunk = static_cast<uint32_t>(t & 0xffffu);
        if (static_cast<uint32_t>(t >> 32) != run || chunk >= chunks) return;
        if (ticket_.compare_exchange_weak(t, t + 1, std::memory_order_seq_cst)) break;
      }
      try {
        call_(job_, static_cast<int>(chunk), thread);
      } catch (...) {
        auto &slot = errors_[static_cast<size_t>(thread)];
        if (!slot) slot = std::current_exception();
      }
    }
  }

  void work(int thread) {
    uint32_t seen = 0;
    for (;;) {
      generation_.wait(seen, std::memory_order_acquire);
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      active_.fetch_add(1, std::memory_order_seq_cst);
      take_chunks(seen, thread);
      if (active_.fetch_sub(1, std::memory_order_seq_cst) == 1) active_.notify_all();
    }
  }

  const int threads_;
  const pid_t owner_pid_;
  std::vector<std::exception_ptr> errors_;  // per thread; thread t writes only its own
  void (*call_)(void *, int, int) = nullptr;
  void *job_ = nullptr;
  uint32_t run_ = 0;                      // the caller's count of runs
  std::atomic<uint64_t> ticket_{0};       // the current run and its next chunk
  std::atomic<uint32_t> generation_{0};   // the run the workers are woken for
  std::atomic<int> active_{0};            // workers between waking and finishing a run
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;      // last: made once everything above is ready
};

}  // namespace forest::native
