// python.name: references to qualified names that are not calls (dtype=torch.float64,
// torch.backends.cudnn.benchmark = True). Documented in docs/rule-format.md.
#include <algorithm>

#include "core/dotted_pattern.h"
#include "python/matchers/params.h"
#include "python/matchers/python_matcher.h"
#include "python/matchers/site_impact.h"
#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

class NameMatcher final : public PythonMatcher {
 public:
  NameMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "python.name");
    reader.allow_only({"names", "exclude", "table", "include_calls", "assigned_only", "info_unless_argument",
                       "cpu_factories", "impact", "note", "guarded_impact"});
    site_impact_ = read_site_impact(reader);
    names_ = reader.strings("names");
    excluded_ = reader.strings("exclude");
    table_ = reader.table(rules);
    include_calls_ = reader.boolean("include_calls", false);
    assigned_only_ = reader.boolean("assigned_only", false);
    info_unless_argument_ = reader.boolean("info_unless_argument", false);
    cpu_factories_ = reader.strings("cpu_factories");
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
          // `x.dtype == torch.float64`, `dtype in (torch.float64, torch.double)`: a check of a
          // type makes no tensor, so it is no finding at all.
          if (info_unless_argument_ && compares_or_tests_membership(ref.node)) break;
          if (info_unless_argument_) judge_use(file, ref.node, m);
          site_impact_.apply(m);
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
  // A dtype named in a comparison, a membership list, a return or an assignment chooses or
  // checks a type; it is a problem where it is given to a call (`x.to(torch.float64)`,
  // `torch.zeros(3, dtype=torch.float64, device=d)`), and then only for a tensor that reaches a
  // device: a factory call without `device=` whose result is not moved on makes a CPU tensor.
  void judge_use(const PythonFile& file, TSNode node, RawMatch& m) const {
    const auto& f = PyFields::get();
    TSNode parent = ts_node_parent(node);
    if (node_is(parent, "keyword_argument")) parent = ts_node_parent(parent);
    if (!node_is(parent, "argument_list")) {
      m.impact_cap = Impact::info;
      m.vars["switch"] = "";
      m.vars["use"] = "it only names or compares a dtype here";
      return;
    }
    const TSNode call = ts_node_parent(parent);
    if (!node_is(call, "call") || cpu_factories_.empty()) return;
    // `x.cpu().to(torch.float64)`, `x.detach().cpu().to(...)`: converted on the CPU.
    const TSNode function = ts_node_child_by_field_id(call, f.function);
    if (node_is(function, "attribute") && file.text(ts_node_child_by_field_id(function, f.attribute)) == "to") {
      const std::string_view receiver = file.text(ts_node_child_by_field_id(function, f.object));
      if (receiver.find(".cpu()") != std::string_view::npos || receiver.find(".numpy()") != std::string_view::npos) {
        m.impact_cap = Impact::info;
        m.vars["use"] = "the tensor is converted on the CPU";
        return;
      }
    }
    const std::string callee = file.resolve(ts_node_child_by_field_id(call, f.function));
    if (callee.empty() || !matches_any(cpu_factories_, callee)) return;
    const uint32_t count = ts_node_named_child_count(parent);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode arg = ts_node_named_child(parent, i);
      if (node_is(arg, "keyword_argument") && file.text(ts_node_child_by_field_id(arg, f.name)) == "device") return;
    }
    // `torch.zeros(3, dtype=torch.float64).to(device)` moves it on.
    const TSNode up = ts_node_parent(call);
    if (node_is(up, "attribute")) {
      const std::string_view method = file.text(ts_node_child_by_field_id(up, f.attribute));
      if (method == "to" || method == "cuda" || method == "mps") return;
    }
    m.impact_cap = Impact::info;
    m.vars["use"] = "the tensor is made on the CPU (no `device=`)";
  }

  // The name is an operand of a comparison (`==`, `!=`, `is`, `in`), or an element of a tuple,
  // list or set that is one (`dtype in (torch.float64, torch.double)`). Bounded: two levels up.
  static bool compares_or_tests_membership(TSNode node) {
    TSNode parent = ts_node_parent(node);
    while (node_is(parent, "parenthesized_expression")) parent = ts_node_parent(parent);
    if (node_is(parent, "tuple") || node_is(parent, "list") || node_is(parent, "set")) {
      parent = ts_node_parent(parent);
      while (node_is(parent, "parenthesized_expression")) parent = ts_node_parent(parent);
    }
    return node_is(parent, "comparison_operator");
  }

  static bool matches_any(const std::vector<std::string>& patterns, const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return p != "*" && dotted_pattern_matches(p, name); });
  }
  std::vector<std::string> names_, excluded_;
  const Table* table_ = nullptr;
  bool include_calls_ = false;
  bool assigned_only_ = false;
  bool info_unless_argument_ = false;
  std::vector<std::string> cpu_factories_;
  SiteImpact site_impact_;
};

}  // namespace

std::unique_ptr<PythonMatcher> make_name_matcher(const nlohmann::json& params, const Rule& rule,
                                                 const RuleSet& rules) {
  return std::make_unique<NameMatcher>(params, rule, rules);
}

}  // namespace mpsready
