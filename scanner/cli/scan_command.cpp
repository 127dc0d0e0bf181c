#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/load_rules.h"
#include "report/scan_report.h"

namespace mpsready {

int run_scan_command(const GlobalOptions& global, const ScanCommandOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(options.path, ec)) {
    std::cerr << "mpsready: path not found: " << options.path << "\n";
    return 2;
  }
  auto loaded = load_rules(global, options.select, options.ignore, options.compile_commands);
  if (!loaded) return 2;

  ScanOptions scan;
  scan.walk.excludes = options.excludes;
  scan.walk.use_gitignore = !options.no_gitignore;
  scan.walk.max_file_size = options.max_file_size;
  scan.jobs = options.jobs;
  const ScanResult result = loaded->pipeline->scan(options.path, scan);

  const ReportContext ctx{options.path, MPSREADY_VERSION};
  std::ofstream file;
  if (!options.output.empty()) {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "mpsready: cannot write " << options.output << "\n";
      return 2;
    }
  }
  std::ostream& out = options.output.empty() ? std::cout : file;
  if (options.format == "json") write_json_report(out, result, ctx);
  else write_text_report(out, result, ctx);
  out.flush();

  if (!options.fail_on.empty()) {
    const Verdict threshold = *parse_verdict(options.fail_on);
    if (static_cast<int>(result.summary.verdict) >= static_cast<int>(threshold)) return 1;
  }
  return 0;
}

}  // namespace mpsready
