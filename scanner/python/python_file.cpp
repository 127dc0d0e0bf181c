#include "python/python_file.h"

#include <algorithm>
#include <optional>
#include <cstring>
#include <unordered_set>

#include "python/import_fallback.h"
#include "python/opt_in.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// Parents whose identifier children are declarations or keywords, not references.
bool declares_names(std::string_view parent_type) {
  static const std::unordered_set<std::string_view> types = {
      "function_definition", "class_definition", "parameters", "lambda_parameters",
      "typed_parameter",
      "aliased_import", "dotted_name", "import_from_statement", "import_statement",
      "global_statement", "nonlocal_statement", "list_splat_pattern", "dictionary_splat_pattern",
      "keyword_pattern"};
  return types.count(parent_type) != 0;
}

// `pytest.skip(...)`, `self.skipTest(...)`: a test leaves like a return.
bool is_skip_or_exit_call(std::string_view source, TSNode stmt) {
  if (!node_is(stmt, "expression_statement")) return false;
  const TSNode call = ts_node_named_child(stmt, 0);
  if (!node_is(call, "call")) return false;
  const std::string_view callee = node_text(source, ts_node_child_by_field_id(call, PyFields::get().function));
  const size_t dot = callee.rfind('.');
  const std::string_view name = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
  return name == "skip" || name == "skipTest";
}

bool ends_with_exit(std::string_view source, TSNode block) {
  const uint32_t count = ts_node_named_child_count(block);
  if (count == 0) return false;
  const TSNode last = ts_node_named_child(block, count - 1);
  // A test's skip leaves like a return; a plain raise or exit does not: the program stops there
  // on a Mac, which is the requirement py-cuda-required reports.
  const bool raises_skip = node_is(last, "raise_statement") && node_text(source, last).find("Skip") != std::string_view::npos;
  return node_is(last, "return_statement") || node_is(last, "continue_statement") ||
         node_is(last, "break_statement") || raises_skip || is_skip_or_exit_call(source, last);
}

// `@unittest.skipIf(cond, …)` / `@pytest.mark.skipif(cond, …)` skip when the condition holds;
// `@unittest.skipUnless(cond, …)` when it does not. nullopt: no such decorator.
struct SkipDecorator {
  TSNode condition;
  bool skips_when_true;
};
std::optional<SkipDecorator> skip_decorator(std::string_view source, TSNode decorator) {
  const TSNode call = ts_node_named_child(decorator, 0);
  if (!node_is(call, "call")) return std::nullopt;
  const std::string_view callee = node_text(source, ts_node_child_by_field_id(call, PyFields::get().function));
  const bool when_true = callee.size() >= 6 && (callee.substr(callee.size() - 6) == "skipIf" || callee.substr(callee.size() - 6) == "skipif");
  const bool unless = callee.size() >= 10 && callee.substr(callee.size() - 10) == "skipUnless";
  if (!when_true && !unless) return std::nullopt;
  const TSNode args = ts_node_child_by_field_id(call, PyFields::get().arguments);
  if (ts_node_named_child_count(args) == 0) return std::nullopt;
  return SkipDecorator{ts_node_named_child(args, 0), when_true};
}

bool only_raises(TSNode block) {
  const uint32_t count = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode stmt = ts_node_named_child(block, i);
    if (!node_is(stmt, "raise_statement") && !node_is(stmt, "comment")) return false;
  }
  return count > 0;
}

bool catches_import_errors(std::string_view source, TSNode except_clause) {
  // `except:` has no expression; `except ImportError as e:` has one before the block.
  const uint32_t count = ts_node_named_child_count(except_clause);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(except_clause, i);
    if (node_is(child, "block") || node_is(child, "comment")) continue;
    const std::string_view text = node_text(source, child);
    return text.find("ImportError") != std::string_view::npos ||
           text.find("ModuleNotFoundError") != std::string_view::npos ||
           text.find("Exception") != std::string_view::npos;
  }
  return true;  // bare except
}

TSNode block_of(TSNode clause) {
  const uint32_t count = ts_node_named_child_count(clause);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(clause, i);
    if (node_is(child, "block")) return child;
  }
  return TSNode{};
}

// Names set to a constant in a block (`HAS_APEX = True`): availability flags.
void collect_flags(std::string_view source, TSNode block, std::unordered_set<std::string>& flags) {
  if (ts_node_is_null(block)) return;
  const auto& f = PyFields::get();
  const uint32_t count = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode stmt = ts_node_named_child(block, i);
    if (!node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) == 0) continue;
    const TSNode assign = ts_node_named_child(stmt, 0);
    if (!node_is(assign, "assignment")) continue;
    const TSNode left = ts_node_child_by_field_id(assign, f.left);
    const TSNode right = ts_node_child_by_field_id(assign, f.right);
    if (node_is(left, "identifier") &&
        (node_is(right, "true") || node_is(right, "false") || node_is(right, "none")))
      flags.insert(std::string(node_text(source, left)));
  }
}

// The body of an if statement's `else:` (null when it has none); `has_alternative` tells whether
// it has an `elif` or an `else` at all.
TSNode else_body(TSNode stmt, bool& has_alternative) {
  TSNode body{};
  const uint32_t count = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode clause = ts_node_named_child(stmt, i);
    if (node_is(clause, "else_clause")) body = ts_node_child_by_field_id(clause, PyFields::get().body);
    has_alternative = has_alternative || node_is(clause, "else_clause") || node_is(clause, "elif_clause");
  }
  return body;
}

// The bodies of the alternatives after a branch: for an `if` statement, its `elif`s and `else`;
// for an `elif` clause, the `elif`s and `else` that follow it. A Mac that takes the branch takes
// none of them.
std::vector<TSNode> later_alternatives(TSNode branch) {
  const auto& f = PyFields::get();
  std::vector<TSNode> out;
  const bool clause = node_is(branch, "elif_clause");
  TSNode next = clause ? ts_node_next_named_sibling(branch) : TSNode{};
  if (!clause) {
    const uint32_t count = ts_node_named_child_count(branch);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode child = ts_node_named_child(branch, i);
      if (node_is(child, "elif_clause") || node_is(child, "else_clause")) {
        next = child;
        break;
      }
    }
  }
  for (; !ts_node_is_null(next); next = ts_node_next_named_sibling(next)) {
    if (node_is(next, "elif_clause")) out.push_back(ts_node_child_by_field_id(next, f.consequence));
    else if (node_is(next, "else_clause")) out.push_back(ts_node_child_by_field_id(next, f.body));
  }
  return out;
}

// A name an import by string may give: `a.b`, not `.b` (relative to a `package=`) nor computed.
bool is_dotted_name(std::string_view name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  for (const char c : name) {
    const bool ok = c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// `__import__("flash_attn")`, `importlib.import_module("flash_attn.ops")` (also after `from
// importlib import import_module`): an import of a module named by a string literal, recorded as
// one for import rules, import guards and the import graph.
void read_string_import(std::string_view source, TSNode call, ImportMap& imports) {
  const auto& f = PyFields::get();
  const TSNode function = ts_node_child_by_field_id(call, f.function);
  const std::string callee = imports.resolve(source, function);
  const bool dunder = callee.empty() && node_is(function, "identifier") && node_text(source, function) == "__import__";
  if (!dunder && callee != "importlib.import_module" && callee != "importlib.__import__") return;
  const TSNode args = ts_node_child_by_field_id(call, f.arguments);
  if (!node_is(args, "argument_list") || ts_node_named_child_count(args) == 0) return;
  const TSNode literal = ts_node_named_child(args, 0);
  if (!node_is(literal, "string")) return;
  for (uint32_t i = 0; i < ts_node_named_child_count(literal); ++i)
    if (node_is(ts_node_named_child(literal, i), "interpolation")) return;  // an f-string computes it
  const std::optional<std::string> name = string_literal_content(source, literal);
  if (!name || !is_dotted_name(*name)) return;
  // The statement holding the call, for the import's context and guards.
  TSNode statement = call;
  for (int i = 0; i < 256; ++i) {
    const TSNode parent = ts_node_parent(statement);
    if (ts_node_is_null(parent) || node_is(parent, "module") || node_is(parent, "block")) break;
    statement = parent;
  }
  std::string local;
  const TSNode parent = ts_node_parent(call);
  if (node_is(parent, "assignment") && ts_node_eq(ts_node_child_by_field_id(parent, f.right), call)) {
    const TSNode left = ts_node_child_by_field_id(parent, f.left);
    if (node_is(left, "identifier")) local = std::string(node_text(source, left));
  }
  // `__import__("a.b")` returns the package `a`; `import_module("a.b")` the module `a.b`.
  const std::string bound_to = dunder || callee == "importlib.__import__" ? name->substr(0, name->find('.')) : *name;
  imports.add_string_import(statement, literal, *name, local, bound_to);
}

struct Frame {
  TSNode node;
  TSFieldId field;  // this node's field in its parent
};

}  // namespace

PythonFile::PythonFile(std::string_view source, TSTree* tree, const StarBindings* star)
    : source_(source), root_(ts_tree_root_node(tree)) {
  const auto& f = PyFields::get();
  struct RefCandidate {
    TSNode node;
    bool is_call_function;
    bool is_assign_target;
  };
  std::vector<TSNode> call_nodes, tries, conditionals, booleans, decorated, defaults, assignments;
  std::vector<RefCandidate> ref_nodes;
  std::vector<std::pair<TSNode, TSNode>> ifs;  // if_statement or elif_clause, with its parent

  // One iterative depth-first walk; `stack` mirrors the cursor's ancestors.
  TSTreeCursor cursor = ts_tree_cursor_new(root_);
  std::vector<Frame> stack{{root_, 0}};
  for (;;) {
    const Frame& top = stack.back();
    const TSNode node = top.node;
    const char* type = ts_node_type(node);
    const TSNode parent = stack.size() >= 2 ? stack[stack.size() - 2].node : TSNode{};
    if (!first_error_ && (ts_node_is_missing(node) || std::strcmp(type, "ERROR") == 0))
      first_error_ = node;
    if (std::strcmp(type, "call") == 0) {
      call_nodes.push_back(node);
    } else if (std::strcmp(type, "attribute") == 0 || std::strcmp(type, "identifier") == 0) {
      // Only the longest chain is a reference: `torch.cuda` inside `torch.cuda.Stream` is not,
      // and neither is the `cuda` of `x.cuda`.
      const bool is_attribute = type[0] == 'a';
      const bool inside_chain = node_is(parent, "attribute") && (!is_attribute || top.field == f.object);
      bool declared = false;
      if (!is_attribute && !ts_node_is_null(parent)) {
        const std::string_view parent_type = ts_node_type(parent);
        declared = (parent_type == "keyword_argument" || parent_type == "default_parameter" ||
                    parent_type == "typed_default_parameter")
                       ? top.field == f.name
                       : declares_names(parent_type);
      }
      if (!ts_node_is_null(parent) && !inside_chain && !declared) {
        const bool call_fn = node_is(parent, "call") && top.field == f.function;
        const bool assigned = (node_is(parent, "assignment") ||
                               node_is(parent, "augmented_assignment")) && top.field == f.left;
        ref_nodes.push_back({node, call_fn, assigned});
      }
    } else if (std::strcmp(type, "import_statement") == 0 ||
               std::strcmp(type, "import_from_statement") == 0) {
      imports_.add_statement(source_, node);
    } else if (std::strcmp(type, "if_statement") == 0 || std::strcmp(type, "elif_clause") == 0) {
      ifs.emplace_back(node, parent);
    } else if (std::strcmp(type, "conditional_expression") == 0) {
      conditionals.push_back(node);
    } else if (std::strcmp(type, "default_parameter") == 0 || std::strcmp(type, "typed_default_parameter") == 0) {
      defaults.push_back(node);
    } else if (std::strcmp(type, "assignment") == 0) {
      assignments.push_back(node);
    } else if (std::strcmp(type, "decorated_definition") == 0) {
      decorated.push_back(node);
    } else if (std::strcmp(type, "try_statement") == 0) {
      tries.push_back(node);
    } else if (std::strcmp(type, "boolean_operator") == 0) {
      booleans.push_back(node);
    }

    if (ts_tree_cursor_goto_first_child(&cursor)) {
      stack.push_back({ts_tree_cursor_current_node(&cursor), ts_tree_cursor_current_field_id(&cursor)});
      max_depth_ = std::max(max_depth_, stack.size());
      continue;
    }
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
      stack.pop_back();
    }
    if (done) break;
    stack.back() = {ts_tree_cursor_current_node(&cursor), ts_tree_cursor_current_field_id(&cursor)};
  }
  ts_tree_cursor_delete(&cursor);

  // Names a local star import binds, where the file binds none of its own; then imports by string
  // (which may follow `from importlib import import_module`).
  if (star)
    for (const auto& [local, binding] : *star) imports_.bind_if_unbound(local, binding.qualified, binding.is_module);
  for (const TSNode call : call_nodes) read_string_import(source_, call, imports_);

  // Imports are known now: resolve names.
  calls_.reserve(call_nodes.size());
  for (const TSNode call : call_nodes) {
    CallSite site{call, ts_node_child_by_field_id(call, f.function),
                  ts_node_child_by_field_id(call, f.arguments), {}, {}};
    site.callee = imports_.resolve(source_, site.function);
    if (node_is(site.function, "attribute"))
      site.method = node_text(source_, ts_node_child_by_field_id(site.function, f.attribute));
    else if (node_is(site.function, "identifier"))
      site.method = node_text(source_, site.function);
    calls_.push_back(std::move(site));
  }
  for (const auto& candidate : ref_nodes) {
    std::string name = imports_.resolve(source_, candidate.node);
    if (name.empty()) continue;
    refs_.push_back({candidate.node, std::move(name), candidate.is_call_function,
                     candidate.is_assign_target});
  }

  // Guards. Availability flags first: handlers of import fallbacks set them (`HAS_APEX = False`),
  // and conditions that test them are checks.
  std::unordered_set<std::string>& flags = flags_;
  std::vector<std::pair<TSNode, TSNode>> fallbacks;  // try_statement, handler that may be a fallback
  for (const TSNode attempt : tries) {
    const uint32_t count = ts_node_named_child_count(attempt);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode clause = ts_node_named_child(attempt, i);
      if (!node_is(clause, "except_clause")) continue;
      const TSNode handler = block_of(clause);
      if (catches_import_errors(source_, clause) && !ts_node_is_null(handler) && !only_raises(handler)) {
        fallbacks.emplace_back(attempt, handler);
        collect_flags(source_, handler, flags);
        collect_flags(source_, ts_node_child_by_field_id(attempt, f.body), flags);
      }
    }
  }

  // Names the file assigns a CUDA test to (`pt_cuda_available = torch.cuda.is_available()`,
  // `on_gpu = x.is_cuda and not args.cpu`): a condition that tests the name is that test.
  {
    const CudaCheckClassifier probe(source_, imports_, flags);
    std::vector<std::string> assigned;
    for (const TSNode assignment : assignments) {
      const TSNode left = ts_node_child_by_field_id(assignment, f.left);
      const TSNode right = ts_node_child_by_field_id(assignment, f.right);
      if (ts_node_is_null(left) || ts_node_is_null(right) || !node_is(left, "identifier")) continue;
      const std::string_view value = node_text(source_, right);
      if (value.find("cuda") == std::string_view::npos) continue;
      // Only a value that is a test: `x = x.cuda()`, `device = "cuda"` or `torch.device("cuda")`
      // mention CUDA but are no check, and the name is no flag.
      const bool test = node_is(right, "comparison_operator") || node_is(right, "not_operator") ||
                        node_is(right, "boolean_operator") ||
                        (node_is(right, "attribute") && value.ends_with(".is_cuda")) ||
                        (node_is(right, "call") && value.ends_with("is_available()"));
      if (test && probe.classify(right) == CudaCheck::positive) assigned.emplace_back(node_text(source_, left));
    }
    flags.insert(assigned.begin(), assigned.end());
  }
  const CudaCheckClassifier classifier(source_, imports_, flags);
  for (const auto& [stmt, parent] : ifs) {
    const TSNode condition = ts_node_child_by_field_id(stmt, f.condition);
    const CudaCheck check = classifier.classify(condition);
    const TSNode consequence = ts_node_child_by_field_id(stmt, f.consequence);
    if (const CudaCheck launch = classifier.classify_choice_check(condition); launch == CudaCheck::positive) {
      choice_guards_.add(ts_node_start_byte(consequence), ts_node_end_byte(consequence));
    } else if (launch == CudaCheck::negative && node_is(stmt, "if_statement")) {
      bool has_alternative = false;
      const TSNode otherwise = else_body(stmt, has_alternative);
      if (!ts_node_is_null(otherwise)) choice_guards_.add(ts_node_start_byte(otherwise), ts_node_end_byte(otherwise));
    }
    if (check == CudaCheck::positive) {
      guards_.add(ts_node_start_byte(consequence), ts_node_end_byte(consequence));
    } else if (check == CudaCheck::negative && node_is(stmt, "if_statement")) {
      bool has_alternative = false;
      const TSNode otherwise = else_body(stmt, has_alternative);
      if (!ts_node_is_null(otherwise)) guards_.add(ts_node_start_byte(otherwise), ts_node_end_byte(otherwise));
      // `if not cuda: return` guards the rest of the enclosing block.
      if (!has_alternative && ends_with_exit(source_, consequence) && !ts_node_is_null(parent))
        guards_.add(ts_node_end_byte(stmt), ts_node_end_byte(parent));
    }
  }
  for (const TSNode expr : conditionals) {
    if (ts_node_named_child_count(expr) < 3) continue;
    const TSNode when_true = ts_node_named_child(expr, 0);
    const TSNode when_false = ts_node_named_child(expr, 2);
    const CudaCheck check = classifier.classify(ts_node_named_child(expr, 1));
    if (check == CudaCheck::positive)
      guards_.add(ts_node_start_byte(when_true), ts_node_end_byte(when_true));
    else if (check == CudaCheck::negative)
      guards_.add(ts_node_start_byte(when_false), ts_node_end_byte(when_false));
  }
  // Test-skip decorators: the test runs only when CUDA is there.
  for (const TSNode definition : decorated) {
    const uint32_t count = ts_node_named_child_count(definition);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode decorator = ts_node_named_child(definition, i);
      if (!node_is(decorator, "decorator")) continue;
      const auto skip = skip_decorator(source_, decorator);
      if (!skip) continue;
      const CudaCheck check = classifier.classify(skip->condition);
      if ((skip->skips_when_true && check == CudaCheck::negative) || (!skip->skips_when_true && check == CudaCheck::positive)) {
        const TSNode body = ts_node_child_by_field_id(definition, PyFields::get().definition);
        if (!ts_node_is_null(body)) guards_.add(ts_node_start_byte(body), ts_node_end_byte(body));
      }
    }
  }
  for (const TSNode expr : booleans) {
    const TSNode op = ts_node_child_by_field_id(expr, f.operator_);
    if (node_text(source_, op) != "and") continue;
    if (classifier.classify(ts_node_child_by_field_id(expr, f.left)) == CudaCheck::positive) {
      const TSNode right = ts_node_child_by_field_id(expr, f.right);
      guards_.add(ts_node_start_byte(right), ts_node_end_byte(right));
    }
  }
  // Names the file assigns an MPS test to (`mps = device == "mps"`, `is_mps = x.device.type == "mps"`).
  std::unordered_set<std::string> mps_flags;
  for (const TSNode assignment : assignments) {
    const TSNode left = ts_node_child_by_field_id(assignment, f.left);
    const TSNode right = ts_node_child_by_field_id(assignment, f.right);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !node_is(left, "identifier")) continue;
    if (classify_mps_condition(node_text(source_, right)) == MpsCheck::positive)
      mps_flags.emplace(node_text(source_, left));
  }
  // MPS-aware branches: `if x.device.type == "mps": ... else: <the other devices' code>` — on a Mac
  // the else branch is not taken; `if device.type != "mps":` likewise guards its body, and
  // `if x.device.type == "mps": return` the rest of the enclosing block.
  // An `elif` that tests for MPS does the same for the alternatives after it. These are also
  // choices (a Mac's run takes the MPS branch), so a CUDA requirement there is lowered too.
  const auto mps_guard = [&](uint32_t start, uint32_t end) {
    guards_.add(start, end);
    choice_guards_.add(start, end);
  };
  for (const auto& [stmt, parent] : ifs) {
    const bool clause = node_is(stmt, "elif_clause");
    if (!clause && !node_is(stmt, "if_statement")) continue;
    const MpsCheck mps = classify_mps_condition(node_text(source_, ts_node_child_by_field_id(stmt, f.condition)), mps_flags);
    if (mps == MpsCheck::negative) {
      const TSNode consequence = ts_node_child_by_field_id(stmt, f.consequence);
      mps_guard(ts_node_start_byte(consequence), ts_node_end_byte(consequence));
    } else if (mps == MpsCheck::positive) {
      for (const TSNode other : later_alternatives(stmt))
        if (!ts_node_is_null(other)) mps_guard(ts_node_start_byte(other), ts_node_end_byte(other));
      if (clause) continue;
      bool has_alternative = false;
      else_body(stmt, has_alternative);
      const TSNode consequence = ts_node_child_by_field_id(stmt, f.consequence);
      if (!has_alternative && ends_with_exit(source_, consequence) && !ts_node_is_null(parent))
        mps_guard(ts_node_end_byte(stmt), ts_node_end_byte(parent));
    }
  }
  // Device branches: an `if`/`elif` chain with a branch for MPS, whose CUDA branch calls CUDA's
  // own functions (`if torch.cuda.is_available(): torch.cuda.synchronize()` /
  // `elif torch.backends.mps.is_available(): torch.mps.synchronize()`). The chain already gives
  // each device its code; the CUDA branch is that device's half, nothing a Mac needs changed.
  for (const auto& [stmt, parent] : ifs) {
    (void)parent;
    if (!node_is(stmt, "if_statement")) continue;
    std::vector<TSNode> clauses{stmt};
    for (uint32_t i = 0; i < ts_node_named_child_count(stmt); ++i)
      if (const TSNode child = ts_node_named_child(stmt, i); node_is(child, "elif_clause")) clauses.push_back(child);
    bool has_mps_branch = false;
    for (const TSNode clause : clauses)
      has_mps_branch = has_mps_branch || classify_mps_condition(node_text(source_, ts_node_child_by_field_id(clause, f.condition)),
                                                                mps_flags) == MpsCheck::positive;
    if (!has_mps_branch) continue;
    for (const TSNode clause : clauses) {
      const TSNode condition = ts_node_child_by_field_id(clause, f.condition);
      if (classifier.classify(condition) != CudaCheck::positive &&
          classifier.classify_choice_check(condition) != CudaCheck::positive)
        continue;
      const TSNode consequence = ts_node_child_by_field_id(clause, f.consequence);
      if (!ts_node_is_null(consequence))
        device_branches_.add(ts_node_start_byte(consequence), ts_node_end_byte(consequence));
    }
  }
  // Opt-in options: a branch the default path does not take (opt_in.h).
  const OptInClassifier opt_in(source_, defaults, assignments);
  for (const auto& [stmt, parent] : ifs) {
    (void)parent;
    if (classifier.classify(ts_node_child_by_field_id(stmt, f.condition)) != CudaCheck::none) continue;
    const TSNode condition = ts_node_child_by_field_id(stmt, f.condition);
    const TSNode consequence = ts_node_child_by_field_id(stmt, f.consequence);
    if (opt_in.is_opt_in(condition)) {
      guards_.add(ts_node_start_byte(consequence), ts_node_end_byte(consequence));
    } else if (std::string option = opt_in.opt_out_option(condition); !option.empty()) {
      opt_out_branches_.push_back({ts_node_start_byte(consequence), ts_node_end_byte(consequence), std::move(option)});
    }
  }
  // A helper the file calls only behind guards is not guarded here: whether a Mac reaches it is
  // the call graph's question (model/mac_path.h), asked of every function alike.
  // Import fallbacks: only those that leave the program a working path (import_fallback.h).
  GuardMap cuda_guards = guards_;
  cuda_guards.finish();
  std::vector<TSNode> if_nodes;
  for (const auto& entry : ifs) if_nodes.push_back(entry.first);
  const FallbackFacts facts{source_, root_, imports_, refs_, cuda_guards, if_nodes};
  for (const auto& [attempt, handler] : fallbacks) {
    if (!has_working_fallback(facts, attempt, handler)) continue;
    const TSNode body = ts_node_child_by_field_id(attempt, f.body);
    guards_.add(ts_node_start_byte(attempt), ts_node_end_byte(body));
  }
  guards_.finish();
  choice_guards_.finish();
  device_branches_.finish();
}

const OptionBranch* PythonFile::opt_out_branch(uint32_t start, uint32_t end) const {
  const OptionBranch* inner = nullptr;
  for (const OptionBranch& b : opt_out_branches_)
    if (b.start <= start && end <= b.end && (!inner || b.end - b.start < inner->end - inner->start)) inner = &b;
  return inner;
}

bool catches_import_failure(std::string_view source, TSNode try_statement) {
  const uint32_t count = ts_node_named_child_count(try_statement);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode clause = ts_node_named_child(try_statement, i);
    if (!node_is(clause, "except_clause") || !catches_import_errors(source, clause)) continue;
    const TSNode handler = block_of(clause);
    if (!ts_node_is_null(handler) && !only_raises(handler)) return true;
  }
  return false;
}

}  // namespace mpsready
