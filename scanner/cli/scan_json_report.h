#pragma once
// The scan command asked for its JSON report in memory: what `mpsready audit` compares the smoke
// run with (runtime/cli/audit_command.h). Same configuration, rules and options as `scan`.
#include <nlohmann/json.hpp>

#include "cli/commands.h"

namespace mpsready {

// Runs the scan with `options` (its format, output and --fail-on replaced) and parses its report
// into `report`. Returns the scan's exit code, or 2 with a message when no report was written.
int scan_json_report(const GlobalOptions& global, ScanCommandOptions options, nlohmann::json& report);

}  // namespace mpsready
