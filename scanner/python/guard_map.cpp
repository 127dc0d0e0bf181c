#include "python/guard_map.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include <re2/re2.h>

#include "python/import_map.h"
#include "python/string_literal.h"
#include "python/ts_python.h"

namespace mpsready {
namespace {

// A condition is scanned at most this far: enough for any real condition, and a bound on
// hostile, deeply nested ones.
constexpr size_t kMaxConditionNodes = 4096;

bool is_check_function(const std::string& name) {
  return name == "torch.cuda.is_available" || name == "torch.cuda.device_count" ||
         name == "torch.cuda.is_initialized" || name == "torch.backends.cudnn.is_available" ||
         name == "torch.cuda.is_bf16_supported" ||
         // Code that runs only under a distributed launch: a single-process run, the one a Mac
         // makes, never reaches it.
         name == "torch.distributed.is_initialized";
}

// The environment variables a distributed launcher (torchrun, mpirun wrappers) sets.
bool is_launch_variable(std::string_view name) {
  return name == "RANK" || name == "LOCAL_RANK" || name == "WORLD_SIZE" || name == "LOCAL_WORLD_SIZE";
}

// `local_rank`, `args.local_rank`, `self.rank`, `os.environ.get("LOCAL_RANK", -1)`: a process rank.
bool reads_as_rank(std::string_view text) {
  std::string lower(text);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const size_t dot = lower.rfind('.');
  std::string last = dot == std::string::npos ? lower : lower.substr(dot + 1);
  while (!last.empty() && last.front() == '_') last.erase(0, 1);
  if (last == "rank" || last == "local_rank" || last == "global_rank") return true;
  return lower.find("\"rank\"") != std::string::npos || lower.find("\"local_rank\"") != std::string::npos ||
         lower.find("'rank'") != std::string::npos || lower.find("'local_rank'") != std::string::npos;
}

bool contains_ci(std::string_view text, std::string_view needle) {
  const auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                              [](char a, char b) {
                                return std::tolower(static_cast<unsigned char>(a)) == b;
                              });
  return it != text.end();
}

// `[prefix_](cuda|gpu)[_suffix]` with the prefixes and suffixes availability is spelt with.
bool reads_as_device_check(std::string_view name) {
  std::string lower(name);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!lower.empty() && lower.front() == '_') lower.erase(0, 1);
  for (std::string_view device : {"cuda", "gpu"}) {
    const size_t at = lower.find(device);
    if (at == std::string::npos) continue;
    const std::string prefix = lower.substr(0, at);
    const std::string suffix = lower.substr(at + device.size());
    static const std::unordered_set<std::string> prefixes = {"", "use_", "has_", "have_", "with_", "is_", "enable_",
                                                             "enabled_", "on_", "run_on_", "using_", "allow_",
                                                             "n_", "n", "num_", "number_of_"};
    static const std::unordered_set<std::string> suffixes = {"", "_available", "_is_available", "_enabled", "_found",
                                                             "_present", "_exists", "_ready", "_supported", "s",
                                                             "_count", "_num", "s_count", "_home"};
    if (prefixes.count(prefix) && suffixes.count(suffix)) return true;
  }
  return false;
}

// Names that read as "this optional dependency or device is present" (HAS_APEX, use_cuda).
bool looks_like_availability_flag(std::string_view name) {
  // Build switches choose which build to produce (`SKIP_CUDA_BUILD`, `FORCE_CUDA`,
  // `has_flag("--cuda_ext")`): they are no run-time fallback.
  for (std::string_view word : {"build", "force", "skip", "keep", "flag", "compile", "install", "arch"})
    if (contains_ci(name, word)) return false;
  // A name about CUDA reads as a check only in the shapes availability takes (`use_cuda`,
  // `args.cuda`, `HAS_GPU`, `cuda_available`); `trace_cuda` or `is_cuda_ok` merely contain it.
  if (contains_ci(name, "cuda") || contains_ci(name, "gpu")) return reads_as_device_check(name);
  // Distributed mode (`if ddp:`, `if args.distributed:`, `if world_size > 1:`): the code also
  // has a single-process path, which is the one a Mac takes.
  if (contains_ci(name, "ddp") || contains_ci(name, "distributed") || contains_ci(name, "world_size"))
    return true;
  std::string lower(name);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!lower.empty() && lower.front() == '_') lower.erase(0, 1);
  const auto ends_with = [&](std::string_view s) {
    return lower.size() >= s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0;
  };
  return lower.rfind("has_", 0) == 0 || lower.rfind("have_", 0) == 0 || ends_with("_available") ||
         ends_with("_installed");
}

// Whether a flag's name says only "some feature is there" (`has_bias`, `apex_available`) rather
// than naming CUDA, a GPU or a distributed run.
bool names_no_device(std::string_view name) {
  for (std::string_view word : {"cuda", "gpu", "ddp", "distributed", "world_size"})
    if (contains_ci(name, word)) return false;
  return true;
}

// Whether `identifier` names a parameter of the function it sits in. Its value is the caller's
// choice, and a Mac run takes the default: `def f(x, has_bias=True): if has_bias:` is a model
// option, not a test of what is installed. Parents are walked in a loop, bounded.
bool names_a_parameter(std::string_view source, TSNode identifier, std::string_view name) {
  const auto& f = PyFields::get();
  TSNode node = identifier;
  for (int up = 0; up < 256; ++up) {
    node = ts_node_parent(node);
    if (ts_node_is_null(node)) return false;
    if (node_is(node, "lambda") || node_is(node, "class_definition")) return false;
    if (!node_is(node, "function_definition")) continue;
    const TSNode params = ts_node_child_by_field_id(node, f.parameters);
    if (ts_node_is_null(params)) return false;
    const uint32_t count = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(params, i);
      if (node_is(p, "default_parameter") || node_is(p, "typed_default_parameter")) {
        p = ts_node_child_by_field_id(p, f.name);
      } else if (node_is(p, "typed_parameter") && ts_node_named_child_count(p) > 0) {
        p = ts_node_named_child(p, 0);
      }
      if (!ts_node_is_null(p) && node_is(p, "identifier") && node_text(source, p) == name) return true;
    }
    return false;
  }
  return false;
}

// `is_deepspeed_zero3_enabled()`, `check_deepspeed_zero3_enabled()`: true only in a run that
// DeepSpeed launched with ZeRO stage 3, which is multi-process CUDA training; a Mac's single
// process never takes that path.
bool looks_like_launch_probe(std::string_view callee) {
  const size_t dot = callee.rfind('.');
  std::string name(dot == std::string_view::npos ? callee : callee.substr(dot + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name.find("deepspeed") != std::string::npos && name.find("zero") != std::string::npos &&
         name.size() > 8 && name.compare(name.size() - 8, 8, "_enabled") == 0;
}

// The last name of a call like `utils.is_apex_available`: `is_<x>_available` or `is_<x>_installed`.
bool looks_like_probe(std::string_view callee) {
  const size_t dot = callee.rfind('.');
  const std::string_view name = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
  const auto ends = [&](std::string_view s) { return name.size() > s.size() && name.substr(name.size() - s.size()) == s; };
  return name.rfind("is_", 0) == 0 && (ends("_available") || ends("_installed"));
}

}  // namespace

bool CudaCheckClassifier::is_force_switch(TSNode expr) const {
  const std::string_view text = node_text(source_, expr);
  if (!contains_ci(text, "force") || !(contains_ci(text, "cuda") || contains_ci(text, "gpu"))) return false;
  if (contains_ci(text, "not") || text.find("!=") != std::string_view::npos) return false;
  // A comparison must say "on" (`== "1"`, `== "true"`): `== "0"` holds when the variable is unset.
  if (text.find("==") != std::string_view::npos)
    return text.find("\"1\"") != std::string_view::npos || text.find("'1'") != std::string_view::npos ||
           contains_ci(text, "\"true\"") || contains_ci(text, "'true'");
  return node_is(expr, "identifier") || node_is(expr, "attribute") || node_is(expr, "call");
}

// `is_rocm_pytorch`, `torch.version.hip`, `IS_HIP_EXTENSION`, `torch.version.hip is not None`: a
// test for AMD's ROCm build of PyTorch, which a Mac never has, so it is false there like a CUDA
// check. Only a plain name, attribute or `is not None` test says so (a `not` makes it true there).
bool CudaCheckClassifier::is_rocm_check(TSNode expr) const {
  while (node_is(expr, "parenthesized_expression") && ts_node_named_child_count(expr) == 1) expr = ts_node_named_child(expr, 0);
  if (node_is(expr, "comparison_operator")) {
    const std::string_view text = node_text(source_, expr);
    if (ts_node_child_count(expr) != 3 || node_text(source_, ts_node_child(expr, 1)) != "is not" ||
        !node_is(ts_node_child(expr, 2), "none") || text.empty())
      return false;
    expr = ts_node_child(expr, 0);
  }
  if (!node_is(expr, "identifier") && !node_is(expr, "attribute")) return false;
  std::string text(node_text(source_, expr));
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const size_t dot = text.rfind('.');
  const std::string last = dot == std::string::npos ? text : text.substr(dot + 1);
  if (last.find("rocm") != std::string::npos) return true;
  // `hip` as a word of the last name: `torch.version.hip`, `is_hip`, `IS_HIP_EXTENSION`; not `ship`.
  const size_t hip = last.find("hip");
  return hip != std::string::npos && (hip == 0 || last[hip - 1] == '_') &&
         (hip + 3 == last.size() || last[hip + 3] == '_');
}

bool CudaCheckClassifier::mentions_cuda(TSNode expr) const {
  const auto& f = PyFields::get();
  std::vector<TSNode> stack{expr};
  size_t visited = 0;
  while (!stack.empty() && visited++ < kMaxConditionNodes) {
    const TSNode node = stack.back();
    stack.pop_back();
    const std::string_view type = ts_node_type(node);
    if (type == "call") {
      const TSNode function = ts_node_child_by_field_id(node, f.function);
      const std::string callee = imports_.resolve(source_, function);
      if (is_check_function(callee)) return true;
      // `is_flash_attn_available()`, `is_te_pytorch_available()`: an import probe, whether the
      // repository defines it or a library does (PyTorch's own probes are judged by what they are).
      if (callee.rfind("torch.", 0) != 0 && looks_like_probe(node_text(source_, function))) return true;
      if (looks_like_launch_probe(node_text(source_, function))) return true;
      // A call into an imported module is judged by what it is, not by its name's words:
      // `torch.backends.mps.is_available()` is no CUDA check. Only its arguments are looked at.
      if (!callee.empty()) {
        const TSNode args = ts_node_child_by_field_id(node, f.arguments);
        if (!ts_node_is_null(args)) stack.push_back(args);
        continue;
      }
    } else if (type == "attribute") {
      const std::string_view attr = node_text(source_, ts_node_child_by_field_id(node, f.attribute));
      if (attr == "is_cuda" || looks_like_availability_flag(attr)) return true;
    } else if (type == "identifier") {
      const std::string_view name = node_text(source_, node);
      if (flags_.count(std::string(name))) return true;
      // A feature flag the caller passes in is an option, whatever its name (names_a_parameter).
      if (looks_like_availability_flag(name) && !(names_no_device(name) && names_a_parameter(source_, node, name)))
        return true;
    } else if (type == "string") {
      if (const auto content = string_literal_content(source_, node)) {
        if (content->rfind("cuda", 0) == 0 || *content == "gpu" || is_launch_variable(*content)) return true;
      }
      continue;  // nothing inside a string is code
    }
    const uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = count; i > 0; --i) stack.push_back(ts_node_named_child(node, i - 1));
  }
  return false;
}

CudaCheck CudaCheckClassifier::classify(TSNode expr) const { return classify_at(expr, 0); }

CudaCheck CudaCheckClassifier::classify_at(TSNode expr, int depth) const {
  // Conditions are shallow; a hostile chain of `and`s is cut off rather than recursed into.
  constexpr int kMaxBooleanDepth = 32;
  if (depth > kMaxBooleanDepth) return CudaCheck::none;
  const auto& f = PyFields::get();
  bool negated = false;
  // Peel `not` and parentheses iteratively.
  for (;;) {
    if (node_is(expr, "parenthesized_expression") && ts_node_named_child_count(expr) == 1) {
      expr = ts_node_named_child(expr, 0);
    } else if (node_is(expr, "not_operator")) {
      negated = !negated;
      expr = ts_node_child_by_field_id(expr, f.argument);
    } else {
      break;
    }
  }
  if (ts_node_is_null(expr)) return CudaCheck::none;
  // `a and b` needs both: it checks for CUDA if either part does. `a or b` holds without CUDA
  // if either part is a negative check, so its false branch (and the code after an early exit)
  // has CUDA. Otherwise a mix says nothing certain about CUDA.
  if (node_is(expr, "boolean_operator")) {
    const std::string_view op = node_text(source_, ts_node_child_by_field_id(expr, f.operator_));
    const CudaCheck left = classify_at(ts_node_child_by_field_id(expr, f.left), depth + 1);
    const CudaCheck right = classify_at(ts_node_child_by_field_id(expr, f.right), depth + 1);
    CudaCheck result = CudaCheck::none;
    if (op == "and" && (left == CudaCheck::positive || right == CudaCheck::positive)) result = CudaCheck::positive;
    if (op == "or" && (left == CudaCheck::negative || right == CudaCheck::negative)) result = CudaCheck::negative;
    // Each part false on a Mac, one of them a CUDA check: `a or b` is false there too, so it checks
    // for CUDA (`torch.cuda.is_available() or x.is_cuda`, `is_rocm_pytorch or torch.cuda.
    // is_available()`). And each part true on a Mac: `not a and not b` holds there.
    const auto false_on_mac = [&](CudaCheck check, TSNode side) {
      return check == CudaCheck::positive || is_force_switch(side) || is_rocm_check(side);
    };
    if (op == "or" && (left == CudaCheck::positive || right == CudaCheck::positive) &&
        false_on_mac(left, ts_node_child_by_field_id(expr, f.left)) &&
        false_on_mac(right, ts_node_child_by_field_id(expr, f.right)))
      result = CudaCheck::positive;
    if (op == "and" && left == CudaCheck::negative && right == CudaCheck::negative) result = CudaCheck::negative;
    // `(cuda and CUDA_HOME) or os.getenv("FORCE_CUDA", "0") == "1"`: the other way in is a switch
    // a user sets on purpose to build for CUDA without a GPU, which a Mac's build never sets.
    if (op == "or" && ((left == CudaCheck::positive && is_force_switch(ts_node_child_by_field_id(expr, f.right))) ||
                       (right == CudaCheck::positive && is_force_switch(ts_node_child_by_field_id(expr, f.left)))))
      result = CudaCheck::positive;
    // `is_cuda or (is_mps and new_enough)`: the code already chooses per device, MPS included.
    if (op == "or" && (left == CudaCheck::positive || right == CudaCheck::positive) &&
        node_text(source_, expr).find("mps") != std::string_view::npos)
      result = CudaCheck::positive;
    if (negated && result != CudaCheck::none)
      result = result == CudaCheck::positive ? CudaCheck::negative : CudaCheck::positive;
    return result;
  }
  if (const CudaCheck rank = classify_rank_check(expr); rank != CudaCheck::none)
    return negated ? (rank == CudaCheck::positive ? CudaCheck::negative : CudaCheck::positive) : rank;
  if (!mentions_cuda(expr)) return CudaCheck::none;
  if (node_is(expr, "comparison_operator")) {
    const uint32_t count = ts_node_child_count(expr);
    // `CUDA_HOME is not None` says the thing is there; `is None` that it is not.
    bool against_none = false;
    for (uint32_t i = 0; i < count; ++i) against_none = against_none || node_is(ts_node_child(expr, i), "none");
    if (against_none) negated = !negated;
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode child = ts_node_child(expr, i);
      if (ts_node_is_named(child)) continue;
      const std::string_view op = node_text(source_, child);
      if (op == "!=" || op == "not" || op == "is not" || op == "not in") negated = !negated;
    }
  }
  return negated ? CudaCheck::negative : CudaCheck::positive;
}

// `local_rank != -1`, `int(os.environ.get("LOCAL_RANK", -1)) == -1`: -1 is the "not launched
// distributed" sentinel, so the comparison says whether this is a distributed run (positive: the
// code beneath runs only under a launcher). `rank == 0` says nothing: a single process is rank 0.
CudaCheck CudaCheckClassifier::classify_rank_check(TSNode expr) const {
  if (!node_is(expr, "comparison_operator") || ts_node_child_count(expr) != 3) return CudaCheck::none;
  const TSNode left = ts_node_child(expr, 0);
  const TSNode right = ts_node_child(expr, 2);
  const std::string_view op = node_text(source_, ts_node_child(expr, 1));
  const auto is_minus_one = [&](TSNode n) { return node_text(source_, n) == "-1"; };
  TSNode subject = left;
  if (is_minus_one(left)) {
    subject = right;
  } else if (!is_minus_one(right)) {
    return CudaCheck::none;
  }
  if (!reads_as_rank(node_text(source_, subject))) return CudaCheck::none;
  if (op == "!=" || op == ">" || op == "is not") return CudaCheck::positive;
  if (op == "==" || op == "is") return CudaCheck::negative;
  return CudaCheck::none;
}

CudaCheck CudaCheckClassifier::classify_choice_check(TSNode expr) const {
  if (const CudaCheck rank = classify_rank_check(expr); rank != CudaCheck::none) return rank;
  const auto names_cuda = [&](TSNode n) {
    const auto content = node_is(n, "string") ? string_literal_content(source_, n) : std::nullopt;
    return content && (*content == "cuda" || content->rfind("cuda:", 0) == 0);
  };
  if (node_is(expr, "comparison_operator") && ts_node_child_count(expr) == 3) {
    const std::string_view op = node_text(source_, ts_node_child(expr, 1));
    if (!names_cuda(ts_node_child(expr, 0)) && !names_cuda(ts_node_child(expr, 2))) return CudaCheck::none;
    if (op == "==") return CudaCheck::positive;
    if (op == "!=") return CudaCheck::negative;
    return CudaCheck::none;
  }
  if (node_is(expr, "call")) {
    const auto& f = PyFields::get();
    const TSNode function = ts_node_child_by_field_id(expr, f.function);
    const TSNode args = ts_node_child_by_field_id(expr, f.arguments);
    if (!node_is(function, "attribute") || ts_node_is_null(args) || ts_node_named_child_count(args) != 1) return CudaCheck::none;
    if (node_text(source_, ts_node_child_by_field_id(function, f.attribute)) != "startswith") return CudaCheck::none;
    const auto content = string_literal_content(source_, ts_node_named_child(args, 0));
    return content && *content == "cuda" ? CudaCheck::positive : CudaCheck::none;
  }
  return CudaCheck::none;
}

MpsCheck classify_mps_condition(std::string_view condition) {
  if (condition.find("mps") == std::string_view::npos) return MpsCheck::none;
  static const RE2 positive(
      R"re((==\s*["']mps["']|["']mps["']\s*==|\.is_mps\b|backends\.mps\.is_available\(\)|\bis_(?:torch_)?mps_available\(\)|["']mps["']\s+in\b))re");
  static const RE2 negative(
      R"re((!=\s*["']mps["']|["']mps["']\s*!=|\bnot\s+[\w.]*\.is_mps\b|\bnot\s+torch\.backends\.mps\.is_available\(\)|\bnot\s+[\w.]*is_(?:torch_)?mps_available\(\)|["']mps["']\s+not\s+in\b))re");
  const re2::StringPiece text(condition.data(), condition.size());
  if (RE2::PartialMatch(text, negative)) return MpsCheck::negative;
  if (RE2::PartialMatch(text, positive)) return MpsCheck::positive;
  return MpsCheck::none;
}

MpsCheck classify_mps_condition(std::string_view condition, const std::unordered_set<std::string>& mps_flags) {
  const MpsCheck direct = classify_mps_condition(condition);
  // What holds on a Mac that chose MPS only when the test is the whole condition, its negation
  // (`not x.is_mps`), or one side of an `or`: `mps and small`, `not (a or mps)`, `f(mps)` say
  // nothing certain.
  const auto is_name = [](std::string_view s) {
    if (s.empty()) return false;
    for (const char c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
  };
  const bool negated = condition.substr(0, 4) == "not ";
  const std::string_view rest = negated ? condition.substr(4) : condition;
  if (rest.find(" and ") != std::string_view::npos || rest.find("not ") != std::string_view::npos ||
      rest.find("not(") != std::string_view::npos || (rest.find('(') != std::string_view::npos && direct == MpsCheck::none))
    return MpsCheck::none;
  if (negated) {
    if (direct == MpsCheck::negative) return direct;  // `not torch.backends.mps.is_available()`
    return is_name(rest) && mps_flags.count(std::string(rest)) ? MpsCheck::negative : MpsCheck::none;
  }
  if (direct != MpsCheck::none) return direct;
  // `cpu or is_mps`: every side a plain name, one of them a name assigned an MPS test.
  bool any = false;
  for (size_t start = 0;;) {
    const size_t at = rest.find(" or ", start);
    const std::string_view side = rest.substr(start, at == std::string_view::npos ? at : at - start);
    if (!is_name(side)) return MpsCheck::none;
    any = any || mps_flags.count(std::string(side));
    if (at == std::string_view::npos) break;
    start = at + 4;
  }
  return any ? MpsCheck::positive : MpsCheck::none;
}

void GuardMap::add(uint32_t start, uint32_t end) {
  if (end > start) ranges_.emplace_back(start, end);
}

void GuardMap::finish() {
  std::sort(ranges_.begin(), ranges_.end());
  std::vector<std::pair<uint32_t, uint32_t>> merged;
  for (const auto& r : ranges_) {
    if (!merged.empty() && r.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }
  ranges_ = std::move(merged);
}

bool GuardMap::contains(uint32_t byte) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::make_pair(byte, UINT32_MAX));
  if (it == ranges_.begin()) return false;
  --it;
  return byte >= it->first && byte < it->second;
}

}  // namespace mpsready
