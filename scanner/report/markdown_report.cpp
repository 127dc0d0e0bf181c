// A pull-request comment in GitHub Markdown: the verdict on the first line, a table by category
// and impact, the findings that decide the verdict as path:line links, then every site in a
// collapsible section per impact. Everything
// that comes from the scanned repository (paths, messages, snippets, reasons) goes through
// markdown_escape, so it renders as text: no link, image, HTML, heading or mention.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>

#include "core/verdict.h"
#include "report/report_text.h"
#include "report/scan_report.h"

namespace mpsready {

namespace {

constexpr size_t kCommentLimit = 65536;  // GitHub's limit for a comment body, in characters
constexpr size_t kTopFindings = 10;
constexpr std::array<Impact, 3> kImpacts{Impact::blocker, Impact::portable, Impact::info};

std::string verdict_sentence(Verdict v) {
  switch (v) {
    case Verdict::stay_on_linux: return "some code cannot run on a Mac without a rewrite";
    case Verdict::partial: return "runs on MPS after the changes below";
    case Verdict::mps_ready: return "nothing keeps this code on CUDA";
  }
  return "";
}

bool plain_word(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

// Rule ids and categories of the bundled rules are [a-z0-9-]: shown as they are (ids in a code
// span); anything else is escaped.
std::string rule_label(const std::string& id) { return plain_word(id) ? "`" + id + "`" : markdown_escape(id); }
std::string category_label(const std::string& c) { return plain_word(c) ? c : markdown_escape(c); }

// With a link base (--link-base, or GitHub Actions' environment) links are absolute permalinks,
// which work in a PR comment; without one they are relative to the repository root.
std::string location_link(const Finding& f, const std::string& link_base) {
  std::string target = link_base + uri_path(f.path);
  if (!f.location.cell && f.location.line > 0) target += "#L" + std::to_string(f.location.line);
  return "[" + markdown_escape(location_label(f)) + "](" + target + ")";
}

// `mpsready fix`'s outcome: one line in the head, the sites left for a person as a block.
std::string fix_headline(const FixDigest& fix) {
  std::string line = "\n**mpsready fix: " + std::string(to_string(fix.before)) + " \u2192 " +
                     std::string(to_string(fix.after)) + "**: " + plural(fix.sites_fixed, "site", "sites") +
                     " fixed in " + plural(fix.files, "file", "files") + ", " + std::to_string(fix.need_a_human.size()) +
                     (fix.need_a_human.size() == 1 ? " needs" : " need") + " a human.";
  if (!fix.needs_pytorch.empty()) line += " The fixed code needs PyTorch " + markdown_escape(fix.needs_pytorch) + " or newer.";
  return line + "\n";
}

std::string fix_left_block(const FixDigest& fix) {
  std::string block = "\n### Left for a human after `mpsready fix`\n\n";
  for (const FixDigestSite& s : fix.need_a_human) {
    const std::string where = location_label(s.path, s.cell, s.line);
    block += "- " + markdown_escape(where) + " " + rule_label(s.rule) + ": " + markdown_escape(s.reason) + "\n";
  }
  return block;
}

std::string finding_item(const Finding& f, const std::string& link_base) {
  std::string item = "- **" + std::string(to_string(f.impact)) + "** " + location_link(f, link_base) + " " + rule_label(f.rule);
  if (f.guarded) item += " (guarded)";
  item += ": " + markdown_prose(f.message);
  std::string_view snippet = f.snippet;
  while (!snippet.empty() && (snippet.front() == ' ' || snippet.front() == '\t')) snippet.remove_prefix(1);
  if (!snippet.empty()) item += "<br><code>" + markdown_escape(snippet) + "</code>";
  if (!f.fix.empty()) item += "<br>Fix: " + markdown_prose(f.fix);
  return item + "\n";
}

// One line of a per-impact section: where, which rule, and whether it counts (and why not).
std::string site_line(const Finding& f, const Summary& summary, const std::string& link_base) {
  std::string line = "- " + location_link(f, link_base) + " " + rule_label(f.rule);
  if (decides_verdict(f, summary)) line += ": decides the verdict";
  else if (counts_for_verdict(f)) line += ": in the core";
  else line += ": not counted" + (f.context.empty() ? (f.role.empty() ? "" : " (" + markdown_escape(f.role) + ")")
                                                    : " (" + markdown_prose(f.context) + ")");
  return line + "\n";
}

}  // namespace

void write_markdown_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  const Summary& s = result.summary;
  std::ostringstream head;
  if (ctx.diff) {
    // What the change does to its own scan comes first: a reviewer reads no further than this line.
    const std::string warning = diff_warning(*ctx.diff);
    head << "**mpsready: " << to_string(ctx.diff->before) << " \u2192 " << to_string(ctx.diff->after) << "**: "
         << (warning.empty() ? "" : "\u26a0\ufe0f **" + markdown_escape(warning) + ".** ")
         << markdown_escape(ctx.diff->change) << "\n\nFindings this change adds since "
         << markdown_escape(ctx.diff->base) << " (" << ctx.diff->base_commit.substr(0, 12) << "): ";
  } else {
    head << "**mpsready: " << to_string(s.verdict) << "**: " << verdict_sentence(s.verdict) << ".\n\n";
  }
  if (const std::string incomplete = incomplete_sentence(result); !incomplete.empty())
    head << "\u26a0\ufe0f **" << incomplete << "**: the verdict is that of the rest (the files are listed below).\n\n";
  head << plural(result.findings.size(), "finding", "findings") << " (blocker " << s.by_impact.at("blocker")
       << ", portable " << s.by_impact.at("portable") << ", info " << s.by_impact.at("info") << "; "
       << s.guarded << " guarded";
  if (!result.suppressed.empty()) head << ", " << result.suppressed.size() << " suppressed";
  if (ctx.baselined) {
    head << ", " << *ctx.baselined << " known from the baseline";
    if (!ctx.diff && result.tree_verdict != s.verdict) head << ": with them the verdict is " << to_string(result.tree_verdict);
  }
  head << ") in " << plural(result.files_scanned, "file", "files") << ". Effort: "
       << plural(s.effort.sites, "site", "sites") << " to change, " << s.effort.mechanical << " mechanical, "
       << s.effort.manual << " needing a rewrite or a replacement.\n";
  if (ctx.fix) head << fix_headline(*ctx.fix);
  if (!s.reasons.empty()) {
    head << "\nBecause:\n\n";
    for (const Reason& r : s.reasons) {
      head << "- " << rule_label(r.rule) << " (" << plural(r.count, "site", "sites") << "): "
           << markdown_prose(r.text) << "\n";
    }
  }
  if (!s.gaps.empty()) {
    head << "\nGaps in corners of a core that selects MPS (they do not decide the verdict):\n\n";
    for (const Reason& r : s.gaps) {
      head << "- " << rule_label(r.rule) << " (" << plural(r.count, "site", "sites") << "): "
           << markdown_prose(r.text) << "\n";
    }
  }
  // Components: the one assessment's verdict for each, core first as the model lists them.
  if (!s.components.empty()) {
    head << "\n| component | role | verdict | deciding finding |\n| --- | --- | --- | --- |\n";
    for (const ComponentSummary& c : s.components) {
      head << "| " << markdown_escape(c.name) << " | " << c.role << " | " << to_string(c.verdict);
      if (c.outside_core) head << " (optional paths: " << to_string(c.outside_core_verdict) << ")";
      head << " | " << markdown_escape(c.reason) << " |\n";
    }
    if (s.outside_core)
      head << "\n" << plural(s.outside_core, "finding is", "findings are")
           << " outside the core (" << kNotCountedKinds << ") and " << (s.outside_core == 1 ? "does" : "do")
           << " not decide the verdict.\n";
  }

  // By category and impact: every category that occurs, in name order.
  std::map<std::string, std::array<size_t, 3>> table;
  for (const Finding& f : result.findings) ++table[f.category][2 - static_cast<size_t>(f.impact)];
  if (!table.empty()) {
    head << "\n| category | blocker | portable | info |\n| --- | ---: | ---: | ---: |\n";
    for (const auto& [category, counts] : table) {
      head << "| " << category_label(category) << " | " << counts[0] << " | " << counts[1] << " | " << counts[2]
           << " |\n";
    }
  }

  // The findings that decide the verdict come first, in full; then every site, one line each, in a
  // collapsible section per impact that says whether it counts and why not.
  std::vector<const Finding*> deciding;
  for (const Finding& f : result.findings)
    if (decides_verdict(f, s)) deciding.push_back(&f);
  std::vector<std::string> blocks;  // each one whole: a truncation never cuts one in half
  if (ctx.fix && !ctx.fix->need_a_human.empty()) blocks.push_back(fix_left_block(*ctx.fix));
  // Each suppression comment the change adds, where a reviewer can question it.
  if (ctx.diff && !ctx.diff->suppressions_added.empty()) {
    blocks.push_back("\n### Suppressions this change adds\n\n");
    for (const auto& sup : ctx.diff->suppressions_added) {
      std::string rules;
      for (const std::string& r : sup.rules) rules += (rules.empty() ? "" : ", ") + r;
      blocks.push_back("- " + markdown_escape(location_label(sup.path, sup.cell, sup.line)) + " `" + (sup.file_level ? "ignore-file[" : "ignore[") +
                       rules + "]`" + (sup.every_rule ? " **(every rule)**" : "") +
                       (sup.file_level ? " (the whole file)" : "") + "\n");
    }
  }
  std::set<const Finding*> shown;
  if (!deciding.empty()) {
    std::string top = "\n### Findings that decide the verdict\n\n";
    for (size_t i = 0; i < deciding.size() && i < kTopFindings; ++i) {
      top += finding_item(*deciding[i], ctx.link_base);
      shown.insert(deciding[i]);
    }
    if (deciding.size() > kTopFindings)
      top += "\n" + plural(deciding.size() - kTopFindings, "more site decides", "more sites decide") +
             " the verdict: listed below.\n";
    blocks.push_back(top);
  }
  // Then, up to ten in all, the other sites of the core: what is left to change once the deciding
  // ones are (the portable sites of a repository a kernel keeps on Linux).
  std::string others;
  for (const Finding& f : result.findings) {
    if (shown.size() >= kTopFindings) break;
    if (!counts_for_verdict(f) || f.impact == Impact::info || shown.count(&f)) continue;
    others += finding_item(f, ctx.link_base);
    shown.insert(&f);
  }
  if (!others.empty()) blocks.push_back("\n### Other findings in the core\n\n" + others);
  for (Impact impact : kImpacts) {
    std::vector<const Finding*> sites;
    size_t counted = 0;
    for (const Finding& f : result.findings) {
      if (f.impact != impact || shown.count(&f)) continue;
      sites.push_back(&f);
      if (counts_for_verdict(f)) ++counted;
    }
    if (sites.empty()) continue;
    // Sites that count first, then the rest, each in the report order (path, line).
    std::stable_partition(sites.begin(), sites.end(), [](const Finding* f) { return counts_for_verdict(*f); });
    blocks.push_back("\n<details><summary>" + std::string(to_string(impact)) + ": " +
                     plural(sites.size(), "site", "sites") + (shown.empty() ? "" : " besides those above") + " (" +
                     std::to_string(counted) + " in the core)</summary>\n\n");
    for (const Finding* f : sites) blocks.push_back(site_line(*f, s, ctx.link_base));
    blocks.push_back("\n</details>\n");
  }
  if (!result.errors.empty() || !result.skipped.empty()) {
    blocks.push_back("\n<details><summary>" +
                     plural(result.errors.size() + result.skipped.size(), "file", "files") +
                     " not fully analysed</summary>\n\n");
    for (const FileNote& n : result.errors) blocks.push_back("- error: " + markdown_escape(n.path) + ": " + markdown_escape(n.reason) + "\n");
    for (const FileNote& n : result.skipped) blocks.push_back("- skipped: " + markdown_escape(n.path) + ": " + markdown_escape(n.reason) + "\n");
    blocks.push_back("\n</details>\n");
  }
  const std::string target =
      ctx.target_pytorch.empty() ? "" : " · target PyTorch " + markdown_escape(ctx.target_pytorch);
  const std::string foot = "\n<sub>mpsready " + markdown_escape(ctx.version) + " · scanned " +
                           markdown_escape(shared_root_label(ctx.root)) + target + "</sub>\n";

  // GitHub counts characters; bytes are never fewer, so a body within the limit in bytes fits.
  std::string body = head.str();
  const std::string note_template =
      "\n</details>\n\n**Truncated**: this comment shows the first part of the report "
      "(GitHub's 65,536-character limit). Run `mpsready scan --format json` for every finding.\n";
  const size_t budget = kCommentLimit - note_template.size() - foot.size();
  bool truncated = false, open_details = false;
  for (const std::string& block : blocks) {
    if (body.size() + block.size() > budget) {
      truncated = true;
      break;
    }
    body += block;
    if (block.rfind("\n<details>", 0) == 0) open_details = true;
    if (block == "\n</details>\n") open_details = false;
  }
  if (truncated) {
    if (body.size() > budget) body.resize(budget);  // only a pathological header gets here
    body += open_details ? note_template : note_template.substr(std::string("\n</details>\n").size());
  }
  out << body << foot;
}

}  // namespace mpsready
