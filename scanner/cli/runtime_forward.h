#pragma once
// The scanner executable (`mpsready`) does not link LibTorch, so that `scan` and `rules` start in
// milliseconds and use little memory. The subcommands that load models (`smoke`, `ops`, `audit`)
// live in a sibling executable, `mpsready-runtime`, built from the same CLI with LibTorch; the
// scanner hands those command lines over to it unchanged.
#include <optional>
#include <string>

#include "cli/runtime_subcommands.h"  // runtime/cli: the runtime's subcommands, listed here too

namespace mpsready {

// The runtime subcommand named on this command line ("smoke", "ops" or "audit"), or nothing.
// Global options may come first (`mpsready --rules DIR audit ...`); `--help` and `--version`
// before any subcommand stay with the scanner.
std::optional<std::string> runtime_subcommand(int argc, char** argv);

// Replaces this process with `mpsready-runtime` (beside this executable) and the same arguments.
// Returns only when that fails, with exit code 2 after a message that says what to do.
int forward_to_runtime(int argc, char** argv, const std::string& subcommand);

}  // namespace mpsready
