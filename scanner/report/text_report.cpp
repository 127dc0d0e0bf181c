#include "report/scan_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "core/verdict.h"
#include "report/term_style.h"

namespace mpsready {
namespace {

// More findings than this, and the text report lists only those that decide the verdict.
constexpr size_t kListedInFull = 50;

// Control characters from the repository (in paths too) must not drive the terminal or start a
// line of their own.
std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 && c != '\t') || u == 0x7F ? '?' : c;
  }
  return out;
}

// One reason (or gap): the rule, its count, the first message and where.
void write_reason(std::ostream& out, const Reason& r) {
  out << "    - " << r.rule << " (" << r.count << (r.count == 1 ? " site" : " sites") << "): "
      << printable(r.text) << "\n      at ";
  for (size_t i = 0; i < r.locations.size(); ++i) out << (i ? ", " : "") << printable(r.locations[i]);
  if (r.count > r.locations.size()) out << ", and " << (r.count - r.locations.size()) << " more";
  out << '\n';
}

}  // namespace

void write_text_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  // A large result (a repository with thousands of sites in examples and research code) lists in
  // full only the findings that decide the verdict; the rest is counted per rule, with whether it
  // is in the core, and the option that lists every one. A small result is listed whole.
  const bool abridged = !ctx.all_findings && result.findings.size() > kListedInFull;
  std::map<std::string, std::pair<size_t, size_t>> rest;  // rule -> (in the core, not counted)
  for (const Finding& f : result.findings) {
    if (abridged && !decides_verdict(f, result.summary)) {
      auto& [core, other] = rest[f.rule];
      ++(counts_for_verdict(f) ? core : other);
      continue;
    }
    out << printable(location_label(f)) << ':' << f.location.column << ": " << paint_impact(ctx.color, f.impact) << ": "
        << printable(f.message) << " [" << f.rule << "]" << (f.guarded ? " (guarded)" : "") << '\n';
    out << "    " << printable(f.snippet) << '\n';
    if (!f.in_core) out << "    not counted for the verdict: " << printable(f.context) << '\n';
    out << "    fix: " << printable(f.fix) << '\n';
  }
  if (!rest.empty()) {
    size_t total = 0;
    for (const auto& [rule, counts] : rest) total += counts.first + counts.second;
    out << "\n" << total << " more findings that do not decide the verdict (`mpsready scan --all` lists them, "
        << "`--format concise` one line each):\n";
    std::vector<std::pair<std::string, std::pair<size_t, size_t>>> rows(rest.begin(), rest.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.second.first + a.second.second > b.second.first + b.second.second;
    });
    for (const auto& [rule, counts] : rows) {
      char count[24];
      std::snprintf(count, sizeof count, "%6zu", counts.first + counts.second);
      out << count << "  " << rule << " (" << counts.first << " in the core, " << counts.second << " not counted)\n";
    }
  }
  // A file nothing of which was read is an error; one read in part (a parse problem, a file read
  // token by token) is a warning: its findings are reported.
  for (const FileNote& n : result.errors)
    out << printable(n.path) << (n.unread ? ": error: " : ": warning: ") << printable(n.reason) << '\n';
  for (const FileNote& n : result.skipped) out << printable(n.path) << ": skipped: " << printable(n.reason) << '\n';
  // Suppression comments that name no rule or suppress nothing (README "Suppressions").
  for (const SuppressionNote& n : result.suppression_notes) {
    out << printable(location_label(n.path, n.cell, n.line)) << ": " << paint(ctx.color, "35", "warning") << ": " << printable(n.message) << '\n';
  }

  const Summary& s = result.summary;
  if (!result.findings.empty() || !result.errors.empty() || !result.skipped.empty() ||
      !result.suppression_notes.empty())
    out << '\n';
  out << "verdict: " << paint_verdict(ctx.color, s.verdict) << " (" << ctx.root << ")\n";
  if (const std::string incomplete = incomplete_sentence(result); !incomplete.empty())
    out << "  " << paint(ctx.color, "31", incomplete) << " (listed above as errors): the verdict is that of the rest\n";
  if (!ctx.target_pytorch.empty()) out << "  target PyTorch: " << ctx.target_pytorch << "\n";
  if (ctx.diff) {
    out << "  diff against " << printable(ctx.diff->base) << " (" << ctx.diff->base_commit.substr(0, 12)
        << "): " << to_string(ctx.diff->before) << " -> " << to_string(ctx.diff->after) << "; only the findings the change adds are listed\n"
        << "  " << printable(ctx.diff->change) << "\n";
    if (const std::string warning = diff_warning(*ctx.diff); !warning.empty())
      out << "  " << paint(ctx.color, "35", "warning") << ": " << printable(warning) << "\n";
  }
  if (ctx.baselined) {
    out << "  baseline: " << *ctx.baselined << " known findings left out";
    if (result.tree_verdict != s.verdict) out << "; with them the verdict is " << to_string(result.tree_verdict);
    out << "\n";
  }
  if (s.reasons.empty()) {
    out << "  no blocker or portable findings in the core";
    const size_t info = s.by_impact.count("info") ? s.by_impact.at("info") : 0;
    if (info) out << "; " << info << " informational";
    out << '\n';
  } else {
    out << "  because:\n";
    for (const Reason& r : s.reasons) {
      write_reason(out, r);
      if (!r.context.empty()) out << "      " << printable(r.context) << '\n';
    }
  }
  if (!s.gaps.empty()) {
    out << "  gaps in corners of a core that selects MPS (they do not decide the verdict):\n";
    for (const Reason& r : s.gaps) write_reason(out, r);
  }
  if (s.outside_core)
    out << "  not counted: " << s.outside_core << (s.outside_core == 1 ? " finding" : " findings")
        << " outside the core (" << kNotCountedKinds
        << (s.gaps.empty() ? "" : ", the gaps above") << ")\n";
  if (!s.components.empty()) {
    out << "  components" << (s.collection ? " (a collection of independent examples: the verdict combines them)" : "")
        << ":\n";
    for (const ComponentSummary& c : s.components) {
      out << "    " << printable(c.name) << " [" << c.role << "]: " << to_string(c.verdict);
      if (!c.reason.empty()) out << " (" << printable(c.reason) << ")";
      if (c.outside_core) out << "; optional or guarded paths: " << to_string(c.outside_core_verdict);
      out << '\n';
    }
  }
  // Evidence, kind by kind (the model sorts it by kind): never a substitute for the findings.
  static const std::pair<const char*, const char*> kKinds[] = {
      {"selects-mps", "code that selects or handles MPS"},
      {"mps-aware", "code that knows MPS (an MPS helper or class, an MPS switch, torch.accelerator)"},
      {"cpu-fallback", "pure-PyTorch or CPU alternatives to compiled ops"},
      {"mps-kernel", "extension operators implemented for MPS"},
      {"docs-mps", "documentation that mentions MPS or Apple Silicon"},
      {"ci-macos", "CI jobs on macOS"},
      {"docs-requires-cuda", "documentation that requires CUDA or an NVIDIA GPU"},
      {"docs-linux-only", "documentation that lists Linux as the operating system, and no Mac"},
      {"mps-stub", "code for MPS that only raises or returns None (no MPS support)"}};
  for (const auto& [kind, label] : kKinds) {
    std::vector<const EvidenceFact*> seen;
    for (const EvidenceFact& e : s.evidence)
      if (e.kind == kind) seen.push_back(&e);
    if (seen.empty()) continue;
    out << "  evidence, " << label << ":";
    for (size_t i = 0; i < seen.size() && i < 3; ++i)
      out << (i ? ", " : " ") << printable(seen[i]->path) << ":" << seen[i]->line;
    if (seen.size() > 3) out << ", and " << seen.size() - 3 << " more";
    out << '\n';
  }
  out << "  findings: " << result.findings.size() << " (blocker " << s.by_impact.at("blocker")
      << ", portable " << s.by_impact.at("portable") << ", info " << s.by_impact.at("info") << "; "
      << s.guarded << " guarded)\n";
  if (!result.suppressed.empty()) {
    out << "  suppressed: " << result.suppressed.size()
        << " (by mpsready: ignore[...] comments or per_file_ignores; not counted above)\n";
  }
  if (!s.by_category.empty()) {
    out << "  by category:";
    bool first = true;
    for (const auto& [category, count] : s.by_category) {
      out << (first ? " " : ", ") << category << ' ' << count;
      first = false;
    }
    out << '\n';
  }
  out << "  effort: " << s.effort.sites << " sites to change, " << s.effort.mechanical
      << " mechanical, " << s.effort.manual << " need a rewrite or a replacement";
  if (s.effort.rewrite_files)
    out << "; " << s.effort.rewrite_files << (s.effort.rewrite_files == 1 ? " C++/CUDA file" : " C++/CUDA files")
        << " to rewrite";
  char hours[32];
  std::snprintf(hours, sizeof hours, "%.1f", s.effort.hours);
  out << " (about " << hours << " hours)\n";
  out << "  files: " << result.files_scanned << " scanned, " << result.skipped.size() << " skipped, "
      << result.errors.size() << " with errors (" << unread_count(result) << " not read)\n";
}

}  // namespace mpsready
