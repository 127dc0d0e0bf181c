// cpp.kernel: __global__ (and optionally __device__) function definitions, templated ones
// included, from the AST.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

#include <map>
#include <string_view>

namespace mpsready {
namespace {

// The names the file's object-like macros define as a kernel qualifier (`#define KERNEL
// __global__`, `#define DEVICE_FN static __device__`): the compiler reads the qualifier there.
std::map<std::string_view, std::string_view> qualifier_macros(const CppFile& file) {
  std::map<std::string_view, std::string_view> out;
  const auto& t = file.tokens;
  const std::string_view text = file.text->text();
  for (size_t i = 0; i + 3 < t.size(); ++i) {
    if (!t[i].starts_directive || t[i + 1].spelling != "define" || !t[i + 2].is_identifier) continue;
    const size_t name_end = t[i + 2].offset + t[i + 2].spelling.size();
    if (name_end < text.size() && text[name_end] == '(') continue;  // function-like: Clang's to expand
    const int line = file.text->position(t[i + 2].offset).line;
    for (size_t j = i + 3; j < t.size() && !t[j].starts_directive && file.text->position(t[j].offset).line == line; ++j)
      if (t[j].spelling == "__global__" || t[j].spelling == "__device__") out[t[i + 2].spelling] = t[j].spelling;
  }
  return out;
}

// The qualifier the tokens at `i` spell, with `after` set past them: `__global__`, a macro of
// `aliases`, or `__attribute__((global))` / `__attribute__((__device__))`; "" for anything else.
std::string_view qualifier_at(const std::vector<CppToken>& t, size_t i,
                              const std::map<std::string_view, std::string_view>& aliases, size_t& after) {
  after = i + 1;
  const std::string_view s = t[i].spelling;
  if (s == "__global__" || s == "__device__") return s;
  if (const auto it = aliases.find(s); it != aliases.end()) return it->second;
  if (s != "__attribute__" || i + 5 >= t.size() || t[i + 1].spelling != "(" || t[i + 2].spelling != "(") return {};
  const std::string_view a = t[i + 3].spelling;
  if (t[i + 4].spelling != ")" || t[i + 5].spelling != ")") return {};
  after = i + 6;
  if (a == "global" || a == "__global__") return "__global__";
  if (a == "device" || a == "__device__") return "__device__";
  return {};
}

class KernelMatcher final : public CppMatcher {
 public:
  KernelMatcher(const nlohmann::json& params, const Rule& rule) {
    const ParamReader reader(params, rule, "cpp.kernel");
    reader.allow_only({"kinds"});
    kinds_ = reader.strings("kinds");
    if (kinds_.empty()) kinds_ = {"global"};
    for (const auto& k : kinds_)
      if (k != "global" && k != "device") reader.fail("\"kinds\" may hold global and device");
  }
  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    std::vector<int> ast_lines;
    for (const ClangSite& k : file.clang.kernels) {
      if (std::find(kinds_.begin(), kinds_.end(), k.detail) == kinds_.end()) continue;
      CppRawMatch m = match_at(file, k);
      m.vars["kind"] = k.detail == "global" ? "__global__" : "__device__";
      m.vars["templated"] = k.templated ? "templated " : "";
      out.push_back(std::move(m));
      ast_lines.push_back(k.line);
    }
    // A parse error can swallow the declarations after it; the `__global__` token survives.
    // Only definitions count: the name's `(` must be followed, after `)`, by `{`.
    const bool want_device = std::find(kinds_.begin(), kinds_.end(), "device") != kinds_.end();
    const std::map<std::string_view, std::string_view> aliases = qualifier_macros(file);
    for (size_t i = 0; i < file.tokens.size(); ++i) {
      size_t after = i + 1;
      const std::string_view s = qualifier_at(file.tokens, i, aliases, after);
      if (s != "__global__" && !(want_device && s == "__device__")) continue;
      if (s == "__device__" && ((i > 0 && file.tokens[i - 1].spelling == "__host__") ||
                                (after < file.tokens.size() && file.tokens[after].spelling == "__host__")))
        continue;
      size_t name = after;
      while (name + 1 < file.tokens.size() && file.tokens[name + 1].spelling != "(" &&
             file.tokens[name].spelling != ";" && file.tokens[name].spelling != "{")
        ++name;
      if (name + 1 >= file.tokens.size() || file.tokens[name + 1].spelling != "(" || !file.tokens[name].is_identifier)
        continue;
      size_t close = name + 1;
      int depth = 0;
      for (; close < file.tokens.size(); ++close) {
        const auto t = file.tokens[close].spelling;
        if (t == "(") ++depth;
        else if (t == ")" && --depth == 0) break;
      }
      size_t body = close + 1;
      while (body < file.tokens.size() && file.tokens[body].spelling != "{" && file.tokens[body].spelling != ";") ++body;
      if (body >= file.tokens.size() || file.tokens[body].spelling != "{") continue;
      const int line = file.text->position(file.tokens[name].offset).line;
      if (std::find(ast_lines.begin(), ast_lines.end(), line) != ast_lines.end()) continue;
      CppRawMatch m;
      m.start = file.tokens[name].offset;
      m.end = m.start + static_cast<uint32_t>(file.tokens[name].spelling.size());
      m.vars["name"] = m.vars["callee"] = std::string(file.tokens[name].spelling);
      m.vars["kind"] = std::string(s);  // as the compiler reads it
      m.vars["templated"] = "";
      out.push_back(std::move(m));
    }
  }

 private:
  std::vector<std::string> kinds_;
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_kernel_matcher(const nlohmann::json& params, const Rule& rule) {
  return std::make_unique<KernelMatcher>(params, rule);
}

}  // namespace mpsready
