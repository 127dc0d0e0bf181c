#include "cli/scan_json_report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <stdlib.h>
#include <unistd.h>

namespace mpsready {

namespace {

// The scan command writes its report to a file; a private temporary one, removed afterwards.
struct TempFile {
  std::string path;
  TempFile() {
    std::string name = (std::filesystem::temp_directory_path() / "mpsready-audit-XXXXXX").string();
    const int fd = mkstemp(name.data());
    if (fd >= 0) {
      close(fd);
      path = name;
    }
  }
  ~TempFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

}  // namespace

int scan_json_report(const GlobalOptions& global, ScanCommandOptions options, nlohmann::json& report) {
  TempFile file;
  if (file.path.empty()) {
    std::cerr << "mpsready: audit: cannot create a temporary file\n";
    return 2;
  }
  options.format = "json";
  options.output = file.path;
  options.reports.clear();
  options.fail_on.clear();
  const int status = run_scan_command(global, options);
  if (status == 2) return 2;
  try {
    std::ifstream in(file.path);
    report = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    std::cerr << "mpsready: audit: the scan wrote no readable report\n";
    return 2;
  }
  return status;
}

}  // namespace mpsready
