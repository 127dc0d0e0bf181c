#pragma once
// `mpsready audit`: the scan and a smoke run together.
#include <string>

#include "cli/commands.h"
#include "cli/smoke_command.h"

namespace mpsready {

struct AuditCommandOptions {
  ScanCommandOptions scan;  // scan.path is the repository
  SmokeCommandOptions smoke;
};

int run_audit_command(const GlobalOptions& global, AuditCommandOptions& options, const std::string& version);

}  // namespace mpsready
