#pragma once
// `mpsready audit`: the scan and a smoke run together. The scan is the scanner's own scan command,
// handed in as a function, so the runtime does not depend on the scanner's CLI.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/smoke_command.h"

namespace mpsready {

struct AuditCommandOptions {
  std::string path;  // the repository, as given
  SmokeCommandOptions smoke;
};

// Runs the scan and fills its JSON report; returns the scan command's exit code (2: no report).
using ScanReport = std::function<int(nlohmann::json& report)>;

int run_audit_command(const char* argv0, AuditCommandOptions& options, const std::string& version,
                      const ScanReport& scan);

}  // namespace mpsready
