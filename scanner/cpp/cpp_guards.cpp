#include "cpp_guards.h"
#include "cpp/token_brackets.h"

#include "directive_line.h"

#include <algorithm>
#include <string>

namespace mpsready {
namespace {

using cpp_tokens::is_close;
using cpp_tokens::is_open;
using cpp_tokens::npos;

class GuardFinder {
 public:
  GuardFinder(const std::vector<CppToken>& tokens, std::string_view text) : t_(tokens), text_(text) {
    mark_directives();
    match_brackets();
  }

  CppGuards run() {
    for (size_t i = 0; i < t_.size(); ++i) {
      if (directive_[i]) continue;
      if (t_[i].spelling == "if" && i + 1 < t_.size() && t_[i + 1].spelling == "(" && match_[i + 1] != npos)
        if_statement(i);
      else if (t_[i].spelling == "?")
        conditional(i);
    }
    return std::move(out_);
  }

 private:
  enum class Sense { none, positive, negated };

  // Tokens of preprocessor lines (`#if x.is_cuda()` in a macro body is no statement).
  void mark_directives() {
    directive_.assign(t_.size(), false);
    size_t line_end = 0;
    for (size_t i = 0; i < t_.size(); ++i) {
      if (t_[i].starts_directive) line_end = directive_line_end(text_, t_[i].offset);
      directive_[i] = t_[i].offset < line_end;
    }
  }

  // Partner of each bracket, and the innermost `{` around each token. Unbalanced brackets (from
  // #if branches or garbage) are closed at the next closer of any kind, without recursion.
  void match_brackets() {
    match_.assign(t_.size(), npos);
    block_.assign(t_.size(), npos);
    std::vector<size_t> stack;
    std::vector<size_t> braces;
    for (size_t i = 0; i < t_.size(); ++i) {
      block_[i] = braces.empty() ? npos : braces.back();
      if (directive_[i]) continue;
      const std::string_view s = t_[i].spelling;
      if (is_open(s)) {
        stack.push_back(i);
        if (s == "{") braces.push_back(i);
      } else if (is_close(s)) {
        const char want = s == ")" ? '(' : s == "]" ? '[' : '{';
        while (!stack.empty() && t_[stack.back()].spelling[0] != want) {
          if (t_[stack.back()].spelling == "{") braces.pop_back();
          stack.pop_back();
        }
        if (stack.empty()) continue;
        match_[stack.back()] = i;
        match_[i] = stack.back();
        if (want == '{') braces.pop_back();
        stack.pop_back();
      }
    }
  }

  std::string_view at(size_t i) const { return i < t_.size() ? t_[i].spelling : std::string_view(); }
  uint32_t begin_of(size_t i) const { return t_[i].offset; }
  uint32_t end_of(size_t i) const { return t_[i].offset + static_cast<uint32_t>(t_[i].spelling.size()); }

  // Index of the last token of the statement that starts at `i`.
  size_t statement_end(size_t i) const {
    while (i < t_.size()) {
      const std::string_view s = at(i);
      if (s == "{") return match_[i] != npos ? match_[i] : t_.size() - 1;
      if ((s == "if" || s == "for" || s == "while" || s == "switch") && at(i + 1) == "(" && match_[i + 1] != npos) {
        i = match_[i + 1] + 1;  // the statement it controls
        continue;
      }
      for (size_t j = i; j < t_.size(); ++j) {
        if (directive_[j]) continue;
        const std::string_view x = at(j);
        if (x == ";") return j;
        if (is_open(x) && match_[j] != npos) j = match_[j];
        else if (is_close(x)) return j > i ? j - 1 : i;  // an unterminated statement ends at its block
      }
      return t_.size() - 1;
    }
    return t_.size() - 1;
  }

  // The start of the postfix expression that ends just before token `end` (`x`, `a.b[i]`,
  // `f(x)->y`), walking back over names, `.`, `->`, `::` and bracket groups.
  size_t operand_start(size_t end, size_t floor) const {
    size_t i = end;
    while (i > floor) {
      const size_t k = i - 1;
      const std::string_view s = at(k);
      if ((s == ")" || s == "]") && match_[k] != npos && match_[k] >= floor) i = match_[k];
      else if (t_[k].is_identifier || s == "." || s == "->" || s == "::") i = k;
      else break;
    }
    return i;
  }

  // A check starting at token `i` inside [floor, limit): its last token, or npos. Sets `start` to
  // where its expression begins (for a member check, the object).
  size_t check_at(size_t i, size_t floor, size_t limit, size_t& start) const {
    auto seq = [&](std::initializer_list<std::string_view> words) {
      size_t k = i;
      for (std::string_view w : words) {
        if (k >= limit || at(k) != w) return npos;
        ++k;
      }
      return k - 1;
    };
    const std::string_view s = at(i);
    if (s == "torch" || s == "at" || s == "c10") {
      start = i;
      for (std::string_view fn : {"is_available", "cudnn_is_available"}) {
        const size_t e = seq({s, "::", "cuda", "::", fn, "(", ")"});
        if (e != npos) return e;
      }
      if (const size_t e = seq({s, "::", "hasCUDA", "(", ")"}); e != npos) return e;
      if (const size_t e = seq({s, "::", "cuda", "::", "device_count", "(", ")"}); e != npos) {
        if (e + 2 < limit && (at(e + 1) == ">" || at(e + 1) == "!=") && at(e + 2) == "0") return e + 2;
        if (e + 2 < limit && at(e + 1) == ">=" && at(e + 2) == "1") return e + 2;
      }
      return npos;
    }
    if ((s == "." || s == "->") && at(i + 1) == "is_cuda" && at(i + 2) == "(" && at(i + 3) == ")" && i + 3 < limit) {
      start = operand_start(i, floor);
      return start < i ? i + 3 : npos;
    }
    if (s == "==" && i + 1 < limit) {
      const std::string_view ns = at(i + 1);
      if ((ns == "torch" || ns == "at" || ns == "c10") && at(i + 2) == "::") {
        size_t e = npos;
        if (at(i + 3) == "kCUDA") e = i + 3;
        else if (at(i + 3) == "DeviceType" && at(i + 4) == "::" && at(i + 5) == "CUDA") e = i + 5;
        else if (at(i + 3) == "DeviceType" && at(i + 4) == "::" && at(i + 5) == "kCUDA") e = i + 5;
        if (e != npos && e < limit) {
          start = operand_start(i, floor);
          return start < i ? e : npos;
        }
      }
    }
    return npos;
  }

  // Whether token `start` sits inside the parentheses of a call that begins at or after `a`.
  bool inside_call(size_t a, size_t start) const {
    std::vector<size_t> open;
    for (size_t i = a; i < start; ++i) {
      if (is_open(at(i))) open.push_back(i);
      else if (is_close(at(i)) && !open.empty()) open.pop_back();
    }
    for (const size_t o : open) {
      if (at(o) != "(") return true;
      if (o > a && (t_[o - 1].is_identifier || at(o - 1) == ">" || at(o - 1) == ")" || at(o - 1) == "]")) return true;
    }
    return false;
  }

  // Whether [a, b) is a condition that holds only with CUDA (positive), holds only without it
  // (a lone negated check), or neither; the checks' spans go to `checks`.
  Sense condition(size_t a, size_t b, std::vector<CppGuards::Span>& checks) const {
    int positive = 0, negated = 0;
    bool conjunction = false;
    for (size_t i = a; i < b; ++i) {
      const std::string_view s = at(i);
      if (s == "||" || s == "or" || s == "?") return Sense::none;
      if (s == "&&" || s == "and") conjunction = true;
      size_t start = 0;
      const size_t e = check_at(i, a, b, start);
      if (e == npos) continue;
      // `if (validate(x.is_cuda()))`: the check is an argument, not the condition.
      if (inside_call(a, start)) return Sense::none;
      bool neg = start > a && at(start - 1) == "!";
      // `!(x.is_cuda())`
      if (!neg && start > a + 1 && at(start - 1) == "(" && match_[start - 1] == e + 1 && at(start - 2) == "!") neg = true;
      // `x.is_cuda() == false`
      if (e + 2 < b && (at(e + 1) == "==" || at(e + 1) == "!=")) {
        const bool is_false = at(e + 2) == "false" || at(e + 2) == "0";
        const bool is_true = at(e + 2) == "true";
        if (!is_false && !is_true) return Sense::none;
        if ((at(e + 1) == "==") == is_false) neg = !neg;
      }
      (neg ? negated : positive) += 1;
      checks.emplace_back(begin_of(start), end_of(e));
      i = e;
    }
    if (positive > 0 && negated == 0) return Sense::positive;
    if (negated == 1 && positive == 0 && !conjunction) return Sense::negated;
    return Sense::none;
  }

  void guard(size_t first, size_t last) {
    if (first <= last && last < t_.size()) out_.guarded.emplace_back(begin_of(first), end_of(last));
  }

  // The last statement directly in the block or statement [first, last] returns, continues or
  // breaks (a `throw` or a failed check is no fallback: the code then needs CUDA).
  bool exits(size_t first, size_t last) const {
    size_t i = first, begin = first, end = last;
    if (at(first) == "{") {
      begin = first + 1;
      end = last;  // the closing brace
    } else {
      return at(first) == "return" || at(first) == "continue" || at(first) == "break";
    }
    size_t last_start = npos;
    for (i = begin; i < end;) {
      if (directive_[i]) {
        ++i;
        continue;
      }
      last_start = i;
      const size_t e = statement_end(i);
      if (e < i) break;
      i = e + 1;
    }
    return last_start != npos &&
           (at(last_start) == "return" || at(last_start) == "continue" || at(last_start) == "break");
  }

  void if_statement(size_t i) {
    const size_t open = i + 1, close = match_[open];
    std::vector<CppGuards::Span> checks;
    const Sense sense = condition(open + 1, close, checks);
    if (sense == Sense::none || close + 1 >= t_.size()) return;
    out_.checks.insert(out_.checks.end(), checks.begin(), checks.end());
    const size_t then_first = close + 1, then_last = statement_end(then_first);
    const bool has_else = at(then_last + 1) == "else";
    if (sense == Sense::positive) {
      guard(then_first, then_last);
      return;
    }
    if (has_else) guard(then_last + 2, statement_end(then_last + 2));
    else if (exits(then_first, then_last) && block_[i] != npos && match_[block_[i]] != npos)
      guard(then_last + 1, match_[block_[i]]);  // `if (!x.is_cuda()) return cpu(x);` and the rest
  }

  // `cond ? a : b`: the condition runs back to an assignment, a separator, `return` or an
  // unmatched opener.
  void conditional(size_t q) {
    const size_t floor = block_[q] == npos ? 0 : block_[q] + 1;
    size_t a = q;
    while (a > floor) {
      const size_t k = a - 1;
      const std::string_view s = at(k);
      if ((s == ")" || s == "]" || s == "}") && match_[k] != npos && match_[k] >= floor) {
        a = match_[k];
        continue;
      }
      if (is_open(s) || is_close(s) || s == ";" || s == "," || s == "=" || s == "return" || s == ":" || s == "?" ||
          s == "<<" || (s.size() == 2 && s[1] == '=' && s != "==" && s != "!=" && s != "<=" && s != ">=") ||
          directive_[k])
        break;
      a = k;
    }
    if (a == q) return;
    std::vector<CppGuards::Span> checks;
    const Sense sense = condition(a, q, checks);
    if (sense == Sense::none) return;
    // The branches: `?` to its `:`, and `:` to the end of the expression.
    size_t colon = npos, end = npos;
    int nested = 0;
    for (size_t j = q + 1; j < t_.size(); ++j) {
      const std::string_view s = at(j);
      if (is_open(s) && match_[j] != npos) {
        j = match_[j];
        continue;
      }
      if (s == "?") ++nested;
      else if (s == ":" && colon == npos) {
        if (nested == 0) colon = j;
        else --nested;
      } else if (is_close(s) || s == ";" || (s == "," && colon != npos)) {
        end = j;
        break;
      }
    }
    if (colon == npos || end == npos || colon == q + 1 || end == colon + 1) return;
    out_.checks.insert(out_.checks.end(), checks.begin(), checks.end());
    if (sense == Sense::positive) guard(q + 1, colon - 1);
    else guard(colon + 1, end - 1);
  }

  const std::vector<CppToken>& t_;
  std::string_view text_;
  std::vector<bool> directive_;
  std::vector<size_t> match_;
  std::vector<size_t> block_;
  CppGuards out_;
};

bool covers(const std::vector<CppGuards::Span>& spans, uint32_t start, uint32_t end) {
  return std::any_of(spans.begin(), spans.end(), [&](const CppGuards::Span& s) { return s.first <= start && end <= s.second; });
}

}  // namespace

bool CppGuards::protects(uint32_t offset) const { return covers(guarded, offset, offset); }

bool CppGuards::is_check(uint32_t start, uint32_t end) const { return covers(checks, start, std::max(start, end)); }

CppGuards find_cuda_guards(const std::vector<CppToken>& tokens, std::string_view text) {
  return GuardFinder(tokens, text).run();
}

}  // namespace mpsready
