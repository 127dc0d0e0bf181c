#include "engine/progress_line.h"

#include <unistd.h>

namespace mpsready {

ProgressLine::ProgressLine(int fd, size_t total, std::chrono::milliseconds delay, std::chrono::milliseconds interval)
    : fd_(fd), total_(total), delay_(delay), interval_(interval), thread_([this] { run(); }) {}

ProgressLine::~ProgressLine() { finish(); }

std::string ProgressLine::render(size_t done, size_t total, size_t findings) {
  return "mpsready: " + std::to_string(done) + "/" + std::to_string(total) + " files, " + std::to_string(findings) +
         (findings == 1 ? " finding" : " findings");
}

void ProgressLine::draw() {
  // \r and "erase to end of line" redraw in place; a write error (a closed terminal) is ignored.
  const std::string line = "\r" + render(done_.load(), total_, findings_.load()) + "\x1b[K";
  (void)!::write(fd_, line.data(), line.size());
  shown_ = true;
}

void ProgressLine::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, delay_, [this] { return stop_; })) return;
  do {
    draw();
  } while (!wake_.wait_for(lock, interval_, [this] { return stop_; }));
}

void ProgressLine::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_ && !thread_.joinable()) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (shown_) {
    static constexpr char erase[] = "\r\x1b[K";
    (void)!::write(fd_, erase, sizeof erase - 1);
    shown_ = false;
  }
}

}  // namespace mpsready
