// cpp.include: #include directives whose header (as written) matches, from the preprocessor.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

struct HeaderPattern {
  std::unique_ptr<RE2> regex;
  const TableRecord* record = nullptr;
};

class IncludeMatcher final : public CppMatcher {
 public:
  IncludeMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "cpp.include");
    reader.allow_only({"headers", "table", "field"});
    for (auto& re : compile_regexes(reader.strings("headers"), reader)) patterns_.push_back({std::move(re), nullptr});
    const std::string field = reader.string("field", "headers");
    if (const Table* table = reader.table(rules)) {
      for (const auto& record : table->records) {
        const auto it = record.fields.find(field);
        if (it == record.fields.end()) continue;
        auto res = compile_regexes({it->second}, reader);
        patterns_.push_back({std::move(res[0]), &record});
      }
    }
    if (patterns_.empty()) reader.fail("needs \"headers\" or a \"table\" with \"" + field + "\" fields");
  }
  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    for (const ClangSite& inc : file.clang.includes) {
      for (const auto& p : patterns_) {
        if (!RE2::FullMatch(inc.name, *p.regex)) continue;
        CppRawMatch m = match_at(file, inc);
        m.vars["header"] = inc.name;
        m.record = p.record;
        out.push_back(std::move(m));
        break;
      }
    }
  }

 private:
  std::vector<HeaderPattern> patterns_;
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_include_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
  return std::make_unique<IncludeMatcher>(params, rule, rules);
}

}  // namespace mpsready
