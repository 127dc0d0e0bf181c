// python.call: calls selected by resolved callee, by method name, or through a table, with an
// optional constraint on one argument. Documented in docs/rule-format.md.
#include <algorithm>
#include <optional>

#include "core/dotted_pattern.h"
#include "python/matchers/argument_constraint.h"
#include "python/matchers/python_matcher.h"
#include "python/matchers/site_impact.h"
#include "python/python_file.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {


class CallMatcher final : public PythonMatcher {
 public:
  CallMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "python.call");
    reader.allow_only({"callee", "method", "exclude_callee", "table", "arg", "report", "info_when_arg",
                       "skip_after_methods", "impact", "note", "guarded_impact"});
    skip_after_ = reader.strings("skip_after_methods");
    callees_ = reader.strings("callee");
    methods_ = reader.strings("method");
    excluded_ = reader.strings("exclude_callee");
    table_ = reader.table(rules);
    if (const auto* arg = reader.object("arg")) arg_.emplace(*arg, reader);
    // A call that disables itself off CUDA when it has this argument (`autocast(..., enabled=x)`).
    if (const auto* arg = reader.object("info_when_arg")) info_when_.emplace(*arg, reader);
    site_impact_ = read_site_impact(reader);
    const std::string report = reader.string("report", "call");
    if (report == "call") report_ = Report::call;
    else if (report == "argument") report_ = Report::argument;
    else if (report == "callee") report_ = Report::callee;
    else reader.fail("\"report\" must be call, argument or callee");
    if (report_ == Report::argument && !arg_) reader.fail("\"report\": \"argument\" needs \"arg\"");
    if (callees_.empty() && methods_.empty() && !table_)
      reader.fail("needs \"callee\", \"method\" or \"table\"");
  }

  void match(const PythonFile& file, std::vector<RawMatch>& out) const override {
    for (const CallSite& call : file.calls()) {
      if (!call.callee.empty() && any_dotted_pattern_matches(excluded_, call.callee)) continue;
      const TableRecord* record = nullptr;
      bool hit = false;
      if (!call.callee.empty()) {
        if (table_) record = table_->lookup(call.callee);
        hit = record != nullptr || any_dotted_pattern_matches(callees_, call.callee);
      } else if (std::find(callees_.begin(), callees_.end(), "*") != callees_.end()) {
        hit = true;
      }
      // A method is called on a value, not on an imported module: `np.double(3)` is not
      // `.double()`, while `os.environ.get(...)` and `pkg.model.cuda()` are method calls.
      if (!hit && node_is(call.function, "attribute") && !on_imported_module(file, call)) {
        hit = std::find(methods_.begin(), methods_.end(), call.method) != methods_.end();
        // `x.cpu().double()`: a method called on what another method returned (on the CPU).
        if (hit && !skip_after_.empty()) {
          const TSNode receiver = ts_node_child_by_field_id(call.function, PyFields::get().object);
          // ... or on `super()`: an override that delegates (`def cuda(self): return super().cuda()`).
          if (node_is(receiver, "call")) {
            const TSNode inner = ts_node_child_by_field_id(receiver, PyFields::get().function);
            const std::string_view m = node_is(inner, "attribute")
                                           ? file.text(ts_node_child_by_field_id(inner, PyFields::get().attribute))
                                           : file.text(inner);
            if (std::find(skip_after_.begin(), skip_after_.end(), m) != skip_after_.end()) hit = false;
          }
        }
      }
      if (!hit) continue;

      TSNode argument{};
      if (arg_) {
        const auto matched = arg_->match(file, call);
        if (!matched) continue;
        argument = *matched;
      }
      RawMatch m;
      m.record = record;
      m.node = report_ == Report::call       ? call.node
               : report_ == Report::callee   ? call.function
               : ts_node_is_null(argument)   ? call.node
                                             : argument;
      m.vars["callee"] = file.imports().display_name(file.source(), call.function);
      m.vars["name"] = call.callee.empty() ? m.vars["callee"] : call.callee;
      if (!ts_node_is_null(argument)) m.vars["arg"] = std::string(file.text(argument));
      if (info_when_) {
        const auto switch_arg = info_when_->match(file, call);
        if (switch_arg && !ts_node_is_null(*switch_arg)) {
          m.impact_cap = Impact::info;
          m.vars["switch"] = std::string(file.text(*switch_arg));
          m.switched_by_cuda_test = file.cuda_check(*switch_arg) == CudaCheck::positive;
        }
      }
      site_impact_.apply(m);
      out.push_back(std::move(m));
    }
  }

 private:
  static bool on_imported_module(const PythonFile& file, const CallSite& call) {
    const TSNode receiver = ts_node_child_by_field_id(call.function, PyFields::get().object);
    return node_is(receiver, "identifier") && file.imports().binds_module(file.text(receiver));
  }
  enum class Report { call, argument, callee };
  std::vector<std::string> callees_, methods_, excluded_, skip_after_;
  const Table* table_ = nullptr;
  std::optional<ArgumentConstraint> arg_;
  std::optional<ArgumentConstraint> info_when_;
  Report report_ = Report::call;
  SiteImpact site_impact_;
};

}  // namespace

std::unique_ptr<PythonMatcher> make_call_matcher(const nlohmann::json& params, const Rule& rule,
                                                 const RuleSet& rules) {
  return std::make_unique<CallMatcher>(params, rule, rules);
}

}  // namespace mpsready
