// cpp.include: #include directives whose header (as written) matches, from the preprocessor.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

class IncludeMatcher final : public CppMatcher {
 public:
  IncludeMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "cpp.include");
    reader.allow_only({"headers", "table", "field"});
    patterns_ = load_regex_patterns(reader, rules, "headers", "headers");
  }
  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    for (const ClangSite& inc : file.clang.includes) {
      for (const auto& p : patterns_) {
        if (!p.regex->full_match(inc.name)) continue;
        CppRawMatch m = match_at(file, inc);
        m.vars["header"] = inc.name;
        m.record = p.record;
        out.push_back(std::move(m));
        break;
      }
    }
  }

 private:
  std::vector<RegexPattern> patterns_;
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_include_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
  return std::make_unique<IncludeMatcher>(params, rule, rules);
}

}  // namespace mpsready
