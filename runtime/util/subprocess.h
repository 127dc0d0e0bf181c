#pragma once
// Runs a program with arguments (no shell) and captures its standard output; and the path of the
// running executable, for re-running it in a fresh process.
#include <string>
#include <vector>

namespace mpsready {

struct ProcessOutput {
  int exit_code = -1;  // -1: could not start, or killed by a signal
  std::string out;
};

ProcessOutput run_capture(const std::string& program, const std::vector<std::string>& args);

// /proc/self/exe on Linux, _NSGetExecutablePath on macOS; `argv0` when neither works.
std::string self_executable(const char* argv0);

}  // namespace mpsready
