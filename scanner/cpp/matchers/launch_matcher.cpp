// cpp.launch: `kernel<<<grid, block>>>(...)` launches. From the AST, at the expansion site
// (launches written inside macros and AT_DISPATCH_* lambdas included), plus the `<<<` token
// itself where the AST lost the statement to a parse error.
#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"

namespace mpsready {
namespace {

class LaunchMatcher final : public CppMatcher {
 public:
  LaunchMatcher(const nlohmann::json& params, const Rule& rule) {
    const ParamReader reader(params, rule, "cpp.launch");
    reader.allow_only({});
  }
  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    std::vector<int> ast_lines;
    for (const ClangSite& l : file.clang.launches) {
      out.push_back(match_at(file, l));
      ast_lines.push_back(l.line);
    }
    for (size_t i = 0; i < file.tokens.size(); ++i) {
      if (file.tokens[i].spelling != "<<<") continue;
      const int line = file.text->position(file.tokens[i].offset).line;
      if (std::find(ast_lines.begin(), ast_lines.end(), line) != ast_lines.end()) continue;
      // The kernel's name: the identifier before `<<<`, skipping template arguments.
      size_t k = i;
      int depth = 0;
      while (k > 0) {
        --k;
        const auto s = file.tokens[k].spelling;
        if (s == ">") ++depth;
        else if (s == "<") --depth;
        else if (depth == 0 && file.tokens[k].is_identifier) break;
      }
      CppRawMatch m;
      m.start = file.tokens[k].offset;
      m.end = file.tokens[i].offset + 3;
      m.vars["name"] = m.vars["callee"] = std::string(file.tokens[k].spelling);
      out.push_back(std::move(m));
    }
  }
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_launch_matcher(const nlohmann::json& params, const Rule& rule) {
  return std::make_unique<LaunchMatcher>(params, rule);
}

}  // namespace mpsready
