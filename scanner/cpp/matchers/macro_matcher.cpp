// cpp.macro: uses of macros the file defines whose body mentions given identifiers: the
// `#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), …)` idiom, flagged where it is used.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

class MacroMatcher final : public CppMatcher {
 public:
  MacroMatcher(const nlohmann::json& params, const Rule& rule) {
    const ParamReader reader(params, rule, "cpp.macro");
    reader.allow_only({"body_mentions"});
    mentions_ = reader.strings("body_mentions");
    if (mentions_.empty()) reader.fail("needs \"body_mentions\"");
  }
  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    for (const ClangSite& use : file.clang.macro_uses) {
      for (const auto& word : mentions_) {
        if (use.detail.find(word + " ") == std::string::npos) continue;
        CppRawMatch m = match_at(file, use);
        m.vars["macro"] = use.name;
        out.push_back(std::move(m));
        break;
      }
    }
  }

 private:
  std::vector<std::string> mentions_;
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_macro_matcher(const nlohmann::json& params, const Rule& rule) {
  return std::make_unique<MacroMatcher>(params, rule);
}

}  // namespace mpsready
