// python.query: a rule's query.scm, compiled once against the pinned grammar, with text
// predicates and mpsready's own predicates evaluated here. Documented in docs/rule-format.md.
#include <algorithm>
#include <memory>

#include <re2/re2.h>

#include "core/dotted_pattern.h"
#include "python/matchers/params.h"
#include "python/matchers/python_matcher.h"
#include "python/python_file.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// Bounds the states a query cursor keeps, so hostile input cannot make it grow without limit.
constexpr uint32_t kQueryMatchLimit = 1024;

struct QueryDeleter {
  void operator()(TSQuery* q) const { ts_query_delete(q); }
};
struct CursorDeleter {
  void operator()(TSQueryCursor* c) const { ts_query_cursor_delete(c); }
};

struct PredicateArg {
  bool is_capture = false;
  uint32_t capture = 0;
  std::string text;
};

enum class Op {
  eq, not_eq_, match, not_match, any_of, not_any_of, string_match, cuda_check, not_cuda_check,
  mentions, not_mentions, resolves_to
};

struct Predicate {
  Op op;
  std::vector<PredicateArg> args;  // args[0] is the capture tested
  std::unique_ptr<RE2> regex;
};

class QueryMatcher final : public PythonMatcher {
 public:
  QueryMatcher(const nlohmann::json& params, const Rule& rule) : reader_(params, rule, "python.query") {
    reader_.allow_only({});
    const std::string& source = rule.query_source;
    if (source.empty()) reader_.fail("the rule has no query.scm");
    uint32_t error_offset = 0;
    TSQueryError error = TSQueryErrorNone;
    query_.reset(ts_query_new(python_language(), source.data(), static_cast<uint32_t>(source.size()),
                              &error_offset, &error));
    if (!query_) {
      const int line = 1 + static_cast<int>(std::count(source.begin(), source.begin() + error_offset, '\n'));
      throw RuleError(rule.dir.string() + "/query.scm:" + std::to_string(line) +
                      ": query does not compile against tree-sitter-python (" + error_name(error) + ")");
    }
    const uint32_t captures = ts_query_capture_count(query_.get());
    for (uint32_t i = 0; i < captures; ++i) {
      uint32_t len = 0;
      const char* name = ts_query_capture_name_for_id(query_.get(), i, &len);
      const std::string_view capture(name, len);
      if (capture == "finding") finding_ = i;
      if (capture == "callee") callee_ = i;
    }
    if (finding_ == UINT32_MAX)
      throw RuleError(rule.dir.string() + "/query.scm: the query must capture @finding");
    const uint32_t patterns = ts_query_pattern_count(query_.get());
    predicates_.resize(patterns);
    for (uint32_t p = 0; p < patterns; ++p) parse_predicates(rule, p);
  }

  bool cost_grows_with_depth() const override { return true; }

  void match(const PythonFile& file, std::vector<RawMatch>& out) const override {
    thread_local std::unique_ptr<TSQueryCursor, CursorDeleter> cursor(ts_query_cursor_new());
    ts_query_cursor_set_match_limit(cursor.get(), kQueryMatchLimit);
    ts_query_cursor_exec(cursor.get(), query_.get(), file.root());
    TSQueryMatch match;
    while (ts_query_cursor_next_match(cursor.get(), &match)) {
      if (!predicates_hold(file, match)) continue;
      TSNode finding{}, callee{};
      for (uint16_t i = 0; i < match.capture_count; ++i) {
        if (match.captures[i].index == finding_) finding = match.captures[i].node;
        if (match.captures[i].index == callee_) callee = match.captures[i].node;
      }
      if (ts_node_is_null(finding)) continue;
      RawMatch m;
      m.node = finding;
      if (!ts_node_is_null(callee)) {
        m.vars["callee"] = file.imports().display_name(file.source(), callee);
        m.vars["name"] = m.vars["callee"];
      }
      out.push_back(std::move(m));
    }
  }

 private:
  static std::string error_name(TSQueryError error) {
    switch (error) {
      case TSQueryErrorSyntax: return "syntax error";
      case TSQueryErrorNodeType: return "unknown node type";
      case TSQueryErrorField: return "unknown field";
      case TSQueryErrorCapture: return "unknown capture";
      case TSQueryErrorStructure: return "impossible structure";
      case TSQueryErrorLanguage: return "language mismatch";
      default: return "error";
    }
  }

  void parse_predicates(const Rule& rule, uint32_t pattern) {
    uint32_t step_count = 0;
    const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(query_.get(), pattern, &step_count);
    std::vector<PredicateArg> current;
    std::string name;
    for (uint32_t i = 0; i < step_count; ++i) {
      const TSQueryPredicateStep& step = steps[i];
      if (step.type == TSQueryPredicateStepTypeDone) {
        add_predicate(rule, pattern, name, std::move(current));
        current.clear();
        name.clear();
        continue;
      }
      uint32_t len = 0;
      if (step.type == TSQueryPredicateStepTypeString) {
        const char* s = ts_query_string_value_for_id(query_.get(), step.value_id, &len);
        if (name.empty()) name.assign(s, len);
        else current.push_back({false, 0, std::string(s, len)});
      } else {
        current.push_back({true, step.value_id, {}});
      }
    }
  }

  void add_predicate(const Rule& rule, uint32_t pattern, const std::string& name,
                     std::vector<PredicateArg> args) {
    static const std::vector<std::pair<std::string, Op>> ops = {
        {"eq?", Op::eq}, {"not-eq?", Op::not_eq_}, {"match?", Op::match},
        {"not-match?", Op::not_match}, {"any-of?", Op::any_of}, {"not-any-of?", Op::not_any_of},
        {"string-match?", Op::string_match}, {"cuda-check?", Op::cuda_check},
        {"not-cuda-check?", Op::not_cuda_check}, {"mentions?", Op::mentions},
        {"not-mentions?", Op::not_mentions}, {"resolves-to?", Op::resolves_to}};
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& p) { return p.first == name; });
    const std::string where = rule.dir.string() + "/query.scm: pattern " + std::to_string(pattern) + ": ";
    if (it == ops.end()) throw RuleError(where + "unknown predicate #" + name);
    if (args.empty() || !args[0].is_capture)
      throw RuleError(where + "#" + name + " needs a capture as its first argument");
    Predicate pred{it->second, std::move(args), nullptr};
    const bool unary = pred.op == Op::cuda_check || pred.op == Op::not_cuda_check;
    if (unary != (pred.args.size() == 1))
      throw RuleError(where + "#" + name + (unary ? " takes one capture" : " needs a value"));
    if (pred.op == Op::match || pred.op == Op::not_match || pred.op == Op::string_match) {
      if (pred.args.size() != 2 || pred.args[1].is_capture)
        throw RuleError(where + "#" + name + " takes a capture and a regex");
      pred.regex = std::make_unique<RE2>(pred.args[1].text, RE2::Quiet);
      if (!pred.regex->ok()) throw RuleError(where + "invalid regex: " + pred.regex->error());
    }
    predicates_[pattern].push_back(std::move(pred));
  }

  bool holds(const PythonFile& file, const Predicate& pred, TSNode node, const TSQueryMatch& match) const {
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

  bool predicates_hold(const PythonFile& file, const TSQueryMatch& match) const {
    for (const Predicate& pred : predicates_[match.pattern_index]) {
      bool seen = false;
      for (uint16_t i = 0; i < match.capture_count; ++i) {
        if (match.captures[i].index != pred.args[0].capture) continue;
        seen = true;
        if (!holds(file, pred, match.captures[i].node, match)) return false;
      }
      // A predicate on an optional capture that did not match: negative predicates hold.
      if (!seen && (pred.op == Op::eq || pred.op == Op::match || pred.op == Op::any_of ||
                    pred.op == Op::string_match || pred.op == Op::cuda_check ||
                    pred.op == Op::mentions || pred.op == Op::resolves_to))
        return false;
    }
    return true;
  }

  ParamReader reader_;
  std::unique_ptr<TSQuery, QueryDeleter> query_;
  uint32_t finding_ = UINT32_MAX;
  uint32_t callee_ = UINT32_MAX;
  std::vector<std::vector<Predicate>> predicates_;
};

}  // namespace

std::unique_ptr<PythonMatcher> make_query_matcher(const nlohmann::json& params, const Rule& rule) {
  return std::make_unique<QueryMatcher>(params, rule);
}

}  // namespace mpsready
