// The progress line: what it draws, that it erases itself, and that a short scan draws nothing.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <thread>

#include "engine/progress_line.h"

namespace mpsready {
namespace {

// Everything written to a pipe so far (non-blocking).
std::string drain(int fd, std::string& sofar) {
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) sofar.append(buf, static_cast<size_t>(n));
  return sofar;
}

struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    EXPECT_EQ(::pipe(fds), 0);
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  }
  ~Pipe() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
};

}  // namespace

TEST(ProgressLine, RendersFilesDoneOfTotalAndFindings) {
  EXPECT_EQ(ProgressLine::render(3, 10, 1), "mpsready: 3/10 files, 1 finding");
  EXPECT_EQ(ProgressLine::render(0, 8770, 0), "mpsready: 0/8770 files, 0 findings");
}

TEST(ProgressLine, UpdatesInPlaceAndErasesItselfAtTheEnd) {
  Pipe pipe;
  std::string text;
  {
    ProgressLine line(pipe.fds[1], 5, std::chrono::milliseconds(0), std::chrono::milliseconds(1));
    line.file_done(2);
    line.file_done(0);
    line.file_done(1);
    // Wait (without a deadline in the assertion) until the updated counts were drawn.
    for (int i = 0; i < 10000 && drain(pipe.fds[0], text).find("3/5 files, 3 findings") == std::string::npos; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    line.finish();
  }
  drain(pipe.fds[0], text);
  EXPECT_NE(text.find("\rmpsready: 3/5 files, 3 findings\x1b[K"), std::string::npos);
  EXPECT_EQ(text.find('\n'), std::string::npos);  // one line, redrawn, never scrolled
  ASSERT_GE(text.size(), 4u);
  EXPECT_EQ(text.substr(text.size() - 4), "\r\x1b[K");  // erased at the end
}

TEST(ProgressLine, NothingIsDrawnBeforeTheDelay) {
  Pipe pipe;
  {
    ProgressLine line(pipe.fds[1], 5, std::chrono::hours(1));
    line.file_done(1);
  }
  std::string text;
  EXPECT_EQ(drain(pipe.fds[0], text), "");
}

}  // namespace mpsready
