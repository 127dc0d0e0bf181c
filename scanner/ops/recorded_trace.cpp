#include "ops/recorded_trace.h"

#include <charconv>
#include <sstream>

namespace mpsready {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    const size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

// "# op\tcaller\tcount (LibTorch 2.11.0)" -> "2.11.0".
std::string version_of_header(const std::string& line) {
  const std::string marker = "(LibTorch ";
  const size_t at = line.find(marker);
  if (at == std::string::npos) return "";
  const size_t end = line.find(')', at);
  if (end == std::string::npos) return "";
  return line.substr(at + marker.size(), end - at - marker.size());
}

bool is_qualified_op(const std::string& name) { return name.rfind("aten::", 0) == 0 && name.size() > 6; }

}  // namespace

RecordedTrace parse_recorded_trace(const std::string& text) {
  RecordedTrace trace;
  std::istringstream in(text);
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (trace.torch_version.empty()) trace.torch_version = version_of_header(line);
      continue;
    }
    const auto fields = split_tabs(line);
    const std::string where = "line " + std::to_string(number) + ": ";
    if (fields.size() != 3) {
      trace.error = where + "expected three tab-separated fields (op, caller, count), as mpsready-trace-ops writes";
      return trace;
    }
    TracedCall call;
    call.op = fields[0];
    call.caller = fields[1] == "-" ? "" : fields[1];
    if (!is_qualified_op(call.op) || (!call.caller.empty() && !is_qualified_op(call.caller))) {
      trace.error = where + "ops are named aten::name or aten::name.overload (the caller \"-\" for the model's code)";
      return trace;
    }
    const std::string& count = fields[2];
    const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), call.count);
    if (ec != std::errc() || end != count.data() + count.size() || call.count == 0) {
      trace.error = where + "the count must be a positive whole number, not \"" + count + "\"";
      return trace;
    }
    trace.calls.push_back(std::move(call));
  }
  if (trace.calls.empty()) trace.error = "the trace lists no calls";
  return trace;
}

}  // namespace mpsready
