#pragma once
// How a run was asked for and when: enough to repeat it and to order records in a ledger.
#include <chrono>
#include <string>
#include <vector>

namespace mpsready {

struct RunInfo {
  std::vector<std::string> argv;  // the command line as given (empty for a library call)
  std::string started_at;         // ISO-8601 UTC to the second, e.g. 2026-12-04T06:40:00Z
  int warmup = 0;
  int iterations = 0;
  int threads = 0;                // at::get_num_threads(): CPU timings depend on it
};

RunInfo make_run_info(const std::vector<std::string>& argv, int warmup, int iterations);

// "YYYY-MM-DDTHH:MM:SSZ" of `t` in UTC.
std::string iso8601_utc(std::chrono::system_clock::time_point t);

}  // namespace mpsready
