// cpp.kernel: __global__ (and optionally __device__) function definitions, templated ones
// included, from the AST.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

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
    for (size_t i = 0; i < file.tokens.size(); ++i) {
      const auto s = file.tokens[i].spelling;
      if (s != "__global__" && !(want_device && s == "__device__")) continue;
      if (s == "__device__" && ((i > 0 && file.tokens[i - 1].spelling == "__host__") ||
                                (i + 1 < file.tokens.size() && file.tokens[i + 1].spelling == "__host__")))
        continue;
      size_t name = i + 1;
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
      m.vars["kind"] = std::string(s);
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
