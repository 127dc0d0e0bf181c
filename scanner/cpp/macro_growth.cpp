#include "macro_growth.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace mpsready {
namespace {

constexpr uint64_t kSaturated = kMaxEstimatedExpansion * 4;

uint64_t add(uint64_t a, uint64_t b) { return std::min(kSaturated, a + b); }
uint64_t mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kSaturated / b ? kSaturated : std::min(kSaturated, a * b);
}

struct Macro {
  bool function_like = false;
  std::vector<std::string_view> params;
  std::vector<std::string_view> body;
  // Computed: tokens of one expansion (arguments not counted), and for function-like macros the
  // largest number of copies one argument gets.
  uint64_t size = 1;
  uint64_t factor = 1;
  int state = 0;  // 0 not computed, 1 in progress, 2 done
};

using MacroTable = std::unordered_map<std::string_view, Macro>;

// The end of the preprocessor line that starts at `offset`: backslash-newlines continue it.
size_t directive_end(std::string_view text, size_t offset) {
  for (size_t i = offset; i < text.size(); ++i) {
    if (text[i] != '\n') continue;
    size_t j = i;
    if (j > 0 && text[j - 1] == '\r') --j;
    if (j == 0 || text[j - 1] != '\\') return i;
  }
  return text.size();
}

struct Cost {
  uint64_t tokens = 0;
  std::vector<uint64_t> param_copies;  // by parameter index
};

// The weight of a token sequence: each token counts once per copy that the function-like
// macros enclosing it make, and an object-like macro counts as its expansion.
Cost cost_of(const std::vector<std::string_view>& seq, const MacroTable& macros, std::string_view self,
             const std::vector<std::string_view>& params) {
  Cost cost;
  cost.param_copies.assign(params.size(), 0);
  struct Open {
    uint64_t product;  // copies of what is inside this invocation's parentheses
    int depth;         // unmatched '(' inside it
  };
  std::vector<Open> open;
  uint64_t product = 1;
  for (size_t i = 0; i < seq.size(); ++i) {
    const std::string_view tok = seq[i];
    if (tok == "(") {
      if (!open.empty()) ++open.back().depth;
      continue;
    }
    if (tok == ")") {
      if (!open.empty() && --open.back().depth == 0) {
        open.pop_back();
        product = open.empty() ? 1 : open.back().product;
      }
      continue;
    }
    const auto param = std::find(params.begin(), params.end(), tok);
    if (param != params.end()) {
      auto& copies = cost.param_copies[static_cast<size_t>(param - params.begin())];
      copies = add(copies, product);
      continue;
    }
    const auto it = tok == self ? macros.end() : macros.find(tok);
    if (it == macros.end()) {
      cost.tokens = add(cost.tokens, product);
      continue;
    }
    const Macro& m = it->second;
    cost.tokens = add(cost.tokens, mul(product, m.size));
    if (m.function_like && i + 1 < seq.size() && seq[i + 1] == "(") {
      product = mul(product, m.factor);
      open.push_back({product, 1});
      ++i;  // its '('
    }
  }
  return cost;
}

void compute(Macro& m, std::string_view name, const MacroTable& macros) {
  const Cost c = cost_of(m.body, macros, name, m.params);
  m.size = std::max<uint64_t>(1, c.tokens);
  m.factor = 1;
  for (const uint64_t copies : c.param_copies) m.factor = std::max(m.factor, copies);
}

}  // namespace

uint64_t estimated_expansion(const std::vector<CppToken>& tokens, std::string_view text) {
  MacroTable macros;
  std::vector<std::string_view> code;  // the tokens outside directives
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].starts_directive) {
      code.push_back(tokens[i].spelling);
      continue;
    }
    const size_t end = directive_end(text, tokens[i].offset);
    size_t j = i + 1;
    const auto in_directive = [&](size_t k) { return k < tokens.size() && tokens[k].offset < end; };
    if (in_directive(j + 1) && tokens[j].spelling == "define" && tokens[j + 1].is_identifier) {
      const CppToken& name = tokens[j + 1];
      Macro m;
      j += 2;
      // Function-like only when '(' touches the name.
      if (in_directive(j) && tokens[j].spelling == "(" && tokens[j].offset == name.offset + name.spelling.size()) {
        m.function_like = true;
        for (++j; in_directive(j) && tokens[j].spelling != ")"; ++j) {
          if (tokens[j].is_identifier) m.params.push_back(tokens[j].spelling);
          else if (tokens[j].spelling == "...") m.params.push_back("__VA_ARGS__");
        }
        ++j;
      }
      for (; in_directive(j); ++j) m.body.push_back(tokens[j].spelling);
      macros[name.spelling] = std::move(m);
    }
    while (in_directive(j)) ++j;
    i = j - 1;
  }

  if (macros.empty()) return code.size();
  // Each macro after the macros its body names, with an explicit stack; a cycle (which the
  // preprocessor does not expand) counts as one token.
  for (auto& [name, root] : macros) {
    if (root.state == 2) continue;
    std::vector<std::string_view> stack{name};
    while (!stack.empty()) {
      Macro& m = macros.at(stack.back());
      if (m.state == 0) {
        m.state = 1;
        for (const std::string_view tok : m.body) {
          const auto dep = macros.find(tok);
          if (dep != macros.end() && dep->second.state == 0) stack.push_back(dep->first);
        }
        continue;
      }
      if (m.state == 1) {
        compute(m, stack.back(), macros);
        m.state = 2;
      }
      stack.pop_back();
    }
  }
  return cost_of(code, macros, {}, {}).tokens;
}

}  // namespace mpsready
