// The migration plan: one self-contained HTML file (inline CSS and SVG, no script, and a
// Content-Security-Policy that forbids every request), for a reader deciding what to do with the
// repository: the verdict and its reasons, a decision table of the four ways to run it, where the
// findings are, an effort estimate, and an ordered checklist.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>

#include "report/report_text.h"
#include "report/scan_report.h"

namespace mpsready {

namespace {

std::string esc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += (u < 0x20 && c != '\t' && c != '\n') || u == 0x7F ? "\uFFFD" : std::string(1, c);
    }
  }
  return out;
}

// Message text as rule data writes it: inline Markdown code spans (`x.cuda()`) become <code>,
// everything else is escaped. An unpaired backtick stays a backtick.
std::string md(std::string_view text) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t open = text.find('`', at);
    const size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) {
      out += esc(text.substr(at));
      break;
    }
    out += esc(text.substr(at, open - at));
    out += "<code>" + esc(text.substr(open + 1, close - open - 1)) + "</code>";
    at = close + 1;
  }
  return out;
}

// A rule id kept on one line: hyphens are no place to break it.
std::string rule_id(std::string_view id) { return "<code class=\"rule\">" + esc(id) + "</code>"; }

// The scanned root by its folder name: the scanning machine's absolute path is nobody's business
// in a plan that is shared.
std::string root_name(const ReportContext& ctx) {
  std::string r = shared_root_label(ctx.root, ctx.name);
  if (r == ".") return "this repository";
  const size_t slash = r.rfind('/');
  return slash == std::string::npos || r.size() == 1 ? r : r.substr(slash + 1);
}

std::string top_directory(const std::string& path) {
  const size_t slash = path.find('/');
  return slash == std::string::npos ? "(root)" : path.substr(0, slash) + "/";
}

const Rule* find_rule(const ReportContext& ctx, const std::string& id) {
  if (!ctx.rules) return nullptr;
  for (const Rule& r : *ctx.rules)
    if (r.id == id) return &r;
  return nullptr;
}

// Findings of one rule at one impact: a checklist item.
struct Group {
  std::string rule;
  Impact impact = Impact::info;
  bool mechanical = false;
  std::vector<const Finding*> sites;
};

constexpr const char* kStyle = R"CSS(
body{font:15px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:1080px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600}
.v-stay-on-linux{background:#cf222e}.v-partial{background:#bf8700}.v-mps-ready{background:#1a7f37}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #d0d7de;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
code{font:13px ui-monospace,Menlo,Consolas,monospace;background:#f6f8fa;padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
code.rule{white-space:nowrap;overflow-wrap:normal}
.blocker{color:#cf222e;font-weight:600}.portable{color:#9a6700;font-weight:600}.info{color:#57606a}
ol.checklist li{margin:8px 0}.muted{color:#57606a}.bar-label{font:12px sans-serif;fill:#1f2328}
)CSS";

// One reason (or gap) as a list item: the rule, its count, the first message and where.
void write_reason_item(std::ostream& out, const Reason& r) {
  out << "<li>" << rule_id(r.rule) << " (" << plural(r.count, "site", "sites") << "): " << md(r.text)
      << "<br><span class=\"muted\">at ";
  for (size_t i = 0; i < r.locations.size(); ++i) out << (i ? ", " : "") << esc(r.locations[i]);
  if (r.count > r.locations.size()) out << ", and " << (r.count - r.locations.size()) << " more";
  out << "</span></li>\n";
}

}  // namespace

void write_html_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  const Summary& s = result.summary;
  const std::string verdict(to_string(s.verdict));
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>mpsready migration plan: " << esc(root_name(ctx)) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<main>\n";

  // 1. Verdict and reasons.
  out << "<h1>Migration plan for <code>" << esc(root_name(ctx)) << "</code></h1>\n";
  out << "<p>Verdict: <span class=\"verdict v-" << verdict << "\" id=\"verdict\">" << verdict << "</span> ";
  switch (s.verdict) {
    case Verdict::stay_on_linux: out << "Some code cannot run on a Mac without a rewrite or a replacement."; break;
    case Verdict::partial: out << "The code runs on Apple's MPS backend after the changes below."; break;
    case Verdict::mps_ready: out << "Nothing keeps this code on CUDA."; break;
  }
  out << "</p>\n<p class=\"muted\">" << plural(result.findings.size(), "finding", "findings") << " in "
      << plural(result.files_scanned, "scanned file", "scanned files") << " (blocker " << s.by_impact.at("blocker")
      << ", portable " << s.by_impact.at("portable") << ", info " << s.by_impact.at("info") << "; " << s.guarded
      << " guarded";
  if (!result.suppressed.empty()) out << ", " << result.suppressed.size() << " suppressed";
  out << ")";
  if (!ctx.target_pytorch.empty()) out << " · target PyTorch " << esc(ctx.target_pytorch);
  out << " · mpsready " << esc(ctx.version) << "</p>\n";
  if (!s.reasons.empty()) {
    out << "<h2>Why</h2>\n<ul>\n";
    for (const Reason& r : s.reasons) write_reason_item(out, r);
    out << "</ul>\n";
  }
  if (!s.gaps.empty()) {
    out << "<h2>Gaps</h2>\n<p>Portable sites in a few corners of a core that selects MPS itself; they do not "
           "decide the verdict.</p>\n<ul>\n";
    for (const Reason& r : s.gaps) write_reason_item(out, r);
    out << "</ul>\n";
  }
  // What `mpsready fix` would change, when it ran: the verdicts and the sites left for a person.
  if (ctx.fix) {
    const FixDigest& fix = *ctx.fix;
    out << "<h2>Mechanical fixes</h2>\n<p id=\"fix\"><code>mpsready fix</code>: " << to_string(fix.before) << " \u2192 "
        << to_string(fix.after) << ": " << plural(fix.sites_fixed, "site", "sites") << " fixed in "
        << plural(fix.files, "file", "files") << ", " << fix.need_a_human.size()
        << (fix.need_a_human.size() == 1 ? " needs" : " need") << " a human.";
    if (!fix.needs_pytorch.empty()) out << " The fixed code needs PyTorch " << esc(fix.needs_pytorch) << " or newer.";
    out << "</p>\n";
    if (!fix.need_a_human.empty()) {
      out << "<ul id=\"fix-left\">\n";
      for (const FixDigestSite& site : fix.need_a_human) {
        out << "<li>" << esc(location_label(site.path, site.cell, site.line)) << " " << rule_id(site.rule) << ": " << esc(site.reason) << "</li>\n";
      }
      out << "</ul>\n";
    }
  }
  // Components, as the assessment judged them.
  if (!s.components.empty()) {
    out << "<h2>Components</h2>\n";
    if (s.collection) out << "<p>A collection of independent examples: the verdict combines theirs.</p>\n";
    out << "<table id=\"components\">\n<tr><th>component</th><th>role</th><th>verdict</th><th>deciding finding</th></tr>\n";
    for (const ComponentSummary& c : s.components) {
      out << "<tr><td><code>" << esc(c.name) << "</code></td><td>" << esc(c.role) << "</td><td>" << to_string(c.verdict);
      if (c.outside_core) out << " <span class=\"muted\">(optional paths: " << to_string(c.outside_core_verdict) << ")</span>";
      out << "</td><td>" << md(c.reason) << "</td></tr>\n";
    }
    out << "</table>\n";
  }

  // Groups for the decision table and the checklist.
  std::map<std::pair<int, std::string>, Group> groups;  // (-impact, rule)
  for (const Finding& f : result.findings) {
    Group& g = groups[{-static_cast<int>(f.impact), f.rule}];
    g.rule = f.rule;
    g.impact = f.impact;
    g.mechanical = g.mechanical || f.mechanical;
    g.sites.push_back(&f);
  }
  // What blocks is what the summary counted: blockers outside the core (tests, optional paths)
  // keep nothing on Linux.
  const size_t blockers = s.core_blockers, portable = s.by_impact.at("portable");
  const auto rule_list = [&]() {
    std::string text;
    for (const auto& id : s.core_blocker_rules) text += (text.empty() ? "" : ", ") + rule_id(id);
    return text;
  };

  // 2. Decision table.
  out << "<h2>Where can it run?</h2>\n<table id=\"decision\">\n<tr><th>target</th><th>what works</th><th>what blocks</th><th>what it would take</th></tr>\n";
  out << "<tr><td><b>MPS</b> (Apple GPU, PyTorch)</td><td>"
      << (blockers ? "Everything outside the blocked code paths" : "The whole code, after the edits listed")
      << "; " << plural(s.guarded, "guarded site already falls", "guarded sites already fall") << " back.</td><td>"
      << (blockers ? plural(blockers, "blocker", "blockers") + ": " + rule_list() : std::string("nothing"))
      << "</td><td>" << plural(s.effort.mechanical, "mechanical edit", "mechanical edits") << " and "
      << plural(s.effort.manual, "rewrite or replacement", "rewrites or replacements") << " (checklist below).</td></tr>\n";
  out << "<tr><td><b>CPU</b> (any Mac)</td><td>The same code as on MPS once the device is chosen at run time; slower.</td><td>"
      << (blockers ? "The same " + plural(blockers, "blocker", "blockers") + ": CUDA-only code has no CPU path either" : std::string("nothing"))
      << "</td><td>The same edits as for MPS (" << plural(portable + s.by_impact.at("blocker"), "site", "sites") << ").</td></tr>\n";
  out << "<tr><td><b>MLX</b> (Apple's array framework)</td><td>Nothing as it is: MLX is not PyTorch.</td><td>Every PyTorch call, not only the "
      << plural(result.findings.size(), "finding", "findings") << "</td><td>A port of the model and the training loop to MLX; worth it only for a new code base.</td></tr>\n";
  out << "<tr><td><b>Remote Linux GPU</b></td><td>Everything, unchanged.</td><td>nothing</td><td>An NVIDIA machine (cluster or cloud); develop on the Mac, run there.</td></tr>\n</table>\n";

  // 3. Where the findings are: per top-level directory (inline SVG bars), then per file.
  std::map<std::string, std::array<size_t, 3>> by_dir, by_file;
  for (const Finding& f : result.findings) {
    const size_t column = 2 - static_cast<size_t>(f.impact);
    ++by_dir[top_directory(f.path)][column];
    ++by_file[f.path][column];
  }
  if (!by_dir.empty()) {
    size_t most = 1;
    for (const auto& [dir, c] : by_dir) most = std::max(most, c[0] + c[1] + c[2]);
    const int row = 26, label = 220, width = 560;
    out << "<h2>Where the findings are</h2>\n<svg id=\"by-directory\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label + width + 60
        << "\" height=\"" << row * static_cast<int>(by_dir.size()) + 30 << "\" role=\"img\" aria-label=\"findings per directory\">\n";
    int y = 0;
    static const char* colors[3] = {"#cf222e", "#d4a72c", "#8c959f"};
    for (const auto& [dir, c] : by_dir) {
      out << "<text class=\"bar-label\" x=\"0\" y=\"" << y + 17 << "\">" << esc(dir) << "</text>\n";
      double x = label;
      for (int k = 0; k < 3; ++k) {
        const double w = static_cast<double>(c[k]) * width / static_cast<double>(most);
        if (c[k]) {
          out << "<rect x=\"" << static_cast<int>(x) << "\" y=\"" << y + 4 << "\" width=\"" << std::max(1, static_cast<int>(w))
              << "\" height=\"" << row - 8 << "\" fill=\"" << colors[k] << "\"><title>" << c[k] << "</title></rect>\n";
        }
        x += w;
      }
      out << "<text class=\"bar-label\" x=\"" << static_cast<int>(x) + 6 << "\" y=\"" << y + 17 << "\">" << c[0] + c[1] + c[2] << "</text>\n";
      y += row;
    }
    out << "<text class=\"bar-label\" x=\"" << label << "\" y=\"" << y + 20
        << "\"><tspan fill=\"#cf222e\">■ blocker</tspan>  <tspan fill=\"#d4a72c\">■ portable</tspan>  <tspan fill=\"#8c959f\">■ info</tspan></text>\n</svg>\n";
    out << "<table id=\"by-file\">\n<tr><th>file</th><th>blocker</th><th>portable</th><th>info</th></tr>\n";
    for (const auto& [file, c] : by_file)
      out << "<tr><td><code>" << esc(file) << "</code></td><td class=\"n\">" << c[0] << "</td><td class=\"n\">" << c[1]
          << "</td><td class=\"n\">" << c[2] << "</td></tr>\n";
    out << "</table>\n";
  }

  // 4. Effort: counted sites, and a rough time under stated assumptions.
  char hours_text[32];
  std::snprintf(hours_text, sizeof hours_text, "%.1f", s.effort.hours);
  out << "<h2>Effort</h2>\n<p id=\"effort\">" << plural(s.effort.sites, "site", "sites") << " to change: "
      << s.effort.mechanical << " mechanical, " << s.effort.manual << " needing a rewrite or a replacement";
  if (s.effort.rewrite_files) out << ", and " << plural(s.effort.rewrite_files, "C++/CUDA file", "C++/CUDA files") << " to rewrite";
  out << ". Rough estimate: about " << hours_text
      << " hours <span class=\"muted\">(assuming 5 minutes per mechanical edit, half a day per rewrite or "
         "replacement, a day per CUDA/C++ file; only what the core reaches is counted; testing on a Mac not "
         "included)</span>.</p>\n";

  // 5. Checklist: mechanical fixes first, then each blocker with its alternative, then the rest.
  std::vector<const Group*> order;
  for (const auto& [key, g] : groups)
    if (g.impact == Impact::portable && g.mechanical) order.push_back(&g);
  for (const auto& [key, g] : groups)
    if (g.impact == Impact::blocker) order.push_back(&g);
  for (const auto& [key, g] : groups)
    if (g.impact == Impact::portable && !g.mechanical) order.push_back(&g);
  if (!order.empty()) {
    out << "<h2>Checklist</h2>\n<ol class=\"checklist\" id=\"checklist\">\n";
    for (const Group* g : order) {
      const Rule* rule = find_rule(ctx, g->rule);
      const std::string fix = g->sites.front()->fix.empty() && rule ? rule->fix : g->sites.front()->fix;
      out << "<li><span class=\"" << to_string(g->impact) << "\">" << to_string(g->impact) << "</span> "
          << (g->mechanical ? "(mechanical) " : "") << rule_id(g->rule);
      if (rule && !rule->title.empty()) out << ": " << md(rule->title);
      out << " — " << plural(g->sites.size(), "site", "sites") << "<br>" << md(fix) << "<br><span class=\"muted\">";
      for (size_t i = 0; i < g->sites.size() && i < 8; ++i) out << (i ? ", " : "") << esc(location_label(*g->sites[i]));
      if (g->sites.size() > 8) out << ", and " << g->sites.size() - 8 << " more";
      out << "</span></li>\n";
    }
    out << "</ol>\n";
  }

  // 6. Every finding.
  if (!result.findings.empty()) {
    out << "<h2>All findings</h2>\n<details><summary>" << plural(result.findings.size(), "finding", "findings")
        << "</summary>\n<table id=\"findings\">\n<tr><th>location</th><th>impact</th><th>rule</th><th>message and source</th></tr>\n";
    for (const Finding& f : result.findings) {
      out << "<tr><td><code>" << esc(location_label(f)) << "</code></td><td class=\"" << to_string(f.impact) << "\">"
          << to_string(f.impact) << (f.guarded ? " (guarded)" : "") << "</td><td>" << rule_id(f.rule) << "</td><td>"
          << md(f.message) << "<br><code>" << esc(f.snippet) << "</code></td></tr>\n";
    }
    out << "</table>\n</details>\n";
  }
  if (!result.errors.empty() || !result.skipped.empty()) {
    out << "<h2>Files not fully analysed</h2>\n<ul>\n";
    for (const FileNote& n : result.errors) out << "<li>error: <code>" << esc(n.path) << "</code>: " << esc(n.reason) << "</li>\n";
    for (const FileNote& n : result.skipped) out << "<li>skipped: <code>" << esc(n.path) << "</code>: " << esc(n.reason) << "</li>\n";
    out << "</ul>\n";
  }
  out << "</main>\n</body>\n</html>\n";
}

}  // namespace mpsready
