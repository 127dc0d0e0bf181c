// Linked only into the test executable mpsready-crash-hooks (never into mpsready): makes a front
// end crash, abort or hang on a file that carries a marker, because no real input is known that
// crashes tree-sitter, yaml-cpp, toml++ or the notebook reader (and Clang's known one, the
// `#pragma clang __debug` handlers, is removed). The marker is
// `mpsready-test-crash:<front end>:<how>`, how being ill, abort, segv or hang, and the hook runs
// at the point where that front end hands the file's bytes to its parser.
#include <csignal>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

#include "engine/test_point.h"

namespace {

// With MPSREADY_TEST_HOOK_LOG set, each marker met is logged as "<pid> <how>", so a test can count
// the attempts (processes) that met them.
void log_marker(std::string_view how) {
  const char* log = std::getenv("MPSREADY_TEST_HOOK_LOG");
  if (!log || !*log) return;
  const int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  const std::string line = std::to_string(getpid()) + " " + std::string(how.substr(0, how.find('\n'))) + "\n";
  (void)!write(fd, line.data(), line.size());  // one write with O_APPEND: lines never interleave
  close(fd);
}

void crash_on_marker(std::string_view frontend, std::string_view bytes) {
  const std::string marker = "mpsready-test-crash:" + std::string(frontend) + ":";
  const size_t at = bytes.find(marker);
  if (at == std::string_view::npos) return;
  const std::string_view how = bytes.substr(at + marker.size(), 5);
  log_marker(how);
  if (how.substr(0, 3) == "ill") __builtin_trap();
  if (how.substr(0, 5) == "abort") std::abort();
  if (how.substr(0, 4) == "segv") std::raise(SIGSEGV);
  if (how.substr(0, 4) == "hang")
    for (;;) pause();
}

const bool installed = [] {
  mpsready::set_test_point_hook(&crash_on_marker);
  return true;
}();

}  // namespace
