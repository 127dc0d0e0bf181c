#pragma once
// Runs the mpsready executable ($MPSREADY_BIN) as a user would, through the shell, and captures
// its output and exit code.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mpsready::testing {

struct CliRun {
  int code = -1;
  std::string out;  // stdout, and stderr unless left out
};

// Single-quotes `s` for the shell.
inline std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command line and captures what it writes to stdout, and its exit code.
inline CliRun run_shell(const std::string& cmd) {
  CliRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  const int status = pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// `args` are appended to the executable's path as they are (quote paths with quote());
// `redirect` decides what is captured (" 2>&1": both streams, " 2>/dev/null": stdout alone,
// " 2>&1 >/dev/null": stderr alone).
inline CliRun mpsready_redirected(const std::string& args, const std::string& redirect, const std::string& prefix = "") {
  const char* bin = std::getenv("MPSREADY_BIN");
  return run_shell(prefix + quote(bin ? bin : "mpsready") + " " + args + redirect);
}

inline CliRun mpsready(const std::string& args, bool with_stderr = true, const std::string& prefix = "") {
  return mpsready_redirected(args, with_stderr ? " 2>&1" : " 2>/dev/null", prefix);
}

}  // namespace mpsready::testing
