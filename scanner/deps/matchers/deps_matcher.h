#pragma once
// The interface every deps matcher kind implements, and the registry that builds one from a
// rule's matcher spec. Compiled once per scan and shared by all workers: match() is const.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "deps/deps_file.h"
#include "rules/rule.h"
#include "rules/rule_set.h"
#include "rules/table.h"

namespace mpsready {

// How a declaration limits where a package is installed.
enum class DepsLimit { none, optional, marker };

struct DepsMatch {
  uint32_t start = 0, end = 0;              // byte span in the file
  std::map<std::string, std::string> vars;  // template values
  const TableRecord* record = nullptr;      // its string fields feed the templates; may set impact
  std::optional<Impact> impact;             // the matcher's own impact, over the record's
  std::string message, fix;                 // the matcher's own templates, when set
  std::optional<bool> mechanical;
  DepsLimit limit = DepsLimit::none;
  const DependencyRecord* dependency = nullptr;  // for package matches
  std::vector<std::string> modules;              // import names of the matched package
};

class DepsMatcher {
 public:
  virtual ~DepsMatcher() = default;
  virtual void match(const DepsFile& file, std::vector<DepsMatch>& out) const = 0;
};

// Throws RuleError naming the rule when the spec is invalid.
std::unique_ptr<DepsMatcher> compile_deps_matcher(const MatcherSpec& spec, const Rule& rule, const RuleSet& rules);

std::unique_ptr<DepsMatcher> make_package_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules);
std::unique_ptr<DepsMatcher> make_directive_matcher(const nlohmann::json& params, const Rule& rule);

// Kinds of file named in params (`requirements`, `dockerfile`, ...); throws on an unknown one.
std::vector<DepsFileKind> parse_file_kinds(const nlohmann::json& params, const Rule& rule, const char* kind);
// Overrides shared by both kinds: impact, message, fix, mechanical.
void read_overrides(const nlohmann::json& params, const Rule& rule, const char* kind, DepsMatch& into);

}  // namespace mpsready
