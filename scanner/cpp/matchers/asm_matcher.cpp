// cpp.asm: inline assembly (PTX in CUDA code), from the AST and from `asm`/`__asm__` tokens.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

class AsmMatcher final : public CppMatcher {
 public:
  AsmMatcher(const nlohmann::json& params, const Rule& rule) {
    const ParamReader reader(params, rule, "cpp.asm");
    reader.allow_only({});
  }
  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    std::vector<uint32_t> seen;
    for (const ClangSite& a : file.clang.asm_blocks) {
      CppRawMatch m = match_at(file, a);
      seen.push_back(m.start);
      out.push_back(std::move(m));
    }
    for (size_t i = 0; i + 1 < file.tokens.size(); ++i) {
      const auto s = file.tokens[i].spelling;
      if (s != "asm" && s != "__asm__" && s != "__asm") continue;
      const auto next = file.tokens[i + 1].spelling;
      if (next != "(" && next != "volatile" && next != "__volatile__") continue;
      if (std::find(seen.begin(), seen.end(), file.tokens[i].offset) != seen.end()) continue;
      CppRawMatch m;
      m.start = file.tokens[i].offset;
      m.end = m.start + static_cast<uint32_t>(s.size());
      m.vars["name"] = m.vars["callee"] = std::string(s);
      out.push_back(std::move(m));
    }
  }
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_asm_matcher(const nlohmann::json& params, const Rule& rule) {
  return std::make_unique<AsmMatcher>(params, rule);
}

}  // namespace mpsready
