#include "python/matchers/combined_query.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "python/matchers/query_limits.h"
#include "python/python_file.h"
#include "python/ts_python.h"
#include "rules/param_reader.h"
#include "rules/rule_set.h"

namespace mpsready {
namespace {

// Bounds the states a query cursor keeps, so hostile input cannot make it grow without limit.
constexpr uint32_t kQueryMatchLimit = 1024;

struct CursorDeleter {
  void operator()(TSQueryCursor* c) const { ts_query_cursor_delete(c); }
};

std::string error_name(TSQueryError error) {
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

std::string query_file(const Rule& rule) { return rule.dir.string() + "/query.scm"; }

uint32_t capture_id(const TSQuery* query, std::string_view wanted) {
  const uint32_t captures = ts_query_capture_count(query);
  for (uint32_t i = 0; i < captures; ++i) {
    uint32_t len = 0;
    const char* name = ts_query_capture_name_for_id(query, i, &len);
    if (std::string_view(name, len) == wanted) return i;
  }
  return UINT32_MAX;
}

// The line of the first `name:` whose field the grammar does not have, with the name; 0 when all
// are known. Checked before compiling: tree-sitter 0.20's ts_query_new leaks a small allocation
// when it fails on an unknown field, and rule files are user input (the fuzzer found it).
std::pair<int, std::string> unknown_field(std::string_view source) {
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::pair<int, std::string> found{0, ""};
  for_each_syntax_char(source, [&](size_t i, size_t line) -> size_t {
    if (!std::isalpha(static_cast<unsigned char>(source[i])) && source[i] != '_') return i;
    size_t end = i;
    while (end < source.size() && word_char(source[end])) ++end;
    size_t next = end;
    while (next < source.size() && (source[next] == ' ' || source[next] == '\t')) ++next;
    const std::string_view name = source.substr(i, end - i);
    if (next < source.size() && source[next] == ':' &&
        ts_language_field_id_for_name(python_language(), name.data(), static_cast<uint32_t>(name.size())) == 0) {
      found = {static_cast<int>(line), std::string(name)};
      return std::string_view::npos;
    }
    return end - 1;
  });
  return found;
}

// The first occurrence of `target`'s text after `after` in the function around it (the module
// when none), as the file reads in order; a null node when there is none or when that occurrence
// is an assignment's left side (the name is set again before anything reads it). Iterative, and
// the subtrees that end before `after` are never entered.
TSNode first_read_after(const PythonFile& file, TSNode after, TSNode target) {
  constexpr int kMaxAncestors = 256;
  TSNode scope = ts_node_parent(after);
  for (int i = 0; i < kMaxAncestors && !ts_node_is_null(scope) && !node_is(scope, "function_definition"); ++i)
    scope = ts_node_parent(scope);
  if (ts_node_is_null(scope) || !node_is(scope, "function_definition")) scope = file.root();
  const std::string_view name = file.text(target);
  const uint32_t from = ts_node_end_byte(after);
  const TSFieldId left = PyFields::get().left;
  std::vector<TSNode> stack{scope};
  while (!stack.empty()) {
    const TSNode node = stack.back();
    stack.pop_back();
    if (ts_node_end_byte(node) <= from) continue;
    if (ts_node_start_byte(node) >= from && (node_is(node, "identifier") || node_is(node, "attribute")) &&
        file.text(node) == name) {
      const TSNode parent = ts_node_parent(node);
      const bool assigned = node_is(parent, "assignment") && ts_node_eq(ts_node_child_by_field_id(parent, left), node);
      return assigned ? TSNode{} : node;
    }
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
  }
  return TSNode{};
}

}  // namespace

CombinedQuery::CombinedQuery() = default;
CombinedQuery::~CombinedQuery() = default;

uint32_t CombinedQuery::add(const nlohmann::json& params, const Rule& rule) {
  const ParamReader reader(params, rule, "python.query");
  reader.allow_only({"report"});
  const std::string report = reader.string("report", "match");
  if (report != "match" && report != "first-read-of-target")
    reader.fail("\"report\" is \"match\" (the default) or \"first-read-of-target\"");
  if (rule.query_source.empty()) reader.fail("the rule has no query.scm");
  if (const std::string too_large = check_query_limits(rule.query_source); !too_large.empty())
    throw RuleError(query_file(rule) + ": " + too_large +
                    "; tree-sitter's query compiler would take too long on it (split or simplify the patterns)");
  if (const auto [line, name] = unknown_field(rule.query_source); line > 0)
    throw RuleError(query_file(rule) + ":" + std::to_string(line) + ": query does not compile against tree-sitter-python (unknown field \"" +
                    name + "\")");
  parts_.push_back({&rule, rule.query_source, 0, report == "first-read-of-target"});
  return static_cast<uint32_t>(parts_.size() - 1);
}

void CombinedQuery::compile() {
  if (parts_.empty()) return;
  // Each part starts on a line of its own; the start offsets map patterns back to parts.
  std::string source;
  std::vector<uint32_t> part_start;
  for (const Part& part : parts_) {
    part_start.push_back(static_cast<uint32_t>(source.size()));
    source += part.source;
    source += '\n';
  }
  uint32_t error_offset = 0;
  TSQueryError error = TSQueryErrorNone;
  query_.reset(ts_query_new(python_language(), source.data(), static_cast<uint32_t>(source.size()),
                            &error_offset, &error));
  if (!query_) report_compile_error(error_offset, error);

  const uint32_t patterns = ts_query_pattern_count(query_.get());
  for (uint32_t p = 0; p < patterns; ++p) {
    const uint32_t start = ts_query_start_byte_for_pattern(query_.get(), p);
    const auto next = std::upper_bound(part_start.begin(), part_start.end(), start);
    slot_of_pattern_.push_back(static_cast<uint32_t>(next - part_start.begin()) - 1);
  }
  finding_ = capture_id(query_.get(), "finding");
  callee_ = capture_id(query_.get(), "callee");
  target_ = capture_id(query_.get(), "target");
  for (uint32_t slot = 0; slot < parts_.size(); ++slot) {
    bool captures_finding = false;
    for (uint32_t p = 0; p < patterns; ++p)
      if (slot_of_pattern_[p] == slot && finding_ != UINT32_MAX &&
          ts_query_capture_quantifier_for_id(query_.get(), p, finding_) != TSQuantifierZero)
        captures_finding = true;
    if (!captures_finding) throw RuleError(query_file(*parts_[slot].rule) + ": the query must capture @finding");
  }
  predicates_.reserve(patterns);
  for (uint32_t p = 0; p < patterns; ++p) {
    const Part& part = parts_[slot_of_pattern_[p]];
    const uint32_t first = static_cast<uint32_t>(
        std::find(slot_of_pattern_.begin(), slot_of_pattern_.end(), slot_of_pattern_[p]) - slot_of_pattern_.begin());
    predicates_.emplace_back(query_.get(), p, query_file(*part.rule) + ": pattern " + std::to_string(p - first) + ": ");
  }
}

void CombinedQuery::report_compile_error(uint32_t, TSQueryError) const {
  // A part that does not compile on its own is the culprit; its own offset gives the line.
  for (const Part& part : parts_) {
    uint32_t offset = 0;
    TSQueryError error = TSQueryErrorNone;
    TSQuery* alone = ts_query_new(python_language(), part.source.data(), static_cast<uint32_t>(part.source.size()),
                                  &offset, &error);
    if (alone) {
      ts_query_delete(alone);
      continue;
    }
    const int line = 1 + static_cast<int>(std::count(part.source.begin(), part.source.begin() + offset, '\n'));
    throw RuleError(query_file(*part.rule) + ":" + std::to_string(line) +
                    ": query does not compile against tree-sitter-python (" + error_name(error) + ")");
  }
  throw RuleError("the python.query rules compile one by one but not together: " + [&] {
    std::string ids;
    for (const Part& part : parts_) ids += (ids.empty() ? "" : ", ") + part.rule->id;
    return ids;
  }());
}

void CombinedQuery::run(const PythonFile& file, const std::vector<bool>& wanted,
                        std::vector<std::vector<RawMatch>>& out) const {
  out.resize(parts_.size());
  for (auto& matches : out) matches.clear();
  if (!query_ || std::find(wanted.begin(), wanted.end(), true) == wanted.end()) return;
  thread_local std::unique_ptr<TSQueryCursor, CursorDeleter> cursor(ts_query_cursor_new());
  ts_query_cursor_set_match_limit(cursor.get(), kQueryMatchLimit);
  ts_query_cursor_exec(cursor.get(), query_.get(), file.root());
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor.get(), &match)) {
    const uint32_t slot = slot_of_pattern_[match.pattern_index];
    if (!wanted[slot] || !predicates_[match.pattern_index].hold(file, match)) continue;
    TSNode finding{}, callee{}, target{};
    for (uint16_t i = 0; i < match.capture_count; ++i) {
      if (match.captures[i].index == finding_) finding = match.captures[i].node;
      if (match.captures[i].index == callee_) callee = match.captures[i].node;
      if (match.captures[i].index == target_) target = match.captures[i].node;
    }
    if (ts_node_is_null(finding)) continue;
    RawMatch m;
    m.node = finding;
    if (parts_[slot].first_read_of_target) {
      if (ts_node_is_null(target)) continue;
      const TSNode read = first_read_after(file, finding, target);
      if (ts_node_is_null(read)) continue;
      m.node = read;
      m.vars["set_line"] = std::to_string(ts_node_start_point(finding).row + 1);
    }
    if (!ts_node_is_null(callee)) {
      m.vars["callee"] = file.imports().display_name(file.source(), callee);
      m.vars["name"] = m.vars["callee"];
    }
    if (!ts_node_is_null(target)) m.vars["target"] = std::string(file.text(target));
    out[slot].push_back(std::move(m));
  }
}

}  // namespace mpsready
