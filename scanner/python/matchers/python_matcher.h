#pragma once
// The interface every Python matcher kind implements, and the factory that builds one from a
// rule's matcher spec. Matchers are compiled once per scan and shared by all worker threads, so
// match() must not modify the matcher.
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include <tree_sitter/api.h>

#include "rules/rule.h"
#include "rules/rule_set.h"
#include "rules/table.h"

namespace mpsready {

class PythonFile;

struct RawMatch {
  TSNode node;                               // the reported span
  std::map<std::string, std::string> vars;   // template values: callee, name, arg, text
  const TableRecord* record = nullptr;       // the table record that matched, if any
  // The matcher's own judgement of this site (`python.call`'s `info_when_arg`: a call that
  // switches itself off without CUDA): at most this impact.
  std::optional<Impact> impact_cap;
  // This matcher's impact for a site behind a guard (its `guarded_impact`), where it differs from
  // the rule's: a JIT build behind a fallback is harmless, a setup.py build behind one is not.
  std::optional<Impact> guarded_impact;
  // The call switches itself off by a CUDA test (`GradScaler(enabled=torch.cuda.is_available())`):
  // code that already gives the other devices their path (SiteContext::device_branch).
  bool switched_by_cuda_test = false;
};

class PythonMatcher {
 public:
  virtual ~PythonMatcher() = default;
  virtual void match(const PythonFile& file, std::vector<RawMatch>& out) const = 0;
};

// Throws RuleError naming the rule when the spec is invalid. python.query specs are not built
// here: PythonProgram adds them to the scan's one combined query (combined_query.h).
std::unique_ptr<PythonMatcher> compile_python_matcher(const MatcherSpec& spec, const Rule& rule,
                                                      const RuleSet& rules);

// Factories of each kind (one file each).
std::unique_ptr<PythonMatcher> make_call_matcher(const nlohmann::json& params, const Rule& rule,
                                                 const RuleSet& rules);
std::unique_ptr<PythonMatcher> make_name_matcher(const nlohmann::json& params, const Rule& rule,
                                                 const RuleSet& rules);
std::unique_ptr<PythonMatcher> make_import_matcher(const nlohmann::json& params, const Rule& rule,
                                                   const RuleSet& rules);
std::unique_ptr<PythonMatcher> make_array_to_device_matcher(const nlohmann::json& params, const Rule& rule,
                                                            const RuleSet& rules);
std::unique_ptr<PythonMatcher> make_op_coverage_matcher(const nlohmann::json& params, const Rule& rule,
                                                        const RuleSet& rules);

}  // namespace mpsready
