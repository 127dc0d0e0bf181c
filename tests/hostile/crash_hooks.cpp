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

#include <unistd.h>

#include "engine/test_point.h"

namespace {

void crash_on_marker(std::string_view frontend, std::string_view bytes) {
  const std::string marker = "mpsready-test-crash:" + std::string(frontend) + ":";
  const size_t at = bytes.find(marker);
  if (at == std::string_view::npos) return;
  const std::string_view how = bytes.substr(at + marker.size(), 5);
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
