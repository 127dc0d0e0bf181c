#pragma once
// Reporters for a scan: one function per output format.
#include <ostream>
#include <string>

#include "engine/scanner.h"

namespace mpsready {

struct ReportContext {
  std::string root;     // the path as the user gave it
  std::string version;  // tool version
};

// Compiler-style lines, then the verdict and its reasons.
void write_text_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// One JSON document (schema: docs/json-output.md); keys in a fixed order.
void write_json_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);

}  // namespace mpsready
