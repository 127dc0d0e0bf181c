// The reports a linter user expects besides the full text: one line per finding, GitHub Actions
// annotations, and counts per rule.
#include <algorithm>
#include <cstdio>
#include <map>

#include "core/verdict.h"
#include "report/scan_report.h"
#include "report/term_style.h"

namespace mpsready {
namespace {

// Control characters from the repository must not drive the terminal or start a line.
std::string one_line(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 && c != '\t') || u == 0x7F ? ' ' : c;
  }
  return out;
}

std::string location(const std::string& path, int cell, int line, int column) {
  std::string s = one_line(location_label(path, cell, line));
  if (column) s += ":" + std::to_string(column);
  return s;
}

// "verdict: partial (repo): 9 findings (blocker 0, portable 6, info 3); 2 suppressed"
void verdict_line(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  const Summary& s = result.summary;
  out << "verdict: " << paint_verdict(ctx.color, s.verdict) << " (" << one_line(ctx.root) << "): " << result.findings.size()
      << (result.findings.size() == 1 ? " finding" : " findings") << " (blocker " << s.by_impact.at("blocker")
      << ", portable " << s.by_impact.at("portable") << ", info " << s.by_impact.at("info") << ")";
  if (!result.suppressed.empty()) out << "; " << result.suppressed.size() << " suppressed";
  if (!result.suppression_notes.empty())
    out << "; " << result.suppression_notes.size() << " suppression problem" << (result.suppression_notes.size() == 1 ? "" : "s");
  if (const std::string incomplete = incomplete_sentence(result); !incomplete.empty()) out << "; " << incomplete;
  out << '\n';
}

void suppression_lines(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  for (const SuppressionNote& n : result.suppression_notes)
    out << location(n.path, n.cell, n.line, 0) << ": " << paint(ctx.color, "35", "warning") << ": " << one_line(n.message)
        << '\n';
}

// Workflow-command escaping (actions/toolkit's command.ts): data, and properties, which also
// escape the ':' and ',' that separate them.
std::string escape_data(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    // Repository text must not drive the log viewer (ANSI escapes) or end the command early.
    else if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F) out += ' ';
    else out += c;
  }
  return out;
}

std::string escape_property(const std::string& s) {
  std::string out;
  for (const char c : escape_data(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

// GitHub shows at most ten annotations of each level for a step.
constexpr size_t kAnnotationsPerLevel = 10;

const char* github_level(Impact impact) {
  return impact == Impact::blocker ? "error" : impact == Impact::portable ? "warning" : "notice";
}

}  // namespace

void write_concise_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  for (const Finding& f : result.findings)
    out << location(f.path, f.location.cell, f.location.line, f.location.column) << ": "
        << paint_impact(ctx.color, f.impact) << ": " << one_line(f.message) << " [" << f.rule << "]"
        << (f.guarded ? " (guarded)" : "") << (f.in_core ? "" : " (not counted)") << '\n';
  suppression_lines(out, result, ctx);
  for (const FileNote& n : result.errors)
    out << one_line(n.path) << (n.unread ? ": error: " : ": warning: ") << one_line(n.reason) << '\n';
  verdict_line(out, result, ctx);
}

void write_github_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  // Only the findings that count are annotated, the ones that decide the verdict first: GitHub
  // shows ten annotations of each level per step, and an error beside a verdict of mps-ready says
  // what the verdict does not. The rest are counted in the closing notice.
  // An informational site changes no verdict: it is counted in the notice, not annotated.
  std::vector<const Finding*> counted;
  for (const Finding& f : result.findings)
    if (decides_verdict(f, result.summary)) counted.push_back(&f);
  for (const Finding& f : result.findings)
    if (counts_for_verdict(f) && f.impact != Impact::info && !decides_verdict(f, result.summary)) counted.push_back(&f);
  std::map<std::string, size_t> per_level;
  size_t annotated = 0;
  for (const Finding* p : counted) {
    const Finding& f = *p;
    const char* level = github_level(f.impact);
    if (per_level[level]++ >= kAnnotationsPerLevel) continue;
    ++annotated;
    // A notebook's lines are lines of a cell, not of the .ipynb file: the annotation names the
    // file and the message the cell.
    out << "::" << level << " file=" << escape_property(ctx.path_prefix + f.path);
    if (!f.location.cell) {
      out << ",line=" << f.location.line << ",col=" << f.location.column;
      if (f.location.end_line) out << ",endLine=" << f.location.end_line;
      if (f.location.end_line == f.location.line && f.location.end_column)
        out << ",endColumn=" << f.location.end_column;
    }
    out << ",title=" << escape_property(f.rule) << "::";
    std::string message;
    if (f.location.cell)
      message = "cell " + std::to_string(f.location.cell) + ", line " + std::to_string(f.location.line) + ": ";
    message += f.message;
    if (f.guarded) message += " (guarded)";
    if (!f.fix.empty()) message += "\nfix: " + f.fix;
    out << escape_data(message) << '\n';
  }
  size_t notes = 0;
  for (const SuppressionNote& n : result.suppression_notes) {
    if (notes++ >= kAnnotationsPerLevel) break;
    out << "::warning file=" << escape_property(ctx.path_prefix + n.path);
    if (!n.cell) out << ",line=" << n.line;
    out << ",title=mpsready-suppression::"
        << escape_data((n.cell ? "cell " + std::to_string(n.cell) + ", line " + std::to_string(n.line) + ": " : "") + n.message)
        << '\n';
  }
  // A file nothing of which was read is an error beside the verdict; one read in part (a parse
  // problem in a C++ file read token by token) is counted in the notice.
  size_t errors = 0;
  for (const FileNote& n : result.errors) {
    if (!n.unread || errors++ >= kAnnotationsPerLevel) continue;
    out << "::error file=" << escape_property(ctx.path_prefix + n.path) << ",title=mpsready-error::" << escape_data(n.reason) << '\n';
  }
  // One notice with the totals, so that nothing left out of the annotations goes unsaid.
  const Summary& s = result.summary;
  size_t not_counted = 0;
  for (const Finding& f : result.findings) not_counted += !counts_for_verdict(f);
  std::string totals = "verdict " + std::string(to_string(s.verdict)) + ": " + std::to_string(result.findings.size()) +
                       (result.findings.size() == 1 ? " finding" : " findings") + ", " + std::to_string(counted.size()) +
                       " in the core that need a change, " + std::to_string(annotated) + " of them annotated";
  if (not_counted)
    totals += "; " + std::to_string(not_counted) + " not counted (" + std::string(kNotCountedKinds) + ")";
  if (const size_t info = result.findings.size() - counted.size() - not_counted) totals += "; " + std::to_string(info) + " informational";
  if (result.suppression_notes.size() > kAnnotationsPerLevel)
    totals += "; " + std::to_string(result.suppression_notes.size()) + " suppression problems in all";
  if (const size_t partial = result.errors.size() - unread_count(result))
    totals += "; " + std::to_string(partial) + (partial == 1 ? " file" : " files") + " analysed in part";
  if (const std::string incomplete = incomplete_sentence(result); !incomplete.empty()) totals += "; " + incomplete;
  totals += ". Every finding: mpsready scan --format concise";
  out << "::notice title=mpsready::" << escape_data(totals) << '\n';
  ReportContext plain = ctx;
  plain.color = false;  // a CI log, never a terminal
  verdict_line(out, result, plain);
}

void write_statistics_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  std::map<std::string, std::pair<size_t, Impact>> per_rule;
  for (const Finding& f : result.findings) {
    auto& [count, worst] = per_rule[f.rule];
    worst = count ? std::max(worst, f.impact) : f.impact;
    ++count;
  }
  std::vector<std::pair<std::string, std::pair<size_t, Impact>>> rows(per_rule.begin(), per_rule.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  for (const auto& [rule, counted] : rows) {
    std::string title;
    if (ctx.rules)
      for (const Rule& r : *ctx.rules)
        if (r.id == rule) title = r.title;
    char count[24];
    std::snprintf(count, sizeof count, "%6zu", counted.first);
    std::string padded = rule;
    if (padded.size() < 32) padded.resize(32, ' ');
    const std::string impact(to_string(counted.second));
    out << count << "  " << padded << " " << paint_impact(ctx.color, counted.second)
        << std::string(impact.size() < 9 ? 9 - impact.size() : 1, ' ') << one_line(title) << '\n';
  }
  suppression_lines(out, result, ctx);
  verdict_line(out, result, ctx);
}

}  // namespace mpsready
