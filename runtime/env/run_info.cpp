#include "env/run_info.h"

#include <ctime>

#include <ATen/Parallel.h>

namespace mpsready {

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);  // gmtime is not thread-safe; the POSIX one is
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

RunInfo make_run_info(const std::vector<std::string>& argv, int warmup, int iterations) {
  RunInfo info;
  info.argv = argv;
  info.started_at = iso8601_utc(std::chrono::system_clock::now());
  info.warmup = warmup;
  info.iterations = iterations;
  info.threads = at::get_num_threads();
  return info;
}

}  // namespace mpsready
