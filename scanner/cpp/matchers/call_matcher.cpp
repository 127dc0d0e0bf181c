// cpp.call: calls of functions whose name matches, from the AST where the callee is declared
// (the built-in CUDA header declares the runtime API) and from the tokens (`name (`) where it is
// not (cuBLAS, NCCL, … without their headers). A table's records give per-library messages.
#include <re2/re2.h>

#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

using Pattern = RegexPattern;

class CallMatcher final : public CppMatcher {
 public:
  CallMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "cpp.call");
    reader.allow_only({"names", "table", "field"});
    patterns_ = load_regex_patterns(reader, rules, "names", "calls");
  }

  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    std::vector<uint32_t> seen;
    for (const ClangSite& c : file.clang.calls) {
      // Qualified names match on their last part too (`::cudaMalloc`, `at::cuda::foo`).
      const std::string last = c.name.substr(c.name.rfind(':') == std::string::npos ? 0 : c.name.rfind(':') + 1);
      const Pattern* p = find(c.name, last);
      if (!p) continue;
      CppRawMatch m = match_at(file, c);
      m.record = p->record;
      seen.push_back(m.start);
      out.push_back(std::move(m));
    }
    for (size_t i = 0; i + 1 < file.tokens.size(); ++i) {
      const CppToken& t = file.tokens[i];
      if (!t.is_identifier || file.tokens[i + 1].spelling != "(") continue;
      if (std::find(seen.begin(), seen.end(), t.offset) != seen.end()) continue;
      // A declaration or definition (`cudaError_t cudaMalloc(`) is not a call.
      if (i > 0 && file.tokens[i - 1].is_identifier && file.tokens[i - 1].spelling != "return") continue;
      const Pattern* p = find(std::string(t.spelling), t.spelling);
      if (!p) continue;
      CppRawMatch m;
      m.start = t.offset;
      m.end = t.offset + static_cast<uint32_t>(t.spelling.size());
      m.vars["name"] = m.vars["callee"] = std::string(t.spelling);
      m.record = p->record;
      out.push_back(std::move(m));
    }
  }

 private:
  const Pattern* find(const std::string& qualified, std::string_view last) const {
    for (const auto& p : patterns_)
      if (p.regex->full_match(qualified) || p.regex->full_match(last)) return &p;
    return nullptr;
  }
  std::vector<Pattern> patterns_;
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_call_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
  return std::make_unique<CallMatcher>(params, rule, rules);
}

}  // namespace mpsready
