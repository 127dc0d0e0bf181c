#pragma once
// All rules and tables found under a rules directory, loaded and validated once.
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/rule.h"
#include "rules/table.h"

namespace mpsready {

// Raised for a rule or table file that is missing, malformed or inconsistent. The message
// names the file and the key.
class RuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RuleSet {
 public:
  // Walks `rules_dir` (rules/<language>/<id>/rule.json and rules/tables/*.json).
  static RuleSet load(const std::filesystem::path& rules_dir);

  const std::vector<Rule>& rules() const { return rules_; }
  const Rule* find(const std::string& id) const;
  const Table* table(const std::string& name) const;
  const std::filesystem::path& dir() const { return dir_; }

  // Keeps only rules selected by `select` (ids, or prefixes ending in '*'; empty = all) and not
  // named by `ignore`. Unknown ids are an error.
  void restrict(const std::vector<std::string>& select, const std::vector<std::string>& ignore);
  // The configuration's impacts (`impact` of .mpsready.json or [tool.mpsready]), by rule id,
  // rewrite the loaded rules before a scan (Rule::configure_impact); unknown ids are an error.
  void configure_impacts(const std::map<std::string, Impact>& impacts);

 private:
  std::filesystem::path dir_;
  std::vector<Rule> rules_;  // sorted by id
  std::map<std::string, Table> tables_;
};

// Parses one rule.json (exposed for tests).
Rule parse_rule(const nlohmann::json& json, const std::string& where);

// The directory holding the rules: --rules, $MPSREADY_RULES_DIR, <exe>/../share/mpsready/rules,
// then the source tree this binary was built from.
std::filesystem::path default_rules_dir(const std::string& override_dir, const char* argv0);

}  // namespace mpsready
