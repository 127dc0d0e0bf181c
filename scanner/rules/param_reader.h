#pragma once
// Reading matcher params with errors that name the rule and the key; shared by every front end.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/rule.h"
#include "rules/rule_set.h"

namespace mpsready {

class ParamReader {
 public:
  ParamReader(const nlohmann::json& params, const Rule& rule, std::string kind)
      : params_(params), rule_(rule), kind_(std::move(kind)) {}

  std::vector<std::string> strings(const char* key) const;
  std::string string(const char* key, const std::string& fallback) const;
  bool boolean(const char* key, bool fallback) const;
  const nlohmann::json* object(const char* key) const;
  const Table* table(const RuleSet& rules) const;
  // Rejects keys the kind does not know, so a typo in a rule is an error, not a no-op.
  void allow_only(std::initializer_list<const char*> keys) const;
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const nlohmann::json& params_;
  const Rule& rule_;
  std::string kind_;
};

}  // namespace mpsready
