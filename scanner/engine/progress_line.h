#pragma once
// The progress line of a long scan: on a terminal, after the first second, one line on stderr
// that updates in place ("mpsready: 1234/8770 files, 56 findings") and is erased when the scan
// ends. The caller decides whether to show it at all (a terminal, no --quiet).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace mpsready {

class ProgressLine {
 public:
  // Writes to `fd` once `delay` has passed, then every `interval`.
  ProgressLine(int fd, size_t total, std::chrono::milliseconds delay = std::chrono::milliseconds(1000),
               std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  ~ProgressLine();  // finish()es
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void file_done(size_t findings) {
    done_.fetch_add(1, std::memory_order_relaxed);
    findings_.fetch_add(findings, std::memory_order_relaxed);
  }
  // Stops the updates and erases the line, if one was shown.
  void finish();

  // The text of the line for these counts (exposed for tests).
  static std::string render(size_t done, size_t total, size_t findings);

 private:
  void run();
  void draw();

  int fd_;
  size_t total_;
  std::chrono::milliseconds delay_, interval_;
  std::atomic<size_t> done_{0}, findings_{0};
  bool shown_ = false;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace mpsready
