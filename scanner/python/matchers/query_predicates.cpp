#include "python/matchers/query_predicates.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

#include "core/dotted_pattern.h"
#include "python/python_file.h"
#include "python/string_literal.h"
#include "python/ts_python.h"
#include "rules/rule_set.h"

namespace mpsready {
namespace {

struct PredicateArg {
  bool is_capture = false;
  uint32_t capture = 0;
  std::string text;
};

enum class Op {
  eq, not_eq_, match, not_match, any_of, not_any_of, string_match, cuda_check, not_cuda_check,
  mentions, not_mentions, resolves_to, needs_cuda, holds_without_cuda, cpu_switch
};

const std::vector<std::pair<std::string, Op>>& op_names() {
  static const std::vector<std::pair<std::string, Op>> ops = {
      {"eq?", Op::eq}, {"not-eq?", Op::not_eq_}, {"match?", Op::match},
      {"not-match?", Op::not_match}, {"any-of?", Op::any_of}, {"not-any-of?", Op::not_any_of},
      {"string-match?", Op::string_match}, {"cuda-check?", Op::cuda_check},
      {"not-cuda-check?", Op::not_cuda_check}, {"mentions?", Op::mentions},
      {"not-mentions?", Op::not_mentions}, {"resolves-to?", Op::resolves_to},
      {"needs-cuda?", Op::needs_cuda}, {"holds-without-cuda?", Op::holds_without_cuda},
      {"cpu-switch?", Op::cpu_switch}};
  return ops;
}

// A predicate on an optional capture that did not match: only the negative ones hold.
bool holds_without_capture(Op op) {
  return op == Op::not_eq_ || op == Op::not_match || op == Op::not_any_of || op == Op::not_cuda_check ||
         op == Op::not_mentions;
}

// A condition a Mac can meet: a negative CUDA check (`not torch.cuda.is_available()`,
// `CUDA_HOME is None`, `x.type != "cuda"`), or an `and` of conditions one of which is negative and
// none positive (`d.type != "cuda" and d.type != "xpu"`). The guard map reads such an `and` as no
// check at all, since its false branch may still lack CUDA; here only its true branch matters.
bool holds_without_cuda(const PythonFile& file, TSNode node) {
  bool negative = false;
  std::vector<TSNode> stack{node};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    while (std::string_view(ts_node_type(n)) == "parenthesized_expression" && ts_node_named_child_count(n) == 1)
      n = ts_node_named_child(n, 0);
    if (std::string_view(ts_node_type(n)) == "boolean_operator" && ts_node_child_count(n) == 3 &&
        file.text(ts_node_child(n, 1)) == "and") {
      stack.push_back(ts_node_child(n, 0));
      stack.push_back(ts_node_child(n, 2));
      continue;
    }
    const CudaCheck check = file.cuda_check(n);
    if (check == CudaCheck::positive) return false;
    negative = negative || check == CudaCheck::negative;
  }
  return negative;
}

// A switch to the CPU that the user sets (`cpu_only`, `not args.cpu`, `use_cpu`, `no_cuda`),
// possibly negated: a choice that knows only CUDA and the CPU, where a Mac run with the switch at
// its default gets CUDA.
bool is_cpu_switch(const PythonFile& file, TSNode node) {
  for (;;) {
    if (node_is(node, "parenthesized_expression") && ts_node_named_child_count(node) == 1) {
      node = ts_node_named_child(node, 0);
    } else if (node_is(node, "not_operator") && ts_node_named_child_count(node) == 1) {
      node = ts_node_named_child(node, 0);
    } else {
      break;
    }
  }
  if (!node_is(node, "identifier") && !node_is(node, "attribute")) return false;
  std::string_view name = file.text(node);
  if (const size_t dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!lower.empty() && lower.front() == '_') lower.erase(0, 1);
  static const std::set<std::string> switches = {"cpu",     "cpu_only", "only_cpu", "use_cpu", "force_cpu",
                                                  "on_cpu",  "no_cuda",  "no_gpu",   "disable_cuda"};
  return switches.count(lower) > 0;
}

}  // namespace

struct PatternPredicates::Predicate {
  Op op;
  std::vector<PredicateArg> args;  // args[0] is the capture tested
  std::unique_ptr<RE2> regex;
};

PatternPredicates::PatternPredicates(PatternPredicates&&) noexcept = default;
PatternPredicates::~PatternPredicates() = default;

PatternPredicates::PatternPredicates(const TSQuery* query, uint32_t pattern, const std::string& where) {
  uint32_t step_count = 0;
  const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(query, pattern, &step_count);
  std::vector<PredicateArg> args;
  std::string name;
  for (uint32_t i = 0; i < step_count; ++i) {
    const TSQueryPredicateStep& step = steps[i];
    if (step.type == TSQueryPredicateStepTypeCapture) {
      args.push_back({true, step.value_id, {}});
      continue;
    }
    if (step.type == TSQueryPredicateStepTypeString) {
      uint32_t len = 0;
      const char* s = ts_query_string_value_for_id(query, step.value_id, &len);
      if (name.empty()) name.assign(s, len);
      else args.push_back({false, 0, std::string(s, len)});
      continue;
    }
    // TSQueryPredicateStepTypeDone: one predicate is complete.
    const auto& ops = op_names();
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& p) { return p.first == name; });
    if (it == ops.end()) throw RuleError(where + "unknown predicate #" + name);
    if (args.empty() || !args[0].is_capture)
      throw RuleError(where + "#" + name + " needs a capture as its first argument");
    Predicate pred{it->second, std::move(args), nullptr};
    const bool unary = pred.op == Op::cuda_check || pred.op == Op::not_cuda_check || pred.op == Op::needs_cuda ||
                       pred.op == Op::holds_without_cuda || pred.op == Op::cpu_switch;
    if (unary != (pred.args.size() == 1))
      throw RuleError(where + "#" + name + (unary ? " takes one capture" : " needs a value"));
    if (pred.op == Op::match || pred.op == Op::not_match || pred.op == Op::string_match) {
      if (pred.args.size() != 2 || pred.args[1].is_capture)
        throw RuleError(where + "#" + name + " takes a capture and a regex");
      pred.regex = std::make_unique<RE2>(pred.args[1].text, RE2::Quiet);
      if (!pred.regex->ok()) throw RuleError(where + "invalid regex: " + pred.regex->error());
    }
    predicates_.push_back(std::move(pred));
    args.clear();
    name.clear();
  }
}

bool PatternPredicates::holds(const PythonFile& file, const Predicate& pred, TSNode node,
                              const TSQueryMatch& match) {
  const std::string_view text = file.text(node);
  auto arg_text = [&](const PredicateArg& arg) -> std::string {
    if (!arg.is_capture) return arg.text;
    for (uint16_t i = 0; i < match.capture_count; ++i)
      if (match.captures[i].index == arg.capture) return std::string(file.text(match.captures[i].node));
    return {};
  };
  switch (pred.op) {
    case Op::eq: return text == arg_text(pred.args[1]);
    case Op::not_eq_: return text != arg_text(pred.args[1]);
    case Op::match: return RE2::PartialMatch(text, *pred.regex);
    case Op::not_match: return !RE2::PartialMatch(text, *pred.regex);
    case Op::any_of:
    case Op::not_any_of: {
      const bool found = std::any_of(pred.args.begin() + 1, pred.args.end(),
                                     [&](const PredicateArg& a) { return text == arg_text(a); });
      return pred.op == Op::any_of ? found : !found;
    }
    case Op::string_match: {
      const auto content = string_literal_content(file.source(), node);
      return content && RE2::PartialMatch(*content, *pred.regex);
    }
    case Op::cuda_check: return file.cuda_check(node) != CudaCheck::none;
    case Op::not_cuda_check: return file.cuda_check(node) == CudaCheck::none;
    case Op::needs_cuda: return file.cuda_check(node) == CudaCheck::positive;
    case Op::holds_without_cuda: return holds_without_cuda(file, node);
    case Op::cpu_switch: return is_cpu_switch(file, node);
    case Op::mentions:
    case Op::not_mentions: {
      const bool found = text.find(arg_text(pred.args[1])) != std::string_view::npos;
      return pred.op == Op::mentions ? found : !found;
    }
    case Op::resolves_to: {
      const std::string name = file.resolve(node);
      return std::any_of(pred.args.begin() + 1, pred.args.end(), [&](const PredicateArg& a) {
        return dotted_pattern_matches(arg_text(a), name);
      });
    }
  }
  return false;
}

bool PatternPredicates::hold(const PythonFile& file, const TSQueryMatch& match) const {
  for (const Predicate& pred : predicates_) {
    bool seen = false;
    for (uint16_t i = 0; i < match.capture_count; ++i) {
      if (match.captures[i].index != pred.args[0].capture) continue;
      seen = true;
      if (!holds(file, pred, match.captures[i].node, match)) return false;
    }
    if (!seen && !holds_without_capture(pred.op)) return false;
  }
  return true;
}

}  // namespace mpsready
