#include "python/code_graph_facts.h"

#include <cctype>

#include <cstring>
#include <unordered_set>

#include "core/package_test.h"
#include "core/source_text.h"
#include "python/guard_map.h"
#include "python/import_context.h"
#include "python/launch_conditions.h"
#include "python/python_file.h"
#include "python/ts_python.h"
#include "python/type_test_names.h"

namespace mpsready {
namespace {

// `has_x`, `have_x`, `x_available`, `x_installed` with no word of CUDA, a GPU or a launch in it.
bool reads_as_generic_flag(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!lower.empty() && lower.front() == '_') lower.erase(0, 1);
  for (std::string_view word : {"cuda", "gpu", "ddp", "distributed", "world_size", "nccl"})
    if (lower.find(word) != std::string::npos) return false;
  const auto ends_with = [&](std::string_view s) {
    return lower.size() >= s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0;
  };
  return lower.rfind("has_", 0) == 0 || lower.rfind("have_", 0) == 0 || ends_with("_available") ||
         ends_with("_installed");
}

constexpr size_t kMaxConditionText = 80;
constexpr size_t kMaxCalleeText = 120;
constexpr uint32_t kMaxFallbackStatements = 3;
// A function states a few requirements at its top; more are not read.
constexpr size_t kMaxRaiseTests = 8;

std::string one_line(std::string_view text, size_t limit = kMaxConditionText) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ' || c == '\\') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return shorten_utf8(out, limit);
}

// Fields PyFields does not hold, looked up once.
TSFieldId extra_field(const char* name) {
  static const TSFieldId parameters = ts_language_field_id_for_name(python_language(), "parameters", 10);
  static const TSFieldId superclasses = ts_language_field_id_for_name(python_language(), "superclasses", 12);
  return std::strcmp(name, "parameters") == 0 ? parameters : superclasses;
}

int line_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }

bool is_name_chain(TSNode node) {
  while (node_is(node, "attribute")) node = ts_node_child_by_field_id(node, PyFields::get().object);
  return node_is(node, "identifier");
}

// `(A, B)`, `[A, B]`, `A, B`: dotted names only, at least one.
bool is_tuple_of_names(TSNode node) {
  if (!node_is(node, "tuple") && !node_is(node, "list") && !node_is(node, "expression_list")) return false;
  const uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i)
    if (!is_name_chain(ts_node_named_child(node, i))) return false;
  return count > 0;
}

std::string last_segment(std::string_view text) {
  const size_t dot = text.rfind('.');
  return std::string(dot == std::string_view::npos ? text : text.substr(dot + 1));
}

std::string strip_quotes(std::string_view text) {
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
    return std::string(text.substr(1, text.size() - 2));
  return std::string(text);
}

// Decorators that only wrap a function: they neither register it nor call it elsewhere.
bool wraps_only(std::string_view decorator) {
  std::string name(decorator);
  if (const size_t paren = name.find('('); paren != std::string::npos) name.resize(paren);
  const std::string last = last_segment(name);
  static const std::unordered_set<std::string> plain = {
      "staticmethod", "classmethod", "property", "setter", "getter", "deleter", "abstractmethod",
      "no_grad", "inference_mode", "enable_grad", "wraps", "lru_cache", "cache", "cached_property",
      "overload", "override", "jit", "script", "ignore", "unused", "export", "custom_fwd", "custom_bwd",
      "contextmanager", "dataclass", "total_ordering", "final", "deprecated", "compile", "autocast"};
  return plain.count(last) != 0;
}

// The last statement of a block returns (or continues/breaks): the test before it is an early
// exit, and what follows runs only when it is false. A `raise` is no exit to another path: the
// function fails there, which is a requirement, not a branch.
bool ends_with_return(TSNode block) {
  const uint32_t count = ts_node_named_child_count(block);
  for (uint32_t i = count; i > 0; --i) {
    const TSNode last = ts_node_named_child(block, i - 1);
    if (node_is(last, "comment")) continue;
    return node_is(last, "return_statement") || node_is(last, "continue_statement") ||
           node_is(last, "break_statement");
  }
  return false;
}

// The last statement of a block raises: the test before it is something the function requires.
bool ends_with_raise(TSNode block) {
  for (uint32_t i = ts_node_named_child_count(block); i > 0; --i) {
    const TSNode last = ts_node_named_child(block, i - 1);
    if (node_is(last, "comment")) continue;
    return node_is(last, "raise_statement");
  }
  return false;
}

bool has_alternative(TSNode if_statement) {
  const uint32_t count = ts_node_named_child_count(if_statement);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(if_statement, i);
    if (node_is(child, "elif_clause") || node_is(child, "else_clause")) return true;
  }
  return false;
}

TSNode clause_block(TSNode clause) {
  const uint32_t count = ts_node_named_child_count(clause);
  for (uint32_t i = 0; i < count; ++i)
    if (node_is(ts_node_named_child(clause, i), "block")) return ts_node_named_child(clause, i);
  return TSNode{};
}

// A handler that goes on after the failure: it catches broadly (or an import error) and its
// block does not end in a raise.
bool falls_back(std::string_view source, TSNode except_clause) {
  const TSNode block = clause_block(except_clause);
  if (ts_node_is_null(block)) return false;
  const uint32_t count = ts_node_named_child_count(block);
  for (uint32_t i = count; i > 0; --i) {
    const TSNode last = ts_node_named_child(block, i - 1);
    if (node_is(last, "comment")) continue;
    if (node_is(last, "raise_statement")) return false;
    break;
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(except_clause); ++i) {
    const TSNode child = ts_node_named_child(except_clause, i);
    if (node_is(child, "block") || node_is(child, "comment")) continue;
    const std::string_view text = node_text(source, child);
    // An import error's handler is an import fallback, which import_fallback.h judges (a
    // sentinel followed by an unguarded use is none).
    for (std::string_view kind : {"Exception", "RuntimeError", "OSError", "NotImplementedError", "AttributeError",
                                  "BaseException"})
      if (text.find(kind) != std::string_view::npos) return true;
    return false;
  }
  return true;  // bare `except:`
}

class Walker {
 public:
  Walker(const PythonFile& file, const std::string& path) : file_(file), src_(file.source()) { out_.path = path; }

  CodeGraphFact run() {
    std::vector<Frame> stack;
    stack.push_back({file_.root(), -1, -1, -1, -1, false, false});
    while (!stack.empty()) {
      const Frame frame = stack.back();
      stack.pop_back();
      visit(frame, stack);
    }
    keep_known_values();
    return std::move(out_);
  }

 private:
  struct Frame {
    TSNode node;
    int func;    // enclosing function, -1: module code
    int cond;    // innermost condition
    int scope;   // index into scopes_ of the name prefix (-1: module)
    int cls;     // enclosing class body (index into classes), -1 none
    bool in_main;
    bool no_ref;  // a name that is declared or called here, not used as a value
  };

  std::string qualified(int scope, std::string_view name) const {
    return scope < 0 ? std::string(name) : scopes_[static_cast<size_t>(scope)] + "." + std::string(name);
  }

  int add_condition(int parent, TSNode test, bool negated, char kind = 'i') {
    CodeCondition c;
    c.parent = parent;
    c.negated = negated;
    c.kind = kind;
    if (kind == 'i') {
      c.text = one_line(file_.text(test));
      read_test(test, c);
    } else {
      c.text = kind == 't' ? "a failure is caught and the code goes on" : one_line(file_.text(test));
      c.mac = 1;
    }
    out_.conditions.push_back(std::move(c));
    return static_cast<int>(out_.conditions.size()) - 1;
  }

  // One operand under Mac assumptions: 0 false, 1 true, 2 undecided.
  int operand_on_mac(TSNode operand) const {
    // A distributed launch first: `world_size == 1` mentions no device but the CUDA reading
    // would take any test of a launch for a check that CUDA is there.
    if (const int launch = launch_test_on_mac(src_, operand); launch != 2) return launch;
    const std::string_view text = file_.text(operand);
    // A flag named like any optional feature (`has_bias`, `self.fused_available`) says nothing a
    // Mac decides: the front end's guard reading keeps such a site one level lower, but the Mac
    // path only settles tests about CUDA, the device or a launch. A flag this file sets beside an
    // import fallback (`HAS_TRITON = False` in `except ImportError:`) says what is installed, and
    // keeps the CUDA reading below.
    if (is_name_chain(operand) && reads_as_generic_flag(last_segment(text)) &&
        !(node_is(operand, "identifier") && file_.is_availability_flag(text)))
      return 2;
    const CudaCheck cuda = file_.cuda_check(operand);
    if (cuda != CudaCheck::none) return cuda == CudaCheck::positive ? 0 : 1;
    const MpsCheck mps = classify_mps_condition(text);
    if (mps == MpsCheck::positive || mps == MpsCheck::negative) return mps == MpsCheck::positive ? 1 : 0;
    if (text == "TYPE_CHECKING" || text == "typing.TYPE_CHECKING" || text == "False" || text == "0") return 0;
    if (text == "True" || text == "1") return 1;
    if (text.find("platform") != std::string_view::npos) {
      const bool darwin = text.find("darwin") != std::string_view::npos || text.find("Darwin") != std::string_view::npos;
      const bool other = text.find("linux") != std::string_view::npos || text.find("Linux") != std::string_view::npos ||
                         text.find("win32") != std::string_view::npos || text.find("Windows") != std::string_view::npos;
      const bool negative = text.find("!=") != std::string_view::npos || text.find("not ") != std::string_view::npos;
      if (darwin != other) return (darwin != negative) ? 1 : 0;
    }
    return 2;
  }

  // A test under Mac assumptions, `not`, `and` and `or` read three-valued (`a and b` is false
  // when either is, `a or b` true when either is): 0 false, 1 true, 2 undecided.
  int test_on_mac(TSNode test, int depth = 0) const {
    // Conditions are shallow; a hostile chain is cut off (undecided) rather than followed.
    constexpr int kMaxDepth = 16;
    if (depth > kMaxDepth || ts_node_is_null(test)) return 2;
    bool negated = false;
    for (;;) {
      if (node_is(test, "parenthesized_expression") && ts_node_named_child_count(test) == 1) {
        test = ts_node_named_child(test, 0);
      } else if (node_is(test, "not_operator")) {
        negated = !negated;
        test = ts_node_child_by_field_id(test, PyFields::get().argument);
      } else {
        break;
      }
    }
    int value = 2;
    if (node_is(test, "boolean_operator")) {
      const auto& f = PyFields::get();
      const bool is_or = file_.text(ts_node_child_by_field_id(test, f.operator_)) == "or";
      const int a = test_on_mac(ts_node_child_by_field_id(test, f.left), depth + 1);
      const int b = test_on_mac(ts_node_child_by_field_id(test, f.right), depth + 1);
      const int absorbing = is_or ? 1 : 0;
      value = (a == absorbing || b == absorbing) ? absorbing : (a == 2 || b == 2) ? 2 : 1 - absorbing;
      // The CUDA reading of the whole test knows shapes no operand shows alone (a forced CUDA
      // build beside a check); it decides where the operands do not.
      if (value == 2) {
        const CudaCheck cuda = file_.cuda_check(test);
        if (cuda != CudaCheck::none) value = cuda == CudaCheck::positive ? 0 : 1;
      }
    } else {
      value = operand_on_mac(test);
    }
    return value != 2 && negated ? 1 - value : value;
  }

  // The test under Mac assumptions, and the option it reads when that is undecided.
  void read_test(TSNode test, CodeCondition& c) const {
    c.mac = test_on_mac(test);
    if (c.mac != 2) return;
    // An option: `x`, `not x`, `a.b.x`, `x == "lit"`, `x != "lit"`, `x is None`, `x is not None`.
    TSNode node = test;
    bool negated = false;
    while (node_is(node, "not_operator")) {
      negated = !negated;
      node = ts_node_child_by_field_id(node, PyFields::get().argument);
    }
    if (node_is(node, "parenthesized_expression") && ts_node_named_child_count(node) == 1)
      node = ts_node_named_child(node, 0);
    if (is_name_chain(node)) {
      c.option = last_segment(file_.text(node));
      c.option_negated = negated;
      return;
    }
    if (node_is(node, "comparison_operator") && ts_node_named_child_count(node) == 2) {
      const TSNode left = ts_node_named_child(node, 0);
      const TSNode right = ts_node_named_child(node, 1);
      if (!is_name_chain(left)) return;
      const std::string_view op_text = file_.text(node).substr(
          ts_node_end_byte(left) - ts_node_start_byte(node), ts_node_start_byte(right) - ts_node_end_byte(left));
      const std::string op = one_line(op_text);
      if (node_is(right, "none") && (op == "is" || op == "is not")) {
        // `x is None` reads as "x not set": the truth test negated.
        c.option = last_segment(file_.text(left));
        c.option_negated = (op == "is") != negated;
        return;
      }
      if (node_is(right, "string") && (op == "==" || op == "!=")) {
        c.option = last_segment(file_.text(left));
        c.option_value = strip_quotes(file_.text(right));
        c.option_negated = (op == "!=") != negated;
      }
    }
  }

  void add_option(std::string name, TSNode value, int line, std::string choices = {}) {
    while (!name.empty() && name.front() == '-') name.erase(0, 1);
    for (char& ch : name)
      if (ch == '-') ch = '_';
    if (name.empty()) return;
    // An option whose choices leave `mps` out has no way to pass it: its default is no default.
    if (!ts_node_is_null(value) && (choices.empty() || choices.find("mps") != std::string::npos))
      out_.default_spans.emplace_back(ts_node_start_byte(value), ts_node_end_byte(value));
    out_.options.push_back({std::move(name), ts_node_is_null(value) ? "" : one_line(file_.text(value)), line, std::move(choices)});
  }

  // `parser.add_argument("-f", "--fused-attn", action="store_true", default=..., choices=...)`.
  void read_add_argument(TSNode call) {
    const auto& f = PyFields::get();
    const TSNode args = ts_node_child_by_field_id(call, f.arguments);
    std::string name, action, choices;
    TSNode value{};
    for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
      const TSNode arg = ts_node_named_child(args, i);
      if (node_is(arg, "string")) {
        const std::string text = strip_quotes(file_.text(arg));
        if (name.empty() || (text.rfind("--", 0) == 0 && name.rfind("--", 0) != 0)) name = text;
      } else if (node_is(arg, "keyword_argument")) {
        const std::string_view key = file_.text(ts_node_child_by_field_id(arg, f.name));
        const TSNode v = ts_node_child_by_field_id(arg, f.value);
        if (key == "default") value = v;
        else if (key == "dest" && node_is(v, "string")) name = strip_quotes(file_.text(v));
        else if (key == "action") action = strip_quotes(file_.text(v));
        else if (key == "choices") choices = one_line(file_.text(v));
      }
    }
    if (name.empty()) return;
    if (ts_node_is_null(value) && (action == "store_true" || action == "store_false")) {
      std::string n = name;
      add_option(std::move(n), TSNode{}, line_of(call), choices);
      out_.options.back().default_text = action == "store_true" ? "False" : "True";
      return;
    }
    add_option(std::move(name), value, line_of(call), choices);
  }

  void read_parameters(TSNode parameters, int line) {
    const auto& f = PyFields::get();
    for (uint32_t i = 0; i < ts_node_named_child_count(parameters); ++i) {
      const TSNode p = ts_node_named_child(parameters, i);
      if (!node_is(p, "default_parameter") && !node_is(p, "typed_default_parameter")) continue;
      const TSNode name = ts_node_child_by_field_id(p, f.name);
      if (!node_is(name, "identifier")) continue;
      add_option(std::string(file_.text(name)), ts_node_child_by_field_id(p, f.value), line);
    }
  }

  void read_bindings(TSNode statement) {
    const auto& f = PyFields::get();
    const std::string_view type = ts_node_type(statement);
    const auto dotted = [&](TSNode n) { return one_line(file_.text(n), 400); };
    if (type == "import_statement") {
      for (uint32_t i = 0; i < ts_node_named_child_count(statement); ++i) {
        const TSNode child = ts_node_named_child(statement, i);
        if (node_is(child, "dotted_name")) {
          const std::string full = dotted(child);
          out_.bindings.push_back({full.substr(0, full.find('.')), full.substr(0, full.find('.')), 0});
        } else if (node_is(child, "aliased_import")) {
          const std::string full = dotted(ts_node_child_by_field_id(child, f.name));
          out_.bindings.push_back({std::string(file_.text(ts_node_child_by_field_id(child, f.alias))), full, 0});
        }
      }
      return;
    }
    const TSNode module = ts_node_child_by_field_id(statement, f.module_name);
    if (ts_node_is_null(module)) return;
    std::string base = dotted(module);
    int level = 0;
    while (level < static_cast<int>(base.size()) && base[static_cast<size_t>(level)] == '.') ++level;
    base.erase(0, static_cast<size_t>(level));
    bool any = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(statement); ++i) {
      const TSNode child = ts_node_named_child(statement, i);
      if (ts_node_eq(child, module)) continue;
      TSNode name = child, alias{};
      if (node_is(child, "aliased_import")) {
        name = ts_node_child_by_field_id(child, f.name);
        alias = ts_node_child_by_field_id(child, f.alias);
      } else if (node_is(child, "wildcard_import")) {
        out_.bindings.push_back({"*", base, level});
        continue;
      } else if (!node_is(child, "dotted_name")) {
        continue;
      }
      any = true;
      const std::string n = dotted(name);
      const std::string local = ts_node_is_null(alias) ? n : std::string(file_.text(alias));
      out_.bindings.push_back({local, base.empty() ? n : base + "." + n, level});
    }
    (void)any;
  }

  void push_children(const Frame& frame, std::vector<Frame>& stack) {
    const uint32_t count = ts_node_named_child_count(frame.node);
    for (uint32_t i = count; i > 0; --i) {
      Frame child = frame;
      child.node = ts_node_named_child(frame.node, i - 1);
      child.no_ref = false;
      stack.push_back(child);
    }
  }

  // What the code after an `if` with alternatives needs, when some branches return: an `else`
  // that returns leaves the rest to the tests before it (`if "RANK" in os.environ: … elif
  // "SLURM_PROCID" in os.environ: … else: return` — the rest runs only if one of them holds),
  // and an `if` that returns beside an `else` that goes on leaves it to the test being false.
  int after_branches(TSNode statement, int cond) {
    const auto& f = PyFields::get();
    std::vector<TSNode> tests;
    bool branch_returns = ends_with_return(ts_node_child_by_field_id(statement, f.consequence));
    tests.push_back(ts_node_child_by_field_id(statement, f.condition));
    TSNode otherwise{};
    for (uint32_t i = 0; i < ts_node_named_child_count(statement); ++i) {
      const TSNode clause = ts_node_named_child(statement, i);
      if (node_is(clause, "elif_clause")) {
        tests.push_back(ts_node_child_by_field_id(clause, f.condition));
        branch_returns = branch_returns || ends_with_return(ts_node_child_by_field_id(clause, f.consequence));
      } else if (node_is(clause, "else_clause")) {
        otherwise = ts_node_child_by_field_id(clause, f.body);
      }
    }
    if (ts_node_is_null(otherwise) || is_main_check(file_, tests.front())) return cond;
    const bool else_returns = ends_with_return(otherwise);
    if (else_returns && !branch_returns) {
      if (tests.size() == 1) return add_condition(cond, tests.front(), false);
      CodeCondition c;
      c.parent = cond;
      int value = 0;
      std::string text;
      for (const TSNode t : tests) {
        const int v = test_on_mac(t);
        value = (value == 1 || v == 1) ? 1 : (value == 2 || v == 2) ? 2 : 0;
        text += (text.empty() ? "" : " or ") + std::string(file_.text(t));
      }
      c.text = one_line(text);
      c.mac = value;
      out_.conditions.push_back(std::move(c));
      return static_cast<int>(out_.conditions.size()) - 1;
    }
    if (!else_returns && tests.size() == 1 && branch_returns) return add_condition(cond, tests.front(), true);
    return cond;
  }

  void visit(const Frame& frame, std::vector<Frame>& stack) {
    const auto& f = PyFields::get();
    const TSNode node = frame.node;
    const char* type = ts_node_type(node);
    // A child under a condition its parent is not under is a region of that condition.
    const auto push = [&](const Frame& child) {
      if (child.cond >= 0 && child.cond != frame.cond && !ts_node_is_null(child.node))
        out_.regions.push_back({ts_node_start_byte(child.node), ts_node_end_byte(child.node), child.cond});
      stack.push_back(child);
    };
    if (std::strcmp(type, "module") == 0 || std::strcmp(type, "block") == 0) {
      // In order: an `if` that returns makes what follows depend on its test being false.
      const uint32_t count = ts_node_named_child_count(node);
      std::vector<Frame> children;
      int cond = frame.cond;
      // A function's own body: the `if …: raise` tests it starts with (after its docstring) are
      // what it requires.
      bool requirements = frame.func >= 0 && frame.cond < 0 && node_is(ts_node_parent(node), "function_definition");
      for (uint32_t i = 0; i < count; ++i) {
        Frame child = frame;
        child.node = ts_node_named_child(node, i);
        child.cond = cond;
        child.no_ref = false;
        children.push_back(child);
        if (requirements && node_is(child.node, "if_statement") && !has_alternative(child.node) &&
            ends_with_raise(ts_node_child_by_field_id(child.node, f.consequence))) {
          std::vector<int>& tests = out_.functions[static_cast<size_t>(frame.func)].raise_tests;
          if (tests.size() < kMaxRaiseTests)
            tests.push_back(add_condition(-1, ts_node_child_by_field_id(child.node, f.condition), false));
        } else if (!node_is(child.node, "comment") &&
                   !(node_is(child.node, "expression_statement") && ts_node_named_child_count(child.node) == 1 &&
                     node_is(ts_node_named_child(child.node, 0), "string"))) {
          requirements = false;  // the function's work has begun
        }
        if (node_is(child.node, "if_statement") && !has_alternative(child.node) &&
            ends_with_return(ts_node_child_by_field_id(child.node, f.consequence))) {
          const TSNode test = ts_node_child_by_field_id(child.node, f.condition);
          if (!is_main_check(file_, test)) cond = add_condition(cond, test, true);
        } else if (node_is(child.node, "if_statement")) {
          cond = after_branches(child.node, cond);
        }
      }
      for (auto it = children.rbegin(); it != children.rend(); ++it) push(*it);
      return;
    }
    if (std::strcmp(type, "function_definition") == 0) {
      const TSNode name = ts_node_child_by_field_id(node, f.name);
      CodeFunction fn;
      fn.name = qualified(frame.scope, file_.text(name));
      if (frame.cls >= 0) fn.cls = out_.classes[static_cast<size_t>(frame.cls)].name;
      fn.line = line_of(node);
      fn.end_line = static_cast<int>(ts_node_end_point(node).row) + 1;
      const TSNode parent = ts_node_parent(node);
      if (node_is(parent, "decorated_definition"))
        for (uint32_t i = 0; i < ts_node_named_child_count(parent); ++i) {
          const TSNode d = ts_node_named_child(parent, i);
          if (node_is(d, "decorator") && !wraps_only(one_line(file_.text(d)).substr(1))) fn.registered = true;
        }
      out_.functions.push_back(fn);
      const int index = static_cast<int>(out_.functions.size()) - 1;
      scopes_.push_back(out_.functions.back().name);
      read_parameters(ts_node_child_by_field_id(node, extra_field("parameters")), fn.line);
      Frame body = frame;
      body.node = ts_node_child_by_field_id(node, f.body);
      body.func = index;
      body.cond = -1;
      body.scope = static_cast<int>(scopes_.size()) - 1;
      body.cls = -1;
      body.no_ref = false;
      if (!ts_node_is_null(body.node)) push(body);
      return;
    }
    if (std::strcmp(type, "class_definition") == 0) {
      CodeClass cls;
      cls.name = qualified(frame.scope, file_.text(ts_node_child_by_field_id(node, f.name)));
      cls.line = line_of(node);
      const TSNode supers = ts_node_child_by_field_id(node, extra_field("superclasses"));
      if (!ts_node_is_null(supers))
        for (uint32_t i = 0; i < ts_node_named_child_count(supers); ++i) {
          const TSNode b = ts_node_named_child(supers, i);
          if (is_name_chain(b)) cls.bases.push_back(one_line(file_.text(b), kMaxCalleeText));
        }
      out_.classes.push_back(cls);
      scopes_.push_back(out_.classes.back().name);
      Frame body = frame;
      body.node = ts_node_child_by_field_id(node, f.body);
      body.scope = static_cast<int>(scopes_.size()) - 1;
      body.cls = static_cast<int>(out_.classes.size()) - 1;
      body.no_ref = false;
      if (!ts_node_is_null(body.node)) push(body);
      // A base names a class without making one: the subclass's `b` edge links them, and the
      // base's methods run only when an instance of either is made or dispatched to. Only the
      // calls in the list (`class A(make_base()):`) and keyword values run here.
      if (!ts_node_is_null(supers))
        for (uint32_t i = ts_node_named_child_count(supers); i > 0; --i) {
          const TSNode b = ts_node_named_child(supers, i - 1);
          if (!is_name_chain(b)) push({b, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, false});
        }
      return;
    }
    if (std::strcmp(type, "import_statement") == 0 || std::strcmp(type, "import_from_statement") == 0) {
      const size_t first = out_.bindings.size();
      read_bindings(node);
      for (size_t i = first; i < out_.bindings.size(); ++i) out_.bindings[i].line = line_of(node);
      return;
    }
    if (std::strcmp(type, "if_statement") == 0) {
      const TSNode test = ts_node_child_by_field_id(node, f.condition);
      const bool main = frame.func < 0 && frame.cls < 0 && is_main_check(file_, test);
      Frame then = frame;
      then.node = ts_node_child_by_field_id(node, f.consequence);
      if (main) then.in_main = true;
      else then.cond = add_condition(frame.cond, test, false);
      int rest = main ? frame.cond : add_condition(frame.cond, test, true);
      std::vector<Frame> children{{test, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, false}, then};
      for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
        const TSNode clause = ts_node_named_child(node, i);
        if (node_is(clause, "elif_clause")) {
          const TSNode t = ts_node_child_by_field_id(clause, f.condition);
          children.push_back({t, frame.func, rest, frame.scope, frame.cls, frame.in_main, false});
          children.push_back({ts_node_child_by_field_id(clause, f.consequence), frame.func, add_condition(rest, t, false),
                              frame.scope, frame.cls, frame.in_main, false});
          rest = add_condition(rest, t, true);
        } else if (node_is(clause, "else_clause")) {
          children.push_back({ts_node_child_by_field_id(clause, f.body), frame.func, rest, frame.scope, frame.cls,
                              frame.in_main, false});
        }
      }
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        if (!ts_node_is_null(it->node)) push(*it);
      return;
    }
    if (std::strcmp(type, "try_statement") == 0) {
      bool fallback = false;
      for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
        const TSNode clause = ts_node_named_child(node, i);
        if (node_is(clause, "except_clause") && falls_back(src_, clause)) fallback = true;
      }
      const TSNode body = ts_node_child_by_field_id(node, f.body);
      // Only a short attempt is a fallback for what it calls: a `try` around a whole training
      // step handles errors, it does not choose an implementation.
      if (ts_node_is_null(body) || ts_node_named_child_count(body) > kMaxFallbackStatements) fallback = false;
      int body_cond = frame.cond;
      if (fallback && !ts_node_is_null(body)) {
        body_cond = add_condition(frame.cond, body, false, 't');
        out_.fallback_spans.emplace_back(ts_node_start_byte(body), ts_node_end_byte(body));
      }
      std::vector<Frame> children;
      for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
        const TSNode clause = ts_node_named_child(node, i);
        Frame child = frame;
        child.node = clause;
        child.no_ref = false;
        if (ts_node_eq(clause, body) || node_is(clause, "else_clause")) {
          child.cond = body_cond;
        } else if (node_is(clause, "except_clause")) {
          TSNode types{};
          for (uint32_t k = 0; k < ts_node_named_child_count(clause); ++k) {
            const TSNode t = ts_node_named_child(clause, k);
            if (!node_is(t, "block") && !node_is(t, "comment")) {
              types = t;
              break;
            }
          }
          child.cond = add_condition(frame.cond, ts_node_is_null(types) ? clause : types, false, 'x');
        }
        children.push_back(child);
      }
      for (auto it = children.rbegin(); it != children.rend(); ++it) push(*it);
      return;
    }
    if (std::strcmp(type, "conditional_expression") == 0 && ts_node_named_child_count(node) == 3) {
      const TSNode a = ts_node_named_child(node, 0), test = ts_node_named_child(node, 1), b = ts_node_named_child(node, 2);
      push({b, frame.func, add_condition(frame.cond, test, true), frame.scope, frame.cls, frame.in_main, false});
      push({test, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, false});
      push({a, frame.func, add_condition(frame.cond, test, false), frame.scope, frame.cls, frame.in_main, false});
      return;
    }
    if (std::strcmp(type, "boolean_operator") == 0) {
      const TSNode left = ts_node_child_by_field_id(node, f.left);
      const TSNode right = ts_node_child_by_field_id(node, f.right);
      const TSNode op = ts_node_child_by_field_id(node, f.operator_);
      const bool is_or = file_.text(op) == "or";
      if (!ts_node_is_null(right))
        push({right, frame.func, add_condition(frame.cond, left, is_or), frame.scope, frame.cls, frame.in_main, false});
      if (!ts_node_is_null(left)) push({left, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, false});
      return;
    }
    if (std::strcmp(type, "call") == 0) {
      const TSNode fn = ts_node_child_by_field_id(node, f.function);
      std::string callee;
      if (is_name_chain(fn)) {
        callee = one_line(file_.text(fn), kMaxCalleeText);
      } else if (node_is(fn, "attribute")) {
        // `super().forward(x)`, `super(Model, self).forward(x)`.
        const TSNode object = ts_node_child_by_field_id(fn, f.object);
        if (node_is(object, "call") && file_.text(ts_node_child_by_field_id(object, f.function)) == "super")
          callee = "super()." + std::string(file_.text(ts_node_child_by_field_id(fn, f.attribute)));
      }
      if (!callee.empty()) {
        out_.calls.push_back({frame.func, line_of(node), callee, frame.cond, false, frame.in_main});
        if (last_segment(callee) == "add_argument") read_add_argument(node);
      }
      Frame function = frame;
      function.node = fn;
      function.no_ref = true;
      Frame args = frame;
      args.node = ts_node_child_by_field_id(node, f.arguments);
      args.no_ref = false;
      if (callee == "isinstance" || callee == "issubclass") {
        // A type test names classes without making one: their methods run only where an instance
        // is made. The object tested is walked as usual.
        if (!ts_node_is_null(args.node) && ts_node_named_child_count(args.node) > 0) {
          args.node = ts_node_named_child(args.node, 0);
          push(args);
        }
      } else if (!ts_node_is_null(args.node)) {
        push(args);
      }
      if (!ts_node_is_null(fn)) push(function);
      return;
    }
    if (std::strcmp(type, "identifier") == 0 || std::strcmp(type, "attribute") == 0) {
      if (!frame.no_ref && is_name_chain(node)) {
        const std::string text = one_line(file_.text(node), kMaxCalleeText);
        values_.push_back({frame.func, line_of(node), text, frame.cond, true, frame.in_main});
      }
      if (type[0] == 'a') {
        // Deeper calls in the object (`make().run`) still count; the chain's own names do not.
        Frame object = frame;
        object.node = ts_node_child_by_field_id(node, f.object);
        object.no_ref = true;
        if (!ts_node_is_null(object.node) && !is_name_chain(object.node)) {
          object.no_ref = false;
          push(object);
        }
      }
      return;
    }
    if (std::strcmp(type, "assignment") == 0 || std::strcmp(type, "augmented_assignment") == 0) {
      const TSNode left = ts_node_child_by_field_id(node, f.left);
      const TSNode right = ts_node_child_by_field_id(node, f.right);
      // A class field with a default (`use_flash: bool = False`, a dataclass's): an option.
      if (frame.cls >= 0 && frame.func < 0 && node_is(left, "identifier") && !ts_node_is_null(right))
        add_option(std::string(file_.text(left)), right, line_of(node));
      // A module's own flag for CUDA, bound once at its top under no condition.
      if (frame.cls < 0 && frame.func < 0 && frame.cond < 0 && node_is(left, "identifier") && node_is(node, "assignment") &&
          !ts_node_is_null(right) && file_.cuda_check(right) == CudaCheck::positive)
        out_.cuda_flags.emplace_back(file_.text(left));
      // Or to a test of whether a package is installed.
      if (frame.cls < 0 && frame.func < 0 && frame.cond < 0 && node_is(left, "identifier") && node_is(node, "assignment") &&
          node_is(right, "call"))
        if (const auto test = read_package_test(one_line(file_.text(right), kMaxCalleeText)); test && !test->negated)
          out_.package_flags.emplace_back(file_.text(left), test->package);
      // A tuple of classes that only type tests read names them without making one (as an
      // inline `isinstance(x, (A, B))` does): no use as a value.
      if (!ts_node_is_null(right) && !(is_tuple_of_names(right) && type_test_reads_left() && names_only_type_tests(file_, node)))
        push({right, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, false});
      if (!ts_node_is_null(left)) push({left, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, true});
      return;
    }
    if (std::strcmp(type, "keyword_argument") == 0) {
      const TSNode value = ts_node_child_by_field_id(node, f.value);
      if (!ts_node_is_null(value)) push({value, frame.func, frame.cond, frame.scope, frame.cls, frame.in_main, false});
      return;
    }
    if (std::strcmp(type, "parameters") == 0 || std::strcmp(type, "lambda_parameters") == 0 ||
        std::strcmp(type, "comment") == 0 || std::strcmp(type, "string") == 0 ||
        std::strcmp(type, "global_statement") == 0 || std::strcmp(type, "nonlocal_statement") == 0)
      return;
    // A left-hand side's names are targets; their deeper parts are walked as usual.
    Frame copy = frame;
    if (frame.no_ref && (std::strcmp(type, "pattern_list") == 0 || std::strcmp(type, "tuple_pattern") == 0 ||
                         std::strcmp(type, "list_pattern") == 0 || std::strcmp(type, "subscript") == 0)) {
      const uint32_t count = ts_node_named_child_count(node);
      for (uint32_t i = count; i > 0; --i)
        push({ts_node_named_child(node, i - 1), frame.func, frame.cond, frame.scope, frame.cls, frame.in_main,
                         std::strcmp(type, "subscript") != 0});
      return;
    }
    push_children(copy, stack);
  }

  // Uses as values matter only for names that can be functions of the repository: a bare name
  // the file defines at its top or imports from somewhere, and `self.<method>` of a method the
  // file defines. The rest (`torch.float32`, locals) would only weigh on the graph.
  void keep_known_values() {
    std::unordered_set<std::string> names, methods;
    for (const CodeFunction& fn : out_.functions) {
      if (fn.name.find('.') == std::string::npos) names.insert(fn.name);
      if (!fn.cls.empty()) methods.insert(last_segment(fn.name));
    }
    for (const CodeClass& c : out_.classes)
      if (c.name.find('.') == std::string::npos) names.insert(c.name);
    for (const CodeBinding& b : out_.bindings)
      if (b.local.find('.') == std::string::npos && b.target != b.local) names.insert(b.local);
    for (CodeCall& v : values_) {
      const size_t dot = v.callee.find('.');
      const bool keep = dot == std::string::npos
                            ? names.count(v.callee) != 0
                            : (v.callee.compare(0, dot, "self") == 0 && v.callee.find('.', dot + 1) == std::string::npos &&
                               methods.count(v.callee.substr(dot + 1)) != 0);
      if (keep) out_.calls.push_back(std::move(v));
    }
    values_.clear();
  }

  // Each tuple of names read for type tests costs a walk of its scope: a file gets this many, so
  // that input cannot make the walks quadratic; past them, the names stay values.
  static constexpr int kMaxTypeTestReads = 64;
  int type_test_reads_ = 0;
  bool type_test_reads_left() { return type_test_reads_++ < kMaxTypeTestReads; }

  const PythonFile& file_;
  std::string_view src_;
  CodeGraphFact out_;
  std::vector<std::string> scopes_;
  std::vector<CodeCall> values_;
};

}  // namespace

CodeGraphFact scan_code_graph(const PythonFile& file, const std::string& path) { return Walker(file, path).run(); }

}  // namespace mpsready
