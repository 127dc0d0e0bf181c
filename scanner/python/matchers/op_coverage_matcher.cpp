// python.op_coverage: calls into PyTorch that run an aten operator with no MPS kernel in the
// target PyTorch version, according to its op-status table (bundled with the rules) or a given
// native_functions.yaml. Documented in docs/rule-format.md; the table is loaded once per scan, on
// the first call worth looking up.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "ops/op_coverage_source.h"
#include "ops/python_op_names.h"
#include "python/matchers/params.h"
#include "python/matchers/python_matcher.h"
#include "python/python_file.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

TSNode first_positional(TSNode arguments) {
  const uint32_t n = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    const TSNode child = ts_node_named_child(arguments, i);
    if (node_is(child, "keyword_argument") || node_is(child, "comment")) continue;
    return child;
  }
  return TSNode{};
}

// `x.cpu()`, `x.to("cpu")`, `x.to(device="cpu")`, `x.to(torch.device("cpu"))`: the op runs on the
// CPU whatever the model's device, which is the fix this rule suggests.
bool explicitly_on_cpu(const PythonFile& file, TSNode node) {
  if (!node_is(node, "call")) return false;
  const PyFields& f = PyFields::get();
  const TSNode function = ts_node_child_by_field_id(node, f.function);
  if (!node_is(function, "attribute")) return false;
  const std::string_view method = file.text(ts_node_child_by_field_id(function, f.attribute));
  if (method == "cpu") return true;
  if (method != "to") return false;
  const TSNode args = ts_node_child_by_field_id(node, f.arguments);
  const uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode arg = ts_node_named_child(args, i);
    if (node_is(arg, "keyword_argument")) {
      if (file.text(ts_node_child_by_field_id(arg, f.name)) != "device") continue;
      arg = ts_node_child_by_field_id(arg, f.value);
    }
    if (node_is(arg, "call") && file.resolve(ts_node_child_by_field_id(arg, f.function)) == "torch.device")
      arg = first_positional(ts_node_child_by_field_id(arg, f.arguments));
    if (const auto text = string_literal_content(file.source(), arg)) return *text == "cpu";
  }
  return false;
}

class OpCoverageMatcher final : public PythonMatcher {
 public:
  OpCoverageMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) : rules_dir_(rules.dir()) {
    const ParamReader reader(params, rule, "python.op_coverage");
    reader.allow_only({"table", "methods", "impact_with_cpu_kernel"});
    table_ = reader.table(rules);
    if (const std::string word = reader.string("impact_with_cpu_kernel", ""); !word.empty()) {
      cpu_kernel_impact_ = parse_impact(word);
      if (!cpu_kernel_impact_) reader.fail("impact_with_cpu_kernel: not an impact: " + word);
    }
    for (auto& m : reader.strings("methods")) methods_.insert(std::move(m));
  }

  void match(const PythonFile& file, std::vector<RawMatch>& out) const override {
    const NativeFunctions* ops = nullptr;
    bool asked = false;
    const PyFields& f = PyFields::get();
    for (const CallSite& call : file.calls()) {
      const bool torch_callee = call.callee.rfind("torch.", 0) == 0;
      const bool method_call = call.callee.empty() && node_is(call.function, "attribute");
      if (!torch_callee && !method_call) continue;
      const TSNode receiver = method_call ? ts_node_child_by_field_id(call.function, f.object) : TSNode{};
      // A method is looked up only on a known tensor or under an unambiguous name, and never on
      // `self`/`cls` (the class's own method of that name).
      if (method_call && (is_self(file, receiver) ||
                          (!methods_.count(std::string(call.method)) && !is_torch_call(file, receiver))))
        continue;
      // The table names the op for exceptions (composites that reach another op, Python code).
      const TableRecord* record = nullptr;
      if (table_) record = table_->lookup(torch_callee ? call.callee : "torch.Tensor." + std::string(call.method));
      if (!asked) {
        asked = true;
        ops = OpCoverageSource::shared().table(rules_dir_);
      }
      if (!ops) return;  // no native_functions.yaml: the scan says so once

      std::string op;
      if (record) {
        const auto it = record->fields.find("aten");
        op = it == record->fields.end() ? "" : it->second;  // "" in the table: not one op
      } else if (torch_callee) {
        op = aten_op_for_callee(call.callee, *ops);
      } else if (ops->is_method(call.method)) {  // a tensor method of the same name
        op = std::string(call.method);
      }
      const OpOverload* resolved = op.empty() ? nullptr : ops->default_op(op);
      if (!resolved || resolved->status != OpStatus::missing) continue;
      const TSNode operand = method_call ? receiver : first_positional(call.arguments);
      if (explicitly_on_cpu(file, operand)) continue;

      RawMatch m;
      m.node = call.node;
      m.record = record;
      m.vars["callee"] = file.imports().display_name(file.source(), call.function);
      m.vars["name"] = call.callee.empty() ? m.vars["callee"] : call.callee;
      m.vars["op"] = "aten::" + op;
      m.vars["torch_version"] = ops->version().empty() ? "(version unknown)" : ops->version();
      m.vars["native_functions"] = ops->where();  // a file name, never a path of this machine
      std::string via;  // why the table names this op, and an inferred status
      if (record)
        if (const auto why = record->fields.find("why"); why != record->fields.end()) via = " (" + why->second + ")";
      if (resolved->inferred)
        via += " (inferred: its one CompositeExplicitAutograd kernel runs the out= overload `aten::" +
               resolved->through + "`, which has device kernels but none for MPS)";
      m.vars["via"] = via;
      // PyTorch's CPU fallback runs an op that has a CPU kernel: the code needs no change, only
      // the environment does. An op with device kernels for CUDA alone has nowhere to fall back.
      m.vars["cpu"] = resolved->cpu_kernel
                          ? "; it has a CPU kernel, so PyTorch's fallback runs it with the environment variable set and the code needs no change"
                          : "; it has no CPU kernel either, so the fallback cannot run it";
      if (resolved->cpu_kernel && cpu_kernel_impact_) m.impact_cap = *cpu_kernel_impact_;
      out.push_back(std::move(m));
    }
  }

 private:
  // `torch.randn(3, 3).cholesky()`: the receiver is the result of a torch function that is an op.
  static bool is_torch_call(const PythonFile& file, TSNode receiver) {
    if (!node_is(receiver, "call")) return false;
    const std::string callee = file.resolve(ts_node_child_by_field_id(receiver, PyFields::get().function));
    return callee.rfind("torch.", 0) == 0 && callee.rfind("torch.nn.", 0) != 0 &&
           callee.find('.', 6) == std::string::npos;
  }

  static bool is_self(const PythonFile& file, TSNode receiver) {
    return node_is(receiver, "identifier") && (file.text(receiver) == "self" || file.text(receiver) == "cls");
  }

  std::filesystem::path rules_dir_;  // its op-status tables answer unless the scan names a file
  const Table* table_ = nullptr;
  std::set<std::string, std::less<>> methods_;
  std::optional<Impact> cpu_kernel_impact_;  // the rule's impact for an op PyTorch's fallback can run
};

}  // namespace

std::unique_ptr<PythonMatcher> make_op_coverage_matcher(const nlohmann::json& params, const Rule& rule,
                                                        const RuleSet& rules) {
  return std::make_unique<OpCoverageMatcher>(params, rule, rules);
}

}  // namespace mpsready
