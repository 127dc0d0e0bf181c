// SARIF 2.1.0 for code-scanning services (GitHub code scanning, the SARIF viewers). One run; the
// rules that ran are the tool's rules; every finding is a result with a relative location and a
// fingerprint that survives lines moving. No absolute path and no time stamp is written, so the
// same repository gives byte-identical output on every machine.
#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "report/fingerprint.h"
#include "report/report_text.h"
#include "report/scan_report.h"

namespace mpsready {

using ordered_json = nlohmann::ordered_json;

namespace {

std::string sarif_level(Impact impact) {
  switch (impact) {
    case Impact::blocker: return "error";
    case Impact::portable: return "warning";
    case Impact::info: return "note";
  }
  return "note";
}

// "py-tensor-dot-cuda" -> "PyTensorDotCuda" (SARIF's friendly rule name).
std::string friendly_name(const std::string& id) {
  std::string out;
  bool upper = true;
  for (const char c : id) {
    if (c == '-' || c == '_' || c == '.') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

// The first paragraph of the rule's documentation after its title ("What it flags").
std::string first_paragraph(const std::string& doc) {
  std::string paragraph;
  size_t pos = 0;
  bool past_title = false;
  while (pos < doc.size()) {
    size_t end = doc.find('\n', pos);
    if (end == std::string::npos) end = doc.size();
    std::string line = doc.substr(pos, end - pos);
    pos = end + 1;
    const bool heading = !line.empty() && line[0] == '#';
    const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
    if (heading) {
      if (!paragraph.empty()) break;
      past_title = true;
      continue;
    }
    if (!past_title) continue;
    if (blank) {
      if (!paragraph.empty()) break;
      continue;
    }
    if (!paragraph.empty()) paragraph += ' ';
    paragraph += line;
  }
  return paragraph;
}

// A rule's fix is a message template: "{name}" placeholders read as "<name>" in its help text.
std::string template_as_text(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      size_t end = i + 1;
      while (end < text.size() && ((text[end] >= 'a' && text[end] <= 'z') || text[end] == '_')) ++end;
      if (end < text.size() && end > i + 1 && text[end] == '}') {
        out += '<' + text.substr(i + 1, end - i - 1) + '>';
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// Where the tool and its rule docs are published (MPSREADY_HOMEPAGE, set at configure time):
// SARIF viewers link a rule's `helpUri` and the tool's `informationUri`. Empty unless a build
// names it: a link to a page that is not there is worse than none, and the whole rule doc is in
// `help` anyway.
#ifndef MPSREADY_HOMEPAGE
#define MPSREADY_HOMEPAGE ""
#endif
constexpr std::string_view kHomepage = MPSREADY_HOMEPAGE;

ordered_json rule_descriptor(const Rule& rule) {
  ordered_json r;
  r["id"] = rule.id;
  r["name"] = friendly_name(rule.id);
  // rules/<language>/<id>/doc.md in the published repository (the loader holds every rule to
  // that folder, whatever its language).
  if (!kHomepage.empty() && !rule.language.empty())
    r["helpUri"] = std::string(kHomepage) + "/blob/main/rules/" + rule.language + "/" + rule.id + "/doc.md";
  r["shortDescription"] = {{"text", rule.title.empty() ? rule.id : rule.title}};
  const std::string full = first_paragraph(rule.doc);
  r["fullDescription"] = {{"text", full.empty() ? (rule.title.empty() ? rule.id : rule.title) : full}};
  ordered_json help;
  help["text"] = rule.fix.empty() ? (rule.title.empty() ? rule.id : rule.title) : template_as_text(rule.fix);
  if (!rule.doc.empty()) help["markdown"] = rule.doc;
  r["help"] = help;
  r["defaultConfiguration"] = {{"level", sarif_level(rule.impact)}};
  r["properties"] = {{"category", rule.category},
                     {"impact", std::string(to_string(rule.impact))},
                     {"mechanical", rule.mechanical},
                     {"tags", ordered_json::array({"portability", "mps", rule.category})}};
  return r;
}

ordered_json artifact(const std::string& path, const std::string& prefix) {
  return {{"uri", uri_path(prefix + path)}, {"uriBaseId", "%SRCROOT%"}};
}

}  // namespace

void write_sarif_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  // The rules: every rule that ran, and any rule id a repository pass reported without one.
  std::map<std::string, Rule> rules;
  if (ctx.rules) {
    for (const Rule& r : *ctx.rules) rules.emplace(r.id, r);
  }
  for (const Finding& f : result.findings) {
    if (rules.count(f.rule)) continue;
    Rule r;
    r.id = f.rule;
    r.title = f.rule;
    r.category = f.category;
    r.impact = f.impact;
    rules.emplace(f.rule, r);
  }
  // The descriptors of the rules with a result: each embeds its whole doc, which a viewer shows
  // beside that rule's results; the rules that ran without one are counted in the run properties.
  std::set<std::string> reported;
  for (const Finding& f : result.findings) reported.insert(f.rule);
  std::map<std::string, size_t> rule_index;
  ordered_json descriptors = ordered_json::array();
  for (const auto& [id, rule] : rules) {
    if (!reported.count(id)) continue;
    rule_index[id] = descriptors.size();
    descriptors.push_back(rule_descriptor(rule));
  }

  ordered_json driver;
  driver["name"] = "mpsready";
  driver["version"] = ctx.version;
  driver["semanticVersion"] = ctx.version;
  if (!kHomepage.empty()) driver["informationUri"] = std::string(kHomepage);
  driver["rules"] = descriptors;
  // What reproduces the result (`mpsready --version`): the build's commit and the rules' hash.
  if (!ctx.commit.empty() || !ctx.rules_hash.empty()) {
    driver["properties"] = ordered_json::object();
    if (!ctx.commit.empty()) driver["properties"]["commit"] = ctx.commit;
    if (!ctx.rules_hash.empty()) driver["properties"]["rulesHash"] = ctx.rules_hash;
  }

  const std::vector<std::string> fingerprints = finding_fingerprints(result.findings);
  ordered_json results = ordered_json::array();
  for (size_t i = 0; i < result.findings.size(); ++i) {
    const Finding& f = result.findings[i];
    ordered_json res;
    res["ruleId"] = f.rule;
    res["ruleIndex"] = rule_index.at(f.rule);
    // The level is what the site means for this repository: one that does not count for the
    // verdict (tests, examples, an optional feature, a gap) is a note whatever its impact, so code
    // scanning shows no error for a repository whose verdict is mps-ready.
    res["level"] = counts_for_verdict(f) ? sarif_level(f.impact) : "note";
    std::string text = f.message.empty() ? f.rule : f.message;
    if (f.location.cell) {
      text += " (cell " + std::to_string(f.location.cell) + ", line " + std::to_string(f.location.line) + ")";
    }
    res["message"] = {{"text", text}};
    ordered_json physical;
    physical["artifactLocation"] = artifact(f.path, ctx.path_prefix);
    // A notebook's lines are lines of a cell, not of the .ipynb file: its region is where the
    // line's text starts in the .ipynb (the JSON string that holds it), which code scanning needs
    // to place an alert; the cell and its line are in the message and the properties. One whose
    // position is not known gets no region.
    if (f.location.cell && f.location.file_line > 0) {
      physical["region"] = {{"startLine", f.location.file_line}, {"startColumn", std::max(1, f.location.file_column)}};
    } else if (!f.location.cell && f.location.line > 0) {
      ordered_json region;
      region["startLine"] = f.location.line;
      region["startColumn"] = std::max(1, f.location.column);
      const int end_line = std::max(f.location.line, f.location.end_line);
      region["endLine"] = end_line;
      int end_column = std::max(1, f.location.end_column);
      if (end_line == f.location.line) end_column = std::max(end_column, std::max(1, f.location.column));
      region["endColumn"] = end_column;
      if (!f.snippet.empty()) region["snippet"] = {{"text", f.snippet}};
      physical["region"] = region;
    }
    res["locations"] = ordered_json::array({{{"physicalLocation", physical}}});
    res["partialFingerprints"] = {{kFingerprintKey, fingerprints[i]}};
    ordered_json props;
    props["category"] = f.category;
    props["impact"] = std::string(to_string(f.impact));
    props["guarded"] = f.guarded;
    props["mechanical"] = f.mechanical;
    if (!f.mode.empty()) props["mode"] = f.mode;
    if (!f.component.empty()) props["component"] = f.component;
    if (!f.role.empty()) props["role"] = f.role;
    props["inCore"] = f.in_core;
    props["decides"] = decides_verdict(f, result.summary);
    if (!f.context.empty()) props["context"] = f.context;
    if (f.location.cell) {
      props["cell"] = f.location.cell;
      props["lineInCell"] = f.location.line;
    }
    res["properties"] = props;
    results.push_back(std::move(res));
  }

  // Files read in part or not at all: notifications of the invocation, so a viewer shows them.
  ordered_json notifications = ordered_json::array();
  const auto notify = [&](const FileNote& n, const char* level, const char* kind) {
    ordered_json note;
    note["level"] = level;
    note["message"] = {{"text", n.path + ": " + n.reason}};
    note["locations"] = ordered_json::array({{{"physicalLocation", {{"artifactLocation", artifact(n.path, ctx.path_prefix)}}}}});
    note["properties"] = {{"kind", kind}};
    notifications.push_back(std::move(note));
  };
  for (const FileNote& n : result.errors) notify(n, n.unread ? "error" : "warning", n.unread ? "unread" : "error");
  for (const FileNote& n : result.skipped) notify(n, "note", "skipped");
  // Unknown rule ids and unused suppressions: a warning at the comment (or the file, in a
  // notebook, whose lines are lines of a cell), so a suppression never fails silently.
  for (const SuppressionNote& n : result.suppression_notes) {
    ordered_json note;
    note["level"] = "warning";
    std::string text = location_label(n.path, n.cell, n.line) + ": " + n.message;
    note["message"] = {{"text", text}};
    ordered_json physical = {{"artifactLocation", artifact(n.path, ctx.path_prefix)}};
    if (!n.cell && n.line > 0) physical["region"] = {{"startLine", n.line}};
    note["locations"] = ordered_json::array({{{"physicalLocation", physical}}});
    note["properties"] = {{"kind", "suppression"}};
    if (n.cell) note["properties"]["cell"] = n.cell;
    notifications.push_back(std::move(note));
  }
  ordered_json invocation;
  invocation["executionSuccessful"] = true;
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;

  const Summary& s = result.summary;
  ordered_json run;
  run["tool"] = {{"driver", driver}};
  run["invocations"] = ordered_json::array({invocation});
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = results;
  run["properties"] = {{"verdict", std::string(to_string(s.verdict))},
                       {"filesScanned", result.files_scanned},
                       {"unreadFiles", unread_count(result)},
                       {"rulesRun", rules.size()},
                       {"suppressed", result.suppressed.size()}};
  if (!ctx.target_pytorch.empty()) run["properties"]["targetPytorch"] = ctx.target_pytorch;
  ordered_json components = ordered_json::array();
  for (const ComponentSummary& c : s.components)
    components.push_back({{"name", c.name}, {"role", c.role}, {"verdict", std::string(to_string(c.verdict))}});
  run["properties"]["components"] = components;
  // The gaps of a core that selects MPS, beside the verdict they did not decide (the results
  // themselves carry inCore: false and their context).
  if (!s.gaps.empty()) {
    ordered_json gaps = ordered_json::array();
    for (const Reason& r : s.gaps) gaps.push_back({{"rule", r.rule}, {"count", r.count}, {"locations", r.locations}});
    run["properties"]["gaps"] = gaps;
  }
  if (ctx.baselined) run["properties"]["baselined"] = *ctx.baselined;
  if (ctx.diff) {
    run["properties"]["diff"] = {{"base", ctx.diff->base},
                                 {"baseCommit", ctx.diff->base_commit},
                                 {"verdictBefore", std::string(to_string(ctx.diff->before))},
                                 {"verdictAfter", std::string(to_string(ctx.diff->after))}};
  }

  ordered_json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = ordered_json::array({run});
  out << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace mpsready
