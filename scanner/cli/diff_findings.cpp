#include "cli/diff_findings.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "report/fingerprint.h"

namespace mpsready {

namespace {

// What identifies a site across the change, and what it is there.
std::string content_key(const Finding& f, const DiffSource& source) {
  std::string key = f.rule;
  key += '\0';
  key += f.path;
  key += '\0';
  key += normalized_snippet(f.snippet);
  key += '\0';
  key += source.scope_of(f.location);
  return key;
}

using State = std::tuple<Impact, bool, bool>;  // impact, guarded, counted (in the core)

State state_of(const Finding& f) { return {f.impact, f.guarded, f.in_core}; }

std::string describe_before(const State& then, const State& now) {
  std::vector<std::string> parts;
  if (std::get<1>(then) && !std::get<1>(now)) parts.push_back("guarded");
  if (std::get<0>(then) != std::get<0>(now)) parts.push_back(std::string(to_string(std::get<0>(then))));
  if (!std::get<2>(then) && std::get<2>(now)) parts.push_back("outside the core");
  if (parts.empty()) parts.push_back(std::get<1>(then) ? "guarded" : "unguarded");
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

std::vector<AddedFinding> added_findings(const std::vector<Finding>& before, const std::vector<Finding>& after,
                                         DiffFiles& files) {
  // BASE's sites by content, each with the states it has there (several identical sites).
  std::map<std::string, std::vector<State>> then;
  for (const Finding& f : before) then[content_key(f, files.file(f.path).before)].push_back(state_of(f));
  // The work tree's sites by content, in order.
  std::map<std::string, std::vector<size_t>> now;
  std::vector<bool> on_added(after.size(), false);
  for (size_t i = 0; i < after.size(); ++i) {
    const DiffFiles::File& file = files.file(after[i].path);
    now[content_key(after[i], file.after)].push_back(i);
    const long line = file.after.line_of(after[i].location);
    on_added[i] = line >= 0 && static_cast<size_t>(line) < file.added.size() && file.added[static_cast<size_t>(line)];
  }
  std::vector<bool> is_added(after.size(), false);
  std::map<size_t, std::string> was;
  for (auto& [key, indexes] : now) {
    std::vector<State>& left = then[key];
    // Sites on unchanged lines take BASE's matching sites first, so that the unmatched ones are
    // those the change wrote.
    for (const bool added_line : {false, true}) {
      for (const size_t i : indexes) {
        if (on_added[i] != added_line) continue;
        const auto match = std::find(left.begin(), left.end(), state_of(after[i]));
        if (match != left.end()) left.erase(match);
        else is_added[i] = true;
      }
    }
    // An unmatched site where BASE had the same content in another state: its state changed.
    for (const bool added_line : {false, true}) {
      for (const size_t i : indexes) {
        if (!is_added[i] || on_added[i] != added_line || left.empty()) continue;
        was[i] = describe_before(left.front(), state_of(after[i]));
        left.erase(left.begin());
      }
    }
  }
  std::vector<AddedFinding> out;
  for (size_t i = 0; i < after.size(); ++i)
    if (is_added[i]) out.push_back({i, was.count(i) ? was[i] : ""});
  return out;
}

}  // namespace mpsready
