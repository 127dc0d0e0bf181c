#pragma once
// A smoke run: load the lab's TorchScript model, run it briefly on the chosen device next to a
// reference device, and observe everything the record reports.
#include <string>

#include "smoke/smoke_options.h"
#include "smoke/smoke_result.h"

namespace mpsready {

struct SmokeRun {
  // Non-empty: the run could not start (bad model file, bad input, unusable device): exit 2.
  std::string usage_error;
  SmokeResult result;
};

SmokeRun run_smoke(const SmokeOptions& options);

// The fresh-process half of the repeatability check: load, run forward once with the same seed
// and device, print one SHA-256 per output on stdout. Returns the exit code.
int print_output_hashes(const SmokeOptions& options);

}  // namespace mpsready
