// `mpsready audit REPO --model M.pt --input ...`: the scan's static verdict and a smoke run of the
// repository's exported model, side by side, and whether the run confirmed the verdict. The scan
// is the scan command itself (same configuration, rules and options), asked for its JSON report.
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/audit_command.h"
#include "report/confirmation.h"
#include "report/smoke_record.h"
#include "smoke/smoke_run.h"

namespace mpsready {

int run_audit_command(const char* argv0, AuditCommandOptions& options, const std::string& version,
                      const ScanReport& scan) {
  if (auto error = finish_smoke_options(argv0, options.smoke); !error.empty()) {
    std::cerr << "mpsready: " << error << "\n";
    return 2;
  }
  nlohmann::json scan_json;
  if (const int status = scan(scan_json); status == 2) return 2;
  const std::string verdict = scan_json.value("verdict", "");

  SmokeRun run = run_smoke(options.smoke.run);
  if (!run.usage_error.empty()) {
    std::cerr << "mpsready: " << run.usage_error << "\n";
    return 2;
  }
  const Confirmation confirmation = confirm(run.result, verdict);
  const std::string& format = options.smoke.format;
  std::ofstream file;
  if (!options.smoke.output.empty()) {
    file.open(options.smoke.output, std::ios::trunc);
    if (!file) {
      std::cerr << "mpsready: cannot write " << options.smoke.output << "\n";
      return 2;
    }
  }
  std::ostream& out = options.smoke.output.empty() ? std::cout : file;
  if (format == "json") {
    nlohmann::json j;
    j["schema_version"] = 1;
    j["tool"] = {{"name", "mpsready"}, {"version", version}};
    j["static"] = {{"root", scan_json.value("root", "")},
                   {"verdict", verdict},
                   {"reasons", scan_json.value("reasons", nlohmann::json::array())},
                   {"summary", scan_json.value("summary", nlohmann::json::object())}};
    j["smoke"] = smoke_record(run.result, confirmation, version);
    j["confirmation"] = {{"static_verdict", verdict}, {"status", confirmation.status}, {"reasons", confirmation.reasons}};
    out << j.dump(2) << "\n";
  } else {
    out << "static  " << options.path << ": " << verdict << "\n";
    for (const auto& reason : scan_json.value("reasons", nlohmann::json::array()))
      out << "        " << reason.value("rule", "") << " (" << reason.value("impact", "") << ", "
          << reason.value("count", 0) << ")\n";
    write_smoke_text(out, run.result, confirmation);
  }
  out.flush();
  return smoke_failed(run.result, confirmation) ? 1 : 0;
}

}  // namespace mpsready
