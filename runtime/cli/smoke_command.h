#pragma once
// `mpsready smoke MODEL.pt --input ...` and `mpsready audit REPO --model MODEL.pt --input ...`:
// the LibTorch smoke run, on its own or next to the scan. Shared by the full executable and the
// runtime-only build (which has no scanner), so nothing here depends on the scanner's libraries.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "smoke/smoke_options.h"

namespace mpsready {

struct SmokeCommandOptions {
  SmokeOptions run;
  std::string format = "text";  // text | json
  std::string output;           // -o FILE ("" = stdout)
  std::vector<std::string> tolerances;  // --tolerance DTYPE=ATOL,RTOL
  std::string sweep;                    // --sweep 1,2,4,8
  bool no_fresh_process = false;
  bool print_output_hashes = false;     // hidden: the fresh-process half of the repeat check
};

// Adds the smoke options to `cmd`; the model is positional for `smoke`, `--model` for `audit`.
void add_smoke_options(CLI::App& cmd, SmokeCommandOptions& options, bool model_positional);

int run_smoke_command(const char* argv0, SmokeCommandOptions& options, const std::string& version);

// Turns the command options into the run's options: parses --sweep and --tolerance and sets up
// the fresh-process check. Returns an error message or "".
std::string finish_smoke_options(const char* argv0, SmokeCommandOptions& options);

}  // namespace mpsready
