#include "cpu_coverage.h"
#include "cpp/token_brackets.h"

#include "directive_line.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace mpsready {
namespace {

using cpp_tokens::is_close;
using cpp_tokens::is_open;
using cpp_tokens::npos;

// At most this many callees are kept per function: the wrappers this follows call one or two.
constexpr size_t kMaxCalls = 16;

// `REGISTER_DEVICE_IMPL`, `REGISTER_FOO_IMPL`: a macro that registers one implementation of a
// key for one device in an extension's own registry.
bool registers_device_impl(std::string_view s) {
  return s.size() > 14 && s.starts_with("REGISTER_") && s.ends_with("_IMPL");
}

// `DISPATCH_DEVICE_IMPL`: the macro that calls the implementation registered for the inputs' device.
bool dispatches_device_impl(std::string_view s) {
  return s.size() > 14 && s.starts_with("DISPATCH_") && s.ends_with("_IMPL");
}

bool names_cuda(std::string_view s) { return s.find("CUDA") != std::string_view::npos || s.find("CUDACC") != std::string_view::npos; }

bool contains_ci(std::string_view hay, std::string_view needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         }) != hay.end();
}

const std::set<std::string_view>& not_functions() {
  static const std::set<std::string_view> words = {
      "if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof", "static_assert",
      "PYBIND11_MODULE", "TORCH_LIBRARY", "TORCH_LIBRARY_FRAGMENT", "TORCH_LIBRARY_IMPL", "defined", "namespace"};
  return words;
}

class CoverageReader {
 public:
  CoverageReader(const std::vector<CppToken>& tokens, std::string_view text, const CppGuards& guards)
      : t_(tokens), text_(text), guards_(guards) {
    read_directives();
    match_brackets();
  }

  CpuCoverage run() {
    // Function definitions and registration blocks, outside any function body.
    for (size_t i = 0; i < t_.size(); ++i) {
      if (directive_[i]) continue;
      const std::string_view s = t_[i].spelling;
      if ((s == "PYBIND11_MODULE" || s == "TORCH_LIBRARY" || s == "TORCH_LIBRARY_FRAGMENT" || s == "TORCH_LIBRARY_IMPL") &&
          next(i) != npos && t_[next(i)].spelling == "(") {
        i = registration_block(i);
        continue;
      }
      if (registers_device_impl(s) && next(i) != npos && t_[next(i)].spelling == "(") {
        i = device_impl(i);
        continue;
      }
      if (s == "{" && match_[i] != npos) {
        const size_t name = function_name_before(i);
        if (name != npos) {
          if (!cuda_only_[i]) {
            CppFunctionFact fn{std::string(t_[name].spelling), reaches_cpu(i), {}, {}};
            read_own_calls(i, fn);
            out_.functions.push_back(std::move(fn));
          }
          i = match_[i];
        }
      }
    }
    return std::move(out_);
  }

 private:
  size_t next(size_t i) const {
    for (size_t j = i + 1; j < t_.size(); ++j)
      if (!directive_[j]) return j;
    return npos;
  }
  size_t prev(size_t i) const {
    for (size_t j = i; j-- > 0;)
      if (!directive_[j]) return j;
    return npos;
  }

  // Marks preprocessor lines, and the tokens compiled only when a macro naming CUDA is defined
  // (`#ifdef WITH_CUDA` … `#else`, or the `#else` of `#ifndef WITH_CUDA`).
  void read_directives() {
    directive_.assign(t_.size(), false);
    cuda_only_.assign(t_.size(), false);
    struct Frame {
      int sense = 0;  // 1: the branch needs CUDA; -1: the branch runs without CUDA; 0: unrelated
      bool other = false;  // past #else
    };
    std::vector<Frame> stack;
    size_t line_end = 0;
    for (size_t i = 0; i < t_.size(); ++i) {
      if (t_[i].starts_directive) {
        line_end = directive_line_end(text_, t_[i].offset);
        size_t end = i + 1;
        while (end < t_.size() && t_[end].offset < line_end) ++end;
        const std::string_view word = i + 1 < end ? t_[i + 1].spelling : std::string_view{};
        if (word == "if" || word == "ifdef" || word == "ifndef") {
          bool cuda = false, negated = word == "ifndef";
          for (size_t j = i + 2; j < end; ++j) {
            if (names_cuda(t_[j].spelling)) cuda = true;
            if (t_[j].spelling == "!") negated = !negated;
          }
          stack.push_back({cuda ? (negated ? -1 : 1) : 0, false});
        } else if ((word == "else" || word == "elif") && !stack.empty()) {
          stack.back().other = true;
        } else if (word == "endif" && !stack.empty()) {
          stack.pop_back();
        } else if (word == "define" && i + 2 < end && t_[i + 2].is_identifier) {
          // `#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), ...)`: a macro that asserts CUDA.
          bool asserts = false, cuda = false;
          for (size_t j = i + 3; j < end; ++j) {
            const std::string_view w = t_[j].spelling;
            if (w == "TORCH_CHECK" || w == "AT_ASSERTM" || w == "AT_ASSERT" || w == "TORCH_INTERNAL_ASSERT") asserts = true;
            if (w == "is_cuda" || w == "kCUDA") cuda = true;
          }
          if (asserts && cuda) cuda_asserts_.insert(std::string(t_[i + 2].spelling));
        }
        for (size_t j = i; j < end; ++j) directive_[j] = true;
        i = end - 1;
        continue;
      }
      for (const Frame& f : stack)
        if ((f.sense == 1 && !f.other) || (f.sense == -1 && f.other)) cuda_only_[i] = true;
    }
  }

  void match_brackets() {
    match_.assign(t_.size(), npos);
    std::vector<size_t> open;
    for (size_t i = 0; i < t_.size(); ++i) {
      if (directive_[i]) continue;
      const std::string_view s = t_[i].spelling;
      if (is_open(s)) {
        open.push_back(i);
      } else if (is_close(s) && !open.empty()) {
        match_[open.back()] = i;
        match_[i] = open.back();
        open.pop_back();
      }
    }
  }

  // `name ( … ) [const] [noexcept] [-> type] {`: the token of `name`, or npos.
  size_t function_name_before(size_t brace) const {
    size_t j = prev(brace);
    // Skip trailing qualifiers and a trailing return type up to the parameter list.
    for (int steps = 0; j != npos && t_[j].spelling != ")" && steps < 16; ++steps) {
      const std::string_view s = t_[j].spelling;
      if (s == ";" || s == "}" || s == "{" || s == "=" || s == ",") return npos;
      j = prev(j);
    }
    if (j == npos || t_[j].spelling != ")" || match_[j] == npos) return npos;
    const size_t name = prev(match_[j]);
    if (name == npos || !t_[name].is_identifier || not_functions().count(t_[name].spelling)) return npos;
    const size_t before = prev(name);
    if (before != npos && (t_[before].spelling == "." || t_[before].spelling == "->")) return npos;
    return name;
  }

  // `REGISTER_…_IMPL(key, DEVICE, fn)` at file scope; returns its last token.
  size_t device_impl(size_t macro) {
    const size_t args = next(macro);
    const size_t end = match_[args];
    if (end == npos) return macro;
    // The last identifier of each top-level argument (`ns::fn` gives `fn`).
    std::vector<std::string_view> parts(1);
    int depth = 0;
    for (size_t j = args + 1; j < end; ++j) {
      if (directive_[j]) continue;
      const std::string_view w = t_[j].spelling;
      if (is_open(w) || w == "<") ++depth;
      else if (is_close(w) || w == ">") --depth;
      else if (w == "," && depth == 0) parts.emplace_back();
      else if (t_[j].is_identifier && depth == 0) parts.back() = w;
    }
    if (parts.size() == 3 && !parts[0].empty() && !parts[1].empty() && !parts[2].empty())
      out_.device_impls.push_back({line_of(t_[macro].offset), std::string(parts[0]), std::string(parts[1]),
                                   std::string(parts[2]), cuda_only_[macro]});
    return end;
  }

  // Whether the token at `i` begins a statement of its block: after `;`, `{`, `}` or the
  // block's opening, not after `)` of an `if`, `else`, `?` or `,`.
  bool begins_statement(size_t i, size_t open) const {
    const size_t p = prev(i);
    if (p == npos || p <= open) return true;
    const std::string_view w = t_[p].spelling;
    return w == ";" || w == "{" || w == "}";
  }

  // The calls a function's body makes at its own level, each as a whole statement:
  // `return nms_impl(x);`, `nms_impl(x);`, `auto y = nms_impl(x);`. A call inside a nested block,
  // a condition, or after `if (c)` without braces may not run, and is not the path.
  void read_own_calls(size_t open, CppFunctionFact& fn) const {
    const size_t close = match_[open];
    if (close == npos) return;
    for (size_t i = open + 1; i < close; ++i) {
      if (skipped(i)) continue;
      const std::string_view s = t_[i].spelling;
      if (s == "{" && match_[i] != npos) {
        i = match_[i];
        continue;
      }
      if (!t_[i].is_identifier) continue;
      const size_t paren = next(i);
      if (paren == npos || paren >= close || t_[paren].spelling != "(" || match_[paren] == npos) continue;
      // Where the statement starts: before `return`, an assignment's `name =`, or a `ns::` chain.
      size_t start = i;
      while (prev(start) != npos && t_[prev(start)].spelling == "::" && prev(prev(start)) != npos &&
             t_[prev(prev(start))].is_identifier)
        start = prev(prev(start));
      const size_t p = prev(start);
      if (p == npos || p < open) continue;
      const std::string_view before = t_[p].spelling;
      bool whole = begins_statement(start, open);
      if (before == "return") whole = begins_statement(p, open);
      if (before == "=" && prev(p) != npos && t_[prev(p)].is_identifier) {
        // `Type name = call(...)` or `name = call(...)`: the assignment must begin the statement,
        // up to its declared type.
        size_t q = prev(p);
        for (int steps = 0; q != npos && q > open && steps < 8 && !begins_statement(q, open); ++steps) {
          const std::string_view w = t_[q].spelling;
          if (!t_[q].is_identifier && w != "::" && w != "<" && w != ">" && w != "&" && w != "*") break;
          q = prev(q);
        }
        whole = q != npos && begins_statement(q, open);
      }
      if (!whole) continue;
      if (dispatches_device_impl(s)) {
        const size_t key = next(paren);
        if (key != npos && t_[key].is_identifier && fn.dispatches.empty()) fn.dispatches = std::string(t_[key].spelling);
      } else if (!not_functions().count(s) && fn.calls.size() < kMaxCalls &&
                 std::find(fn.calls.begin(), fn.calls.end(), s) == fn.calls.end()) {
        fn.calls.emplace_back(s);
      }
      i = match_[paren];
    }
  }

  bool skipped(size_t i) const { return directive_[i] || cuda_only_[i] || guards_.protects(t_[i].offset); }

  // Whether the block `{ … }` at `open` reaches CPU code: no raise on its path without CUDA at its
  // own level (a raise inside a nested `if` is a check, not the path).
  bool reaches_cpu(size_t open) const {
    const size_t close = match_[open];
    if (close == npos) return true;
    for (size_t i = open + 1; i < close; ++i) {
      if (skipped(i)) continue;
      const std::string_view s = t_[i].spelling;
      if (s == "{" && match_[i] != npos) {
        // Nested blocks (`if`, loops, lambdas) are not the path, except the `else` of a CUDA
        // check: `if (x.is_cuda()) { … } else { AT_ERROR(…); }`.
        const size_t p = prev(i);
        const size_t q = p == npos ? npos : prev(p);
        if (p != npos && t_[p].spelling == "else" && q != npos && t_[q].spelling == "}" && match_[q] != npos &&
            guards_.protects(t_[match_[q]].offset + 1) && !reaches_cpu(i))
          return false;
        i = match_[i];
        continue;
      }
      if (!raises_at(i)) continue;
      // `if (c) AT_ERROR(...);` and `else throw ...;` raise conditionally.
      const size_t p = prev(i);
      if (p != npos && t_[p].spelling == "else") continue;
      if (p != npos && t_[p].spelling == ")" && match_[p] != npos) {
        const size_t k = prev(match_[p]);
        if (k != npos && (t_[k].spelling == "if" || t_[k].spelling == "while" || t_[k].spelling == "for")) continue;
      }
      return false;
    }
    return true;
  }

  // A statement that raises whenever it runs: AT_ERROR(...), TORCH_CHECK(false, ...), throw, a
  // check that an input is a CUDA tensor, or a message that the CPU is not implemented.
  bool raises_at(size_t i) const {
    const std::string_view s = t_[i].spelling;
    if (s == "throw" || s == "AT_ERROR") return true;
    const size_t paren = next(i);
    if (paren == npos || t_[paren].spelling != "(" || match_[paren] == npos) return false;
    if (cuda_asserts_.count(std::string(s))) return true;
    if (s != "TORCH_CHECK" && s != "TORCH_CHECK_NOT_IMPLEMENTED" && s != "AT_ASSERTM" && s != "AT_ASSERT" &&
        s != "TORCH_INTERNAL_ASSERT")
      return false;
    const size_t first = next(paren);
    if (first != npos && (t_[first].spelling == "false" || t_[first].spelling == "0")) return true;
    for (size_t j = paren + 1; j < match_[paren]; ++j) {
      const std::string_view w = t_[j].spelling;
      if (w == "," ) break;
      if (w == "is_cuda" || w == "kCUDA") return true;  // TORCH_CHECK(x.is_cuda(), ...)
    }
    for (size_t j = paren + 1; j < match_[paren]; ++j)
      if (t_[j].is_string && contains_ci(t_[j].spelling, "not implemented") && contains_ci(t_[j].spelling, "cpu"))
        return true;
    return false;
  }

  static std::string literal(std::string_view s) {
    const size_t a = s.find('"'), b = s.rfind('"');
    if (a == std::string_view::npos || b <= a) return {};
    return std::string(s.substr(a + 1, b - a - 1));
  }

  // The operator name of `"name"`, `"ns::name(Tensor x) -> Tensor"` or `"name.overload(...)"`.
  static std::string op_name(std::string_view literal_text) {
    std::string_view n = literal_text.substr(0, std::min(literal_text.find('('), literal_text.size()));
    if (const size_t colons = n.rfind("::"); colons != std::string_view::npos) n = n.substr(colons + 2);
    n = n.substr(0, std::min(n.find('.'), n.size()));
    while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
    return std::string(n);
  }

  // Reads `m.def(...)` / `m.impl(...)` in a registration block; returns the block's last token.
  size_t registration_block(size_t macro) {
    const std::string_view kind = t_[macro].spelling;
    const size_t args = next(macro);
    const size_t args_end = match_[args];
    if (args_end == npos) return macro;
    std::vector<size_t> params;
    for (size_t j = args + 1; j < args_end; ++j)
      if (t_[j].spelling == "," || j == args + 1) params.push_back(t_[j].spelling == "," ? j + 1 : j);
    std::string key;
    if (kind == "TORCH_LIBRARY_IMPL" && params.size() >= 3) {
      for (size_t j = params[1]; j < args_end && t_[j].spelling != ","; ++j)
        if (t_[j].is_identifier) key = std::string(t_[j].spelling);
    }
    const std::string_view module_var = params.empty() ? std::string_view{} : t_[prev(args_end)].spelling;
    const size_t open = next(args_end);
    if (open == npos || t_[open].spelling != "{" || match_[open] == npos) return args_end;
    const size_t close = match_[open];
    for (size_t i = open + 1; i + 3 < close; ++i) {
      if (directive_[i] || t_[i].spelling != module_var) continue;
      const size_t dot = next(i);
      if (dot == npos || t_[dot].spelling != ".") continue;
      const size_t verb = next(dot);
      if (verb == npos || (t_[verb].spelling != "def" && t_[verb].spelling != "impl")) continue;
      const size_t paren = next(verb);
      if (paren == npos || t_[paren].spelling != "(" || match_[paren] == npos) continue;
      const size_t first = next(paren);
      if (first == npos || !t_[first].is_string) continue;
      CppOpFact op;
      op.line = line_of(t_[i].offset);
      op.name = op_name(literal(t_[first].spelling));
      op.key = key;
      op.cuda_only = cuda_only_[i];
      const size_t comma = next(first);
      if (comma == npos || t_[comma].spelling != "," || comma >= match_[paren]) {
        op.schema_only = true;
      } else {
        bind(op, comma + 1, match_[paren]);
      }
      if (!op.name.empty()) out_.ops.push_back(std::move(op));
      i = match_[paren];
    }
    return close;
  }

  // The implementation passed to `def`/`impl`: `&fn`, `fn`, `&ns::fn`, `TORCH_FN(fn)`,
  // `py::overload_cast<...>(&fn)`, or a lambda (its body is read for CPU code).
  void bind(CppOpFact& op, size_t from, size_t end) {
    size_t stop = end;
    int depth = 0;
    for (size_t j = from; j < end; ++j) {
      if (directive_[j]) continue;
      const std::string_view s = t_[j].spelling;
      if (is_open(s) || s == "<") ++depth;
      else if (is_close(s) || s == ">") --depth;
      else if (s == "," && depth <= 0) {
        stop = j;
        break;
      }
    }
    for (size_t j = from; j < stop; ++j) {
      if (directive_[j]) continue;
      if (t_[j].spelling == "[" && match_[j] != npos) {  // a lambda: its body follows the parameters
        for (size_t k = match_[j]; k < stop; ++k)
          if (t_[k].spelling == "{" && match_[k] != npos) {
            op.lambda_cpu = reaches_cpu(k);
            return;
          }
        return;
      }
    }
    // The last identifier of the first name chain after `&` or inside TORCH_FN(...), else the
    // first chain.
    size_t start = from;
    for (size_t j = from; j < stop; ++j)
      if (!directive_[j] && t_[j].spelling == "&") {
        start = j + 1;
        break;
      }
    std::string name;
    for (size_t j = start; j < stop; ++j) {
      if (directive_[j]) continue;
      const std::string_view s = t_[j].spelling;
      if (s == "TORCH_FN" || s == "overload_cast" || s == "py" || s == "torch" || s == "dispatch" || s == "c10" ||
          s == "DispatchKey")
        continue;
      if (t_[j].is_identifier) {
        name = std::string(s);
        const size_t n = next(j);
        if (n != npos && n < stop && t_[n].spelling == "::") continue;
        break;
      }
    }
    op.function = name;
  }

  int line_of(uint32_t offset) const {
    return 1 + static_cast<int>(std::count(text_.begin(), text_.begin() + std::min<size_t>(offset, text_.size()), '\n'));
  }

  const std::vector<CppToken>& t_;
  std::string_view text_;
  const CppGuards& guards_;
  std::vector<bool> directive_;
  std::vector<bool> cuda_only_;
  std::vector<size_t> match_;
  std::set<std::string> cuda_asserts_;
  CpuCoverage out_;
};

}  // namespace

CpuCoverage read_cpu_coverage(const std::vector<CppToken>& tokens, std::string_view text, const CppGuards& guards) {
  return CoverageReader(tokens, text, guards).run();
}

}  // namespace mpsready
