// deps.directive: an RE2 pattern over the directives of some kinds of file (Dockerfile
// instructions, CMake commands, #SBATCH options, shell commands, index options, compose and
// conda entries). Documented in docs/rule-format.md.
#include <algorithm>

#include <re2/re2.h>

#include "core/source_text.h"
#include "deps/matchers/deps_matcher.h"

namespace mpsready {
namespace {

class DirectiveMatcher final : public DepsMatcher {
 public:
  DirectiveMatcher(const nlohmann::json& params, const Rule& rule) {
    const std::string where = rule.dir.string() + "/rule.json: deps.directive ";
    for (const auto& [key, value] : params.items())
      if (key != "files" && key != "directives" && key != "pattern" && key != "exclude" && key != "impact" &&
          key != "message" && key != "fix" && key != "mechanical")
        throw RuleError(where + "unknown param \"" + key + "\"");
    read_overrides(params, rule, "deps.directive", overrides_);
    files_ = parse_file_kinds(params, rule, "deps.directive");
    if (files_.empty()) throw RuleError(where + "needs \"files\"");
    if (params.contains("directives")) {
      if (!params["directives"].is_array()) throw RuleError(where + "\"directives\" must be an array of strings");
      for (const auto& d : params["directives"]) {
        if (!d.is_string()) throw RuleError(where + "\"directives\" must be an array of strings");
        directives_.push_back(d.get<std::string>());
      }
    }
    if (!params.contains("pattern") || !params["pattern"].is_string()) throw RuleError(where + "needs a \"pattern\"");
    pattern_ = std::make_unique<RE2>(params["pattern"].get<std::string>(), RE2::Quiet);
    if (!pattern_->ok()) throw RuleError(where + "bad \"pattern\": " + pattern_->error());
    if (pattern_->NumberOfCapturingGroups() > 1)
      throw RuleError(where + "\"pattern\" may have at most one capturing group (the reported span)");
    if (params.contains("exclude")) {
      if (!params["exclude"].is_string()) throw RuleError(where + "\"exclude\" must be a regex string");
      exclude_ = std::make_unique<RE2>(params["exclude"].get<std::string>(), RE2::Quiet);
      if (!exclude_->ok()) throw RuleError(where + "bad \"exclude\": " + exclude_->error());
    }
  }

  void match(const DepsFile& file, std::vector<DepsMatch>& out) const override {
    if (std::find(files_.begin(), files_.end(), file.kind) == files_.end()) return;
    for (const auto& d : file.directives) {
      if (!directives_.empty() && std::find(directives_.begin(), directives_.end(), d.kind) == directives_.end())
        continue;
      if (exclude_ && RE2::PartialMatch(d.text, *exclude_)) continue;
      re2::StringPiece groups[2];
      const int n = 1 + pattern_->NumberOfCapturingGroups();
      if (!pattern_->Match(d.text, 0, d.text.size(), RE2::UNANCHORED, groups, n)) continue;
      const re2::StringPiece whole = groups[0];
      const re2::StringPiece reported = n > 1 && groups[1].data() ? groups[1] : whole;
      const uint32_t from = static_cast<uint32_t>(reported.data() - d.text.data());
      DepsMatch m = overrides_;
      m.start = d.file_offset(from);
      m.end = d.file_offset(from + static_cast<uint32_t>(reported.size()));
      if (m.end < m.start) m.end = m.start;
      m.vars["text"] = shorten_utf8(std::string_view(whole.data(), whole.size()), 120);
      m.vars["name"] = std::string(reported.data(), reported.size());
      m.vars["directive"] = shorten_utf8(d.text, 120);
      out.push_back(std::move(m));
    }
  }

 private:
  std::vector<DepsFileKind> files_;
  std::vector<std::string> directives_;
  std::unique_ptr<RE2> pattern_, exclude_;
  DepsMatch overrides_;
};

}  // namespace

std::unique_ptr<DepsMatcher> make_directive_matcher(const nlohmann::json& params, const Rule& rule) {
  return std::make_unique<DirectiveMatcher>(params, rule);
}

}  // namespace mpsready
