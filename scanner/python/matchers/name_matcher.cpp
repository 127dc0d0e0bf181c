// python.name: references to qualified names that are not calls (dtype=torch.float64,
// torch.backends.cudnn.benchmark = True). Documented in docs/rule-format.md.
#include <algorithm>

#include "core/dotted_pattern.h"
#include "python/matchers/params.h"
#include "python/matchers/python_matcher.h"
#include "python/python_file.h"

namespace mpsready {
namespace {

class NameMatcher final : public PythonMatcher {
 public:
  NameMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "python.name");
    reader.allow_only({"names", "exclude", "table", "include_calls", "assigned_only"});
    names_ = reader.strings("names");
    excluded_ = reader.strings("exclude");
    table_ = reader.table(rules);
    include_calls_ = reader.boolean("include_calls", false);
    assigned_only_ = reader.boolean("assigned_only", false);
    if (names_.empty() && !table_) reader.fail("needs \"names\" or \"table\"");
  }

  void match(const PythonFile& file, std::vector<RawMatch>& out) const override {
    for (const NameRef& ref : file.refs()) {
      if (ref.is_call_function && !include_calls_) continue;
      if (assigned_only_ && !ref.is_assign_target) continue;
      // The chain, then its prefixes: `torch.float64.itemsize` is a use of torch.float64.
      std::string name = ref.name;
      for (;;) {
        if (matches_any(excluded_, name)) break;
        const TableRecord* record = table_ ? table_->lookup(name) : nullptr;
        if (record || matches_any(names_, name)) {
          RawMatch m;
          m.node = ref.node;
          m.record = record;
          m.vars["name"] = name;
          m.vars["callee"] = name;
          out.push_back(std::move(m));
          break;
        }
        const size_t dot = name.rfind('.');
        if (dot == std::string::npos || name.find('.') == dot) break;  // keep two components
        name.resize(dot);
      }
    }
  }

 private:
  static bool matches_any(const std::vector<std::string>& patterns, const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return p != "*" && dotted_pattern_matches(p, name); });
  }
  std::vector<std::string> names_, excluded_;
  const Table* table_ = nullptr;
  bool include_calls_ = false;
  bool assigned_only_ = false;
};

}  // namespace

std::unique_ptr<PythonMatcher> make_name_matcher(const nlohmann::json& params, const Rule& rule,
                                                 const RuleSet& rules) {
  return std::make_unique<NameMatcher>(params, rule, rules);
}

}  // namespace mpsready
