#include "fix/fix_summary.h"

#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/verdict.h"
#include "fix/unified_diff.h"

namespace mpsready {

namespace {

using SiteKey = std::tuple<std::string, int, int, std::string>;  // path, cell, line, rule

std::map<SiteKey, std::string> reasons_by_site(const FixOutcome& outcome) {
  std::map<SiteKey, std::string> reasons;
  for (const LeftSite& s : outcome.left) reasons.emplace(SiteKey{s.path, s.location.cell, s.location.line, s.rule}, s.reason);
  return reasons;
}

std::string reason_for(const std::map<SiteKey, std::string>& reasons, const Finding& f) {
  const auto it = reasons.find(SiteKey{f.path, f.location.cell, f.location.line, f.rule});
  return it != reasons.end() ? it->second : "the rule has no mechanical fix (`mpsready rules explain " + f.rule + "`)";
}

nlohmann::json position(int line, int column) { return {{"line", line}, {"column", column}}; }

// Per PyTorch version that applied fixes need: how many sites, and of which rules.
// Newest version first, compared number by number ("2.10" before "2.6").
struct NewerFirst {
  bool operator()(const std::string& a, const std::string& b) const { return version_at_least(a, b) && !version_at_least(b, a); }
};
using SitesByVersion = std::map<std::string, std::pair<size_t, std::set<std::string>>, NewerFirst>;

SitesByVersion sites_by_pytorch(const FixOutcome& outcome) {
  SitesByVersion by_version;
  for (const FileFix& f : outcome.files) {
    for (const Edit& e : f.edits) {
      if (e.needs_pytorch.empty() || e.binding || e.tidies_import) continue;
      auto& [count, rules] = by_version[e.needs_pytorch];
      ++count;
      rules.insert(e.rule);
    }
  }
  return by_version;
}

}  // namespace

std::string fix_diff(const FixOutcome& outcome) {
  std::string diff;
  for (const FileFix& f : outcome.files) diff += unified_diff(f.path, f.before, f.edits);
  return diff;
}

void write_fix_summary_text(std::ostream& out, const FixOutcome& outcome) {
  out << "mpsready fix: " << to_string(outcome.before) << " -> " << to_string(outcome.after) << ": "
      << outcome.sites_fixed() << (outcome.sites_fixed() == 1 ? " site" : " sites") << " fixed in "
      << outcome.files.size() << (outcome.files.size() == 1 ? " file" : " files");
  const size_t bindings = outcome.bindings_added(), imports = outcome.imports_tidied();
  if (bindings || imports) {
    out << " (";
    if (bindings) out << bindings << (bindings == 1 ? " binding" : " bindings") << " of the device added, one per scope";
    if (bindings && imports) out << "; ";
    if (imports) out << imports << (imports == 1 ? " deprecated import" : " deprecated imports") << " tidied (names nothing reads any more removed)";
    out << ")";
  }
  out << ", "
      << outcome.remaining.size() << " need" << (outcome.remaining.size() == 1 ? "s" : "") << " a human"
      << (outcome.remaining.empty() ? "\n" : ":\n");
  if (!outcome.needs_pytorch.empty()) {
    out << "the fixed code needs PyTorch " << outcome.needs_pytorch << " or newer (set target-pytorch to hold back newer fixes):";
    const char* separator = " ";
    for (const auto& [version, sites] : sites_by_pytorch(outcome)) {
      out << separator << version << " for " << sites.first << (sites.first == 1 ? " site" : " sites") << " (";
      const char* comma = "";
      for (const std::string& rule : sites.second) out << comma << rule, comma = ", ";
      out << ")";
      separator = ", ";
    }
    out << "\n";
  }
  const auto reasons = reasons_by_site(outcome);
  for (const Finding& f : outcome.remaining)
    out << "  " << location_label(f) << " " << f.rule << ": " << reason_for(reasons, f) << "\n";
  // What a fixed site's rewrite leaves as it was, said where the rewrite says it.
  size_t noted = 0;
  for (const FileFix& file : outcome.files)
    for (const Edit& e : file.edits) {
      if (e.binding || e.tidies_import || e.note.empty()) continue;
      if (noted++ == 0) out << "fixed, with a note:\n";
      out << "  " << location_label(e.path, e.location.cell, e.location.line) << " " << e.rule << ": " << e.note << "\n";
    }
  // Sites whose fix was held back but that no longer count (guarded, info): said once each.
  size_t held = 0;
  for (const LeftSite& s : outcome.left) {
    bool listed = false;
    for (const Finding& f : outcome.remaining)
      listed |= f.path == s.path && f.location.cell == s.location.cell && f.location.line == s.location.line &&
                f.rule == s.rule;
    if (listed) continue;
    if (held++ == 0) out << "held back:\n";
    out << "  " << location_label(s.path, s.location.cell, s.location.line) << " " << s.rule << ": " << s.reason << "\n";
  }
}

FixDigest fix_digest(const FixOutcome& outcome) {
  FixDigest digest;
  digest.before = outcome.before;
  digest.after = outcome.after;
  digest.sites_fixed = outcome.sites_fixed();
  digest.files = outcome.files.size();
  digest.needs_pytorch = outcome.needs_pytorch;
  const auto reasons = reasons_by_site(outcome);
  for (const Finding& f : outcome.remaining)
    digest.need_a_human.push_back({f.path, f.location.cell, f.location.line, f.rule, reason_for(reasons, f)});
  return digest;
}

void write_fix_json(std::ostream& out, const FixOutcome& outcome, const std::string& target_pytorch, bool written) {
  nlohmann::json doc;
  doc["verdict_before"] = std::string(to_string(outcome.before));
  doc["verdict_after"] = std::string(to_string(outcome.after));
  doc["target_pytorch"] = target_pytorch;
  doc["written"] = written;
  doc["sites_fixed"] = outcome.sites_fixed();
  doc["bindings_added"] = outcome.bindings_added();
  doc["imports_tidied"] = outcome.imports_tidied();
  doc["needs_pytorch"] = outcome.needs_pytorch;
  doc["edits"] = nlohmann::json::array();
  for (const FileFix& f : outcome.files) {
    for (const Edit& e : f.edits) {
      doc["edits"].push_back({{"path", e.path},
                              {"rule", e.rule},
                              {"start", position(e.location.line, e.location.column)},
                              {"end", position(e.location.end_line, e.location.end_column)},
                              {"start_byte", e.start},
                              {"end_byte", e.end},
                              {"original", e.original},
                              {"replacement", e.replacement},
                              {"needs_pytorch", e.needs_pytorch},
                              {"binding", e.binding},
                              {"tidies_import", e.tidies_import},
                              {"note", e.note}});
    }
  }
  const auto reasons = reasons_by_site(outcome);
  doc["need_a_human"] = nlohmann::json::array();
  for (const Finding& f : outcome.remaining)
    doc["need_a_human"].push_back({{"path", f.path}, {"rule", f.rule}, {"line", f.location.line},
                                   {"cell", f.location.cell}, {"reason", reason_for(reasons, f)}});
  doc["held_back"] = nlohmann::json::array();
  for (const LeftSite& s : outcome.left)
    doc["held_back"].push_back({{"path", s.path}, {"rule", s.rule}, {"line", s.location.line},
                                {"cell", s.location.cell}, {"reason", s.reason}});
  doc["diff"] = fix_diff(outcome);
  out << doc.dump(2) << "\n";
}

}  // namespace mpsready
