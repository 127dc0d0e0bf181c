#pragma once
// Builds a throwaway rules directory for tests of the matcher kinds, independent of the bundled
// rules.
#include <string>

#include "support/test_support.h"

namespace mpsready::testing {

// Writes rules/python/<id>/rule.json with the given matcher JSON (and query.scm if given).
inline void add_rule(const TempDir& dir, const std::string& id, const std::string& matcher_json,
                     const std::string& extra_json = "", const std::string& query = "",
                     const std::string& impact = "portable") {
  dir.write("rules/python/" + id + "/rule.json",
            R"J({"id": ")J" + id + R"J(", "title": "t", "language": "python", "category": "cuda-api",
               "impact": ")J" + impact + R"J(", "needles": ["cuda", "float64", "apex", "nccl", "torch", "double"],
               "matcher": )J" + matcher_json + R"J(, "message": "{callee}|{name}|{arg}",
               "fix": "fix {name}", "status": "stable", "since": "0.1.0")J" +
                (extra_json.empty() ? "" : ", " + extra_json) + "}");
  if (!query.empty()) dir.write("rules/python/" + id + "/query.scm", query);
}

struct Site {
  std::string rule;
  int line;
  bool guarded;
  std::string message;
};

inline std::vector<Site> scan_with_rules(const TempDir& dir, const std::string& code,
                                         const std::string& file = "code.py") {
  const RuleSet rules = RuleSet::load(dir.path() / "rules");
  const Pipeline pipeline(rules);
  dir.write("repo/" + file, code);
  ScanOptions options;
  options.jobs = 1;
  const ScanResult result = pipeline.scan(dir.path() / "repo", options);
  std::vector<Site> sites;
  for (const auto& f : result.findings) sites.push_back({f.rule, f.location.line, f.guarded, f.message});
  return sites;
}

// The message of the RuleError that loading dir/rules and building a pipeline on them raises,
// or "" when both succeed.
inline std::string load_error(const TempDir& dir) {
  try {
    const RuleSet loaded = RuleSet::load(dir.path() / "rules");
    Pipeline pipeline(loaded);
  } catch (const RuleError& e) {
    return e.what();
  }
  return "";
}

inline std::vector<int> lines_of(const std::vector<Site>& sites) {
  std::vector<int> out;
  for (const auto& s : sites) out.push_back(s.line);
  return out;
}

}  // namespace mpsready::testing
