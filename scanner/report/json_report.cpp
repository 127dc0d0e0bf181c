#include <nlohmann/json.hpp>

#include "report/report_text.h"
#include "report/scan_report.h"

namespace mpsready {

using ordered_json = nlohmann::ordered_json;

namespace {

ordered_json notes_json(const std::vector<FileNote>& notes) {
  ordered_json out = ordered_json::array();
  for (const auto& n : notes) {
    out.push_back({{"path", n.path}, {"reason", n.reason}});
    if (n.unread) out.back()["unread"] = true;
  }
  return out;
}

ordered_json finding_json(const Finding& f) {
  ordered_json j;
  j["rule"] = f.rule;
  j["category"] = f.category;
  j["impact"] = to_string(f.impact);
  j["path"] = f.path;
  if (f.location.cell) j["cell"] = f.location.cell;
  j["line"] = f.location.line;
  j["column"] = f.location.column;
  j["end_line"] = f.location.end_line;
  j["end_column"] = f.location.end_column;
  j["message"] = f.message;
  j["fix"] = f.fix;
  j["snippet"] = f.snippet;
  j["guarded"] = f.guarded;
  j["mechanical"] = f.mechanical;
  if (!f.mode.empty()) j["mode"] = f.mode;
  if (!f.component.empty()) j["component"] = f.component;
  if (!f.role.empty()) j["role"] = f.role;
  j["in_core"] = f.in_core;
  if (!f.context.empty()) j["context"] = f.context;
  if (!f.mac_path.empty()) j["mac_path"] = f.mac_path;
  if (!f.mac_chain.empty()) j["mac_chain"] = f.mac_chain;
  return j;
}

// `reasons` and `gaps`: findings grouped by rule.
ordered_json reasons_json(const std::vector<Reason>& reasons) {
  ordered_json out = ordered_json::array();
  for (const auto& r : reasons) {
    out.push_back({{"rule", r.rule},
                   {"impact", to_string(r.impact)},
                   {"count", r.count},
                   {"message", r.text},
                   {"locations", r.locations},
                   {"component", r.component},
                   {"context", r.context}});
  }
  return out;
}

}  // namespace

void write_json_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx) {
  const Summary& s = result.summary;
  ordered_json doc;
  doc["schema_version"] = 2;
  doc["tool"] = {{"name", "mpsready"}, {"version", ctx.version}};
  if (!ctx.commit.empty()) doc["tool"]["commit"] = ctx.commit;
  if (!ctx.rules_hash.empty()) doc["tool"]["rules_hash"] = ctx.rules_hash;
  doc["root"] = shared_root_label(ctx.root);
  if (!ctx.target_pytorch.empty()) doc["target_pytorch"] = ctx.target_pytorch;
  doc["verdict"] = to_string(s.verdict);
  // The verdict of every finding, those a baseline, --diff or the paths given left out included.
  if (!result.removed.empty()) doc["tree_verdict"] = to_string(result.tree_verdict);
  if (ctx.diff) {
    doc["diff"] = {{"base", ctx.diff->base},
                   {"base_commit", ctx.diff->base_commit},
                   {"verdict_before", to_string(ctx.diff->before)},
                   {"verdict_after", to_string(ctx.diff->after)},
                   {"change", ctx.diff->change}};
    ordered_json changes = ordered_json::array();
    for (const auto& [file, what] : ctx.diff->config_changes) changes.push_back({{"file", file}, {"what", what}});
    doc["diff"]["config_changes"] = changes;
    ordered_json suppressions = ordered_json::array();
    for (const auto& sup : ctx.diff->suppressions_added) {
      ordered_json entry = {{"path", sup.path}};
      if (sup.cell) entry["cell"] = sup.cell;
      entry["line"] = sup.line;
      entry["rules"] = sup.rules;
      entry["file_level"] = sup.file_level;
      entry["every_rule"] = sup.every_rule;
      suppressions.push_back(entry);
    }
    doc["diff"]["suppressions_added"] = suppressions;
  }
  doc["reasons"] = reasons_json(s.reasons);
  doc["gaps"] = reasons_json(s.gaps);
  ordered_json components = ordered_json::array();
  for (const auto& c : s.components) {
    ordered_json by_impact = {{"blocker", 0}, {"portable", 0}, {"info", 0}};
    for (const auto& [impact, count] : c.by_impact) by_impact[impact] = count;
    components.push_back({{"name", c.name},
                          {"role", c.role},
                          {"verdict", to_string(c.verdict)},
                          {"by_impact", by_impact},
                          {"reason", c.reason},
                          {"outside_core", c.outside_core},
                          {"outside_core_verdict", to_string(c.outside_core_verdict)}});
  }
  doc["components"] = components;
  doc["collection"] = s.collection;
  ordered_json evidence = ordered_json::array();
  for (const auto& e : s.evidence) {
    ordered_json j = {{"kind", e.kind}, {"path", e.path}};
    if (e.cell) j["cell"] = e.cell;
    j["line"] = e.line;
    j["text"] = e.text;
    evidence.push_back(j);
  }
  doc["mps_evidence"] = evidence;
  ordered_json summary;
  summary["files_scanned"] = result.files_scanned;
  summary["files_parsed"] = result.files_parsed;
  summary["files_ignored"] = result.files_ignored;
  summary["findings"] = result.findings.size();
  summary["suppressed"] = result.suppressed.size();
  if (ctx.baselined) summary["baselined"] = *ctx.baselined;
  summary["by_impact"] = {{"blocker", s.by_impact.at("blocker")},
                          {"portable", s.by_impact.at("portable")},
                          {"info", s.by_impact.at("info")}};
  ordered_json categories = ordered_json::object();
  for (const auto& [category, count] : s.by_category) categories[category] = count;
  summary["by_category"] = categories;
  summary["guarded"] = s.guarded;
  summary["outside_core"] = s.outside_core;
  summary["effort"] = {{"sites", s.effort.sites},
                       {"mechanical", s.effort.mechanical},
                       {"manual", s.effort.manual},
                       {"rewrite_files", s.effort.rewrite_files},
                       {"hours", s.effort.hours}};
  summary["errors"] = result.errors.size();
  summary["unread"] = unread_count(result);
  summary["skipped"] = result.skipped.size();
  summary["suppression_notes"] = result.suppression_notes.size();
  doc["summary"] = summary;
  // Findings are written one by one rather than built into one document: a repository with
  // tens of thousands of findings would otherwise hold them all twice in memory.
  const auto dump = [](const ordered_json& j, int indent) {
    std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
      out += c;
      if (c == '\n') out.append(static_cast<size_t>(indent), ' ');
    }
    return out;
  };
  out << "{\n";
  for (const auto& [key, value] : doc.items()) out << "  \"" << key << "\": " << dump(value, 2) << ",\n";
  out << "  \"findings\": [";
  for (size_t i = 0; i < result.findings.size(); ++i)
    out << (i ? ",\n    " : "\n    ") << dump(finding_json(result.findings[i]), 4);
  out << (result.findings.empty() ? "],\n" : "\n  ],\n");
  out << "  \"errors\": " << dump(notes_json(result.errors), 2) << ",\n";
  out << "  \"skipped\": " << dump(notes_json(result.skipped), 2) << ",\n";
  ordered_json suppression_notes = ordered_json::array();
  for (const SuppressionNote& n : result.suppression_notes) {
    ordered_json j = {{"path", n.path}};
    if (n.cell) j["cell"] = n.cell;
    j["line"] = n.line;
    j["message"] = n.message;
    suppression_notes.push_back(std::move(j));
  }
  out << "  \"suppression_notes\": " << dump(suppression_notes, 2) << "\n}\n";
}

}  // namespace mpsready
