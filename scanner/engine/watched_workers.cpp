#include "engine/watched_workers.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#include "engine/in_flight.h"

namespace mpsready {
namespace {

constexpr auto kWatchInterval = std::chrono::milliseconds(50);
// Threads left behind in one call, at most: each holds a board slot (512 in all) and a stack.
constexpr size_t kMaxLeftBehind = 64;

}  // namespace

void run_watched_workers(unsigned jobs, const std::function<void()>& work, const std::function<bool()>& more_work) {
  jobs = std::max(1u, jobs);
  InFlightBoard* board = supervision().board;
  if (!board || supervision().file_time_limit_s <= 0) {
    if (jobs == 1) return work();
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(work);
    for (std::thread& t : threads) t.join();
    return;
  }
  std::mutex mutex;
  std::condition_variable changed;
  size_t running = 0;
  std::vector<std::thread> threads;
  const auto spawn = [&] {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      ++running;
    }
    threads.emplace_back([&] {
      work();
      {
        const std::lock_guard<std::mutex> lock(mutex);
        --running;
      }
      changed.notify_all();
    });
  };
  for (unsigned j = 0; j < jobs; ++j) spawn();
  const size_t max_threads = jobs + kMaxLeftBehind;
  for (;;) {
    size_t now_running;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait_for(lock, kWatchInterval);
      now_running = running;
    }
    if (now_running == 0) break;
    const auto flying = board->in_flight();
    const size_t stuck = static_cast<size_t>(
        std::count_if(flying.begin(), flying.end(), [](const InFlightFile& f) { return f.over_budget(); }));
    const size_t moving = now_running > stuck ? now_running - stuck : 0;
    const bool more = more_work();
    if (moving == 0 && (!more || threads.size() >= max_threads)) {
      // Every file still in flight is over its budget and none is left to take (or no thread
      // may be added): the parent kills this process and leaves them all out.
      board->mark_stalled();
      for (;;) pause();
    }
    for (size_t n = moving; more && n < jobs && threads.size() < max_threads; ++n) spawn();
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace mpsready
