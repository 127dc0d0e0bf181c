#include "report/sweep_files.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace mpsready {

namespace {

std::string num(double v, int precision = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

std::string cell(const std::optional<double>& v) { return v ? num(*v, 6) : ""; }

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// One panel: a polyline of (batch, value) on a log2 batch axis.
void panel(std::ostringstream& svg, const std::vector<SweepRow>& rows, double (*value)(const SweepRow&),
           const std::string& label, int top, const char* colour) {
  const int left = 70, width = 480, height = 160;
  double max_v = 0;
  for (const auto& r : rows) max_v = std::max(max_v, value(r));
  if (max_v <= 0) max_v = 1;
  const double min_b = std::log2(static_cast<double>(std::max<int64_t>(1, rows.front().batch_size)));
  const double max_b = std::log2(static_cast<double>(std::max<int64_t>(1, rows.back().batch_size)));
  const double span = std::max(1e-9, max_b - min_b);
  auto x = [&](int64_t b) { return left + (rows.size() == 1 ? width / 2.0 : (std::log2(double(std::max<int64_t>(1, b))) - min_b) / span * width); };
  auto y = [&](double v) { return top + height - v / max_v * height; };
  svg << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << width << "\" height=\"" << height
      << "\" fill=\"none\" stroke=\"#999\"/>\n";
  svg << "<text x=\"" << left << "\" y=\"" << top - 6 << "\" font-size=\"12\">" << escape_xml(label) << " (max "
      << num(max_v) << ")</text>\n";
  svg << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
  for (const auto& r : rows) svg << num(x(r.batch_size), 6) << "," << num(y(value(r)), 6) << " ";
  svg << "\"/>\n";
  for (const auto& r : rows) {
    svg << "<circle cx=\"" << num(x(r.batch_size), 6) << "\" cy=\"" << num(y(value(r)), 6) << "\" r=\"3\" fill=\""
        << colour << "\"/>\n";
    svg << "<text x=\"" << num(x(r.batch_size), 6) << "\" y=\"" << top + height + 14
        << "\" font-size=\"10\" text-anchor=\"middle\">" << r.batch_size << "</text>\n";
  }
}

}  // namespace

std::string sweep_csv(const std::vector<SweepRow>& rows) {
  std::ostringstream out;
  out << "batch_size,step_ms_p50,step_ms_p95,throughput_per_s,memory_current_bytes,memory_peak_bytes,memory_kind,"
         "memory_peak_method,error\n";
  for (const auto& r : rows) {
    // A row that failed has no timings and no memory: empty cells, never a 0 that looks measured.
    const bool measured = r.step_ms_p50.has_value();
    out << r.batch_size << "," << cell(r.step_ms_p50) << "," << cell(r.step_ms_p95) << "," << cell(r.throughput_per_s)
        << "," << (measured ? std::to_string(r.memory.current) : "") << ","
        << (measured ? std::to_string(r.memory.peak) : "") << "," << csv_field(r.memory.kind) << ","
        << csv_field(r.memory.peak_method) << "," << csv_field(r.error.substr(0, r.error.find('\n'))) << "\n";
  }
  return out.str();
}

std::string sweep_svg(const std::vector<SweepRow>& all_rows, const std::string& title) {
  std::vector<SweepRow> rows;
  for (const auto& r : all_rows)
    if (r.error.empty() && r.step_ms_p50 && r.throughput_per_s) rows.push_back(r);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"480\" font-family=\"sans-serif\">\n";
  svg << "<text x=\"10\" y=\"20\" font-size=\"14\">" << escape_xml(title) << "</text>\n";
  if (rows.empty()) {
    svg << "<text x=\"10\" y=\"60\" font-size=\"12\">no batch size ran</text>\n</svg>\n";
    return svg.str();
  }
  panel(svg, rows, [](const SweepRow& r) { return *r.throughput_per_s; }, "throughput (samples/s)", 50, "#1f77b4");
  panel(svg, rows, [](const SweepRow& r) { return *r.step_ms_p50; }, "median step time (ms)", 270, "#d62728");
  svg << "<text x=\"300\" y=\"470\" font-size=\"11\" text-anchor=\"middle\">batch size</text>\n</svg>\n";
  return svg.str();
}

}  // namespace mpsready
