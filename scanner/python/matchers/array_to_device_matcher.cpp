// python.array_to_device: NumPy data of one dtype made into a tensor that is put on a device
// (`torch.as_tensor(x, device=d)`, `torch.from_numpy(x).to(d)`), where `x` is known to have that
// dtype: made by a producer call, cast with `.astype(...)`, assigned earlier in the same function,
// or returned by a function of the same file. Documented in docs/rule-format.md.
#include <algorithm>
#include <memory>
#include <unordered_map>

#include <re2/re2.h>

#include "core/dotted_pattern.h"
#include "python/matchers/params.h"
#include "python/matchers/python_matcher.h"
#include "python/python_file.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// Data flow is followed this many steps (assignment, return, cast) and no further.
constexpr int kMaxDepth = 6;
// A method chain between the tensor and its move is read this far.
constexpr int kMaxChain = 8;
// Subtrees searched for assignments, returns and float literals are bounded.
constexpr size_t kMaxNodes = 1 << 18;


// The value of keyword `name` in an argument list, or a null node.
TSNode keyword_value(const PythonFile& file, TSNode arguments, std::string_view name) {
  const auto& f = PyFields::get();
  if (!node_is(arguments, "argument_list")) return TSNode{};
  const uint32_t count = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode arg = ts_node_named_child(arguments, i);
    if (node_is(arg, "keyword_argument") && file.text(ts_node_child_by_field_id(arg, f.name)) == name)
      return ts_node_child_by_field_id(arg, f.value);
  }
  return TSNode{};
}

TSNode first_positional(TSNode arguments) {
  if (!node_is(arguments, "argument_list")) return TSNode{};
  const uint32_t count = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode arg = ts_node_named_child(arguments, i);
    const std::string_view type = ts_node_type(arg);
    if (type == "comment") continue;
    if (type == "keyword_argument" || type == "list_splat" || type == "dictionary_splat") return TSNode{};
    return arg;
  }
  return TSNode{};
}

class ArrayToDeviceMatcher final : public PythonMatcher {
 public:
  ArrayToDeviceMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet&) {
    const ParamReader reader(params, rule, "python.array_to_device");
    reader.allow_only({"sinks", "moves", "casts", "cast_dtypes", "producers", "float_literal_producers",
                       "generators", "generator_methods", "astype_methods", "dtype_names", "dtype_strings"});
    sinks_ = reader.strings("sinks");
    moves_ = reader.strings("moves");
    casts_ = reader.strings("casts");
    cast_dtypes_ = reader.strings("cast_dtypes");
    producers_ = reader.strings("producers");
    float_literal_producers_ = reader.strings("float_literal_producers");
    astype_ = reader.strings("astype_methods");
    generators_ = reader.strings("generators");
    generator_methods_ = reader.strings("generator_methods");
    if (generators_.empty() != generator_methods_.empty()) reader.fail("\"generators\" and \"generator_methods\" go together");
    dtype_names_ = reader.strings("dtype_names");
    const std::string strings = reader.string("dtype_strings", "");
    if (!strings.empty()) {
      dtype_strings_ = std::make_unique<RE2>(strings, RE2::Quiet);
      if (!dtype_strings_->ok()) reader.fail("invalid regex \"dtype_strings\": " + dtype_strings_->error());
    }
    if (sinks_.empty()) reader.fail("needs \"sinks\"");
    if (producers_.empty() && float_literal_producers_.empty() && astype_.empty())
      reader.fail("needs \"producers\", \"float_literal_producers\" or \"astype_methods\"");
  }

  void match(const PythonFile& file, std::vector<RawMatch>& out) const override {
    Functions functions;
    bool indexed = false;
    for (const CallSite& call : file.calls()) {
      if (call.callee.empty() || !any_dotted_pattern_matches(sinks_, call.callee)) continue;
      if (!ts_node_is_null(keyword_value(file, call.arguments, "dtype"))) continue;  // dtype chosen
      const TSNode data = first_positional(call.arguments);
      if (ts_node_is_null(data)) continue;
      TSNode reported{};
      const TSNode device = keyword_value(file, call.arguments, "device");
      if (!ts_node_is_null(device) && !node_is(device, "none")) {
        reported = call.node;
      } else {
        reported = moved_to_device(file, call.node);
      }
      if (ts_node_is_null(reported)) continue;
      if (!indexed) {
        functions = index_functions(file);
        indexed = true;
      }
      if (!has_dtype(file, functions, data, ts_node_start_byte(call.node), 0)) continue;
      RawMatch m;
      m.node = reported;
      m.vars["callee"] = file.imports().display_name(file.source(), call.function);
      m.vars["name"] = call.callee;
      m.vars["arg"] = std::string(file.text(data));
      out.push_back(std::move(m));
    }
  }

 private:
  using Functions = std::unordered_map<std::string, TSNode>;  // name → function_definition

  static Functions index_functions(const PythonFile& file) {
    const auto& f = PyFields::get();
    Functions out;
    std::vector<TSNode> stack{file.root()};
    size_t visited = 0;
    while (!stack.empty() && visited++ < kMaxNodes) {
      const TSNode node = stack.back();
      stack.pop_back();
      if (node_is(node, "function_definition"))
        out.emplace(std::string(file.text(ts_node_child_by_field_id(node, f.name))), node);
      const uint32_t count = ts_node_named_child_count(node);
      for (uint32_t i = count; i > 0; --i) {
        const TSNode child = ts_node_named_child(node, i - 1);
        const std::string_view type = ts_node_type(child);
        if (type.ends_with("definition") || type.ends_with("statement") || type.ends_with("clause") || type == "block")
          stack.push_back(child);
      }
    }
    return out;
  }

  // The call that moves the tensor made by `call` to a device, walking a method chain that keeps
  // its dtype (`.unsqueeze(0).to(d)`); null when the chain casts it first or never moves it.
  TSNode moved_to_device(const PythonFile& file, TSNode call) const {
    const auto& f = PyFields::get();
    TSNode current = call;
    for (int step = 0; step < kMaxChain; ++step) {
      const TSNode attribute = ts_node_parent(current);
      if (!node_is(attribute, "attribute") || !ts_node_eq(ts_node_child_by_field_id(attribute, f.object), current))
        return TSNode{};
      const TSNode outer = ts_node_parent(attribute);
      if (!node_is(outer, "call")) return TSNode{};
      const std::string_view method = file.text(ts_node_child_by_field_id(attribute, f.attribute));
      if (std::find(casts_.begin(), casts_.end(), method) != casts_.end()) return TSNode{};
      if (std::find(moves_.begin(), moves_.end(), method) != moves_.end()) {
        return chooses_dtype(file, ts_node_child_by_field_id(outer, f.arguments)) ? TSNode{} : outer;
      }
      current = outer;
    }
    return TSNode{};
  }

  // `.to(d, torch.float32)`, `.to(dtype=...)`: the move also casts.
  bool chooses_dtype(const PythonFile& file, TSNode arguments) const {
    if (!node_is(arguments, "argument_list")) return false;
    if (!ts_node_is_null(keyword_value(file, arguments, "dtype"))) return true;
    const uint32_t count = ts_node_named_child_count(arguments);
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode arg = ts_node_named_child(arguments, i);
      if (!node_is(arg, "attribute") && !node_is(arg, "identifier")) continue;
      if (any_dotted_pattern_matches(cast_dtypes_, file.resolve(arg))) return true;
    }
    return false;
  }

  // A dtype argument that names the dtype: `np.float64`, `float`, "float64".
  bool names_dtype(const PythonFile& file, TSNode value) const {
    if (node_is(value, "attribute") || node_is(value, "identifier")) {
      std::string name = file.resolve(value);
      if (name.empty() && node_is(value, "identifier")) name = std::string(file.text(value));  // a builtin
      return !name.empty() && any_dotted_pattern_matches(dtype_names_, name);
    }
    if (dtype_strings_) {
      const auto content = string_literal_content(file.source(), value);
      return content && RE2::FullMatch(*content, *dtype_strings_);
    }
    return false;
  }

  static bool has_float_literal(TSNode arguments) {
    std::vector<TSNode> stack{arguments};
    size_t visited = 0;
    while (!stack.empty() && visited++ < kMaxNodes) {
      const TSNode node = stack.back();
      stack.pop_back();
      if (node_is(node, "float")) return true;
      if (node_is(node, "keyword_argument") || node_is(node, "call")) continue;
      const uint32_t count = ts_node_named_child_count(node);
      for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
    }
    return false;
  }

  // Whether `expr`, read before byte `before`, is data of the rule's dtype.
  bool has_dtype(const PythonFile& file, const Functions& functions, TSNode expr, uint32_t before, int depth) const {
    const auto& f = PyFields::get();
    if (depth > kMaxDepth || ts_node_is_null(expr)) return false;
    while (node_is(expr, "parenthesized_expression") && ts_node_named_child_count(expr) == 1)
      expr = ts_node_named_child(expr, 0);
    if (node_is(expr, "identifier")) {
      const TSNode value = last_assignment(file, expr, before);
      return !ts_node_is_null(value) && has_dtype(file, functions, value, ts_node_start_byte(value), depth + 1);
    }
    if (!node_is(expr, "call")) return false;
    const TSNode function = ts_node_child_by_field_id(expr, f.function);
    const TSNode arguments = ts_node_child_by_field_id(expr, f.arguments);
    const std::string callee = file.resolve(function);
    if (!callee.empty()) {
      const TSNode dtype = keyword_value(file, arguments, "dtype");
      if (any_dotted_pattern_matches(producers_, callee)) return ts_node_is_null(dtype) || names_dtype(file, dtype);
      if (any_dotted_pattern_matches(float_literal_producers_, callee))
        return ts_node_is_null(dtype) ? has_float_literal(arguments) : names_dtype(file, dtype);
      return false;
    }
    if (node_is(function, "attribute")) {
      const std::string_view method = file.text(ts_node_child_by_field_id(function, f.attribute));
      // `np.random.RandomState(seed).randn(…)`, `rng.normal(…)` with `rng = np.random.default_rng()`:
      // a random generator's method, which gives the producers' dtype unless told otherwise.
      if (std::find(generator_methods_.begin(), generator_methods_.end(), method) != generator_methods_.end() &&
          is_generator(file, ts_node_child_by_field_id(function, f.object), before))
        return ts_node_is_null(keyword_value(file, arguments, "dtype")) || names_dtype(file, keyword_value(file, arguments, "dtype"));
      if (std::find(astype_.begin(), astype_.end(), method) == astype_.end()) return false;
      TSNode dtype = first_positional(arguments);
      if (ts_node_is_null(dtype)) dtype = keyword_value(file, arguments, "dtype");
      return !ts_node_is_null(dtype) && names_dtype(file, dtype);
    }
    // A function of this file: what its `return` statements give.
    if (node_is(function, "identifier")) {
      const auto it = functions.find(std::string(file.text(function)));
      if (it == functions.end()) return false;
      const TSNode body = ts_node_child_by_field_id(it->second, f.body);
      for (const TSNode value : returns(body))
        if (has_dtype(file, functions, value, ts_node_start_byte(value), depth + 1)) return true;
    }
    return false;
  }

  // Whether `object` is a random generator of the rule's list: a call of one, or a name last
  // assigned one before `before`.
  bool is_generator(const PythonFile& file, TSNode object, uint32_t before) const {
    if (generators_.empty()) return false;
    if (node_is(object, "identifier")) {
      object = last_assignment(file, object, before);
      if (ts_node_is_null(object)) return false;
    }
    if (!node_is(object, "call")) return false;
    const std::string callee = file.resolve(ts_node_child_by_field_id(object, PyFields::get().function));
    return !callee.empty() && any_dotted_pattern_matches(generators_, callee);
  }

  // The right side of the last `name = value` before `before` in the scope that reads `name`.
  static TSNode last_assignment(const PythonFile& file, TSNode name, uint32_t before) {
    const auto& f = PyFields::get();
    TSNode scope = ts_node_parent(name);
    while (!ts_node_is_null(scope) && !node_is(scope, "function_definition")) scope = ts_node_parent(scope);
    if (ts_node_is_null(scope)) scope = file.root();
    else scope = ts_node_child_by_field_id(scope, f.body);
    const std::string_view wanted = file.text(name);
    TSNode found{};
    std::vector<TSNode> stack{scope};
    size_t visited = 0;
    while (!stack.empty() && visited++ < kMaxNodes) {
      const TSNode node = stack.back();
      stack.pop_back();
      if (ts_node_start_byte(node) >= before) continue;
      if (node_is(node, "function_definition") || node_is(node, "class_definition") || node_is(node, "lambda")) continue;
      if (node_is(node, "assignment")) {
        const TSNode left = ts_node_child_by_field_id(node, f.left);
        const TSNode right = ts_node_child_by_field_id(node, f.right);
        if (node_is(left, "identifier") && file.text(left) == wanted && !ts_node_is_null(right) &&
            ts_node_end_byte(node) <= before &&
            (ts_node_is_null(found) || ts_node_start_byte(right) > ts_node_start_byte(found)))
          found = right;
      }
      const uint32_t count = ts_node_named_child_count(node);
      for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
    }
    return found;
  }

  static std::vector<TSNode> returns(TSNode body) {
    std::vector<TSNode> out;
    std::vector<TSNode> stack{body};
    size_t visited = 0;
    while (!stack.empty() && visited++ < kMaxNodes) {
      const TSNode node = stack.back();
      stack.pop_back();
      if (node_is(node, "function_definition") || node_is(node, "class_definition") || node_is(node, "lambda")) continue;
      if (node_is(node, "return_statement")) {
        if (ts_node_named_child_count(node) > 0) out.push_back(ts_node_named_child(node, 0));
        continue;
      }
      const uint32_t count = ts_node_named_child_count(node);
      for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
    }
    return out;
  }

  std::vector<std::string> sinks_, moves_, casts_, cast_dtypes_, producers_, float_literal_producers_, astype_,
      dtype_names_, generators_, generator_methods_;
  std::unique_ptr<RE2> dtype_strings_;
};

}  // namespace

std::unique_ptr<PythonMatcher> make_array_to_device_matcher(const nlohmann::json& params, const Rule& rule,
                                                            const RuleSet& rules) {
  return std::make_unique<ArrayToDeviceMatcher>(params, rule, rules);
}

}  // namespace mpsready
