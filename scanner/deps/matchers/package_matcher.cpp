// deps.package: declared packages matched by pip name against a table's `pip` field and/or the
// rule's own `packages`, or by a version pattern. Documented in docs/rule-format.md.
#include <algorithm>
#include <set>

#include <re2/re2.h>

#include "deps/matchers/deps_matcher.h"
#include "deps/requirement_spec.h"

namespace mpsready {
namespace {

bool glob_matches(std::string_view glob, std::string_view s) {
  if (glob.empty()) return s.empty();
  if (glob[0] == '*') {
    for (size_t i = 0; i <= s.size(); ++i)
      if (glob_matches(glob.substr(1), s.substr(i))) return true;
    return false;
  }
  return !s.empty() && glob[0] == s[0] && glob_matches(glob.substr(1), s.substr(1));
}

std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != ',') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

class PackageMatcher final : public DepsMatcher {
 public:
  PackageMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const std::string where = rule.dir.string() + "/rule.json: deps.package ";
    for (const auto& [key, value] : params.items())
      if (key != "table" && key != "packages" && key != "version" && key != "ecosystem" && key != "files" &&
          key != "impact" && key != "message" && key != "fix" && key != "mechanical")
        throw RuleError(where + "unknown param \"" + key + "\"");
    read_overrides(params, rule, "deps.package", overrides_);
    files_ = parse_file_kinds(params, rule, "deps.package");
    if (params.contains("table")) {
      const Table* table = params["table"].is_string() ? rules.table(params["table"].get<std::string>()) : nullptr;
      if (!table) throw RuleError(where + "no table \"" + params["table"].dump() + "\" in rules/tables/");
      for (const auto& rec : table->records) {
        const auto it = rec.fields.find("pip");
        if (it == rec.fields.end())
          throw RuleError(where + "table record \"" + rec.name + "\" has no \"pip\" field (its pip names)");
        for (const auto& pip : split_names(it->second)) entries_.push_back({normalize_package_name(pip), &rec, rec.name});
      }
    }
    if (params.contains("packages")) {
      if (!params["packages"].is_array()) throw RuleError(where + "\"packages\" must be an array");
      own_.reserve(params["packages"].size());
      for (const auto& p : params["packages"]) {
        if (!p.is_object() || !p.contains("pip") || !p["pip"].is_string())
          throw RuleError(where + "each of \"packages\" needs a \"pip\" name");
        TableRecord rec;
        rec.name = p["pip"].get<std::string>();
        for (const auto& [k, v] : p.items())
          if (v.is_string()) rec.fields[k] = v.get<std::string>();
        own_.push_back(std::move(rec));
      }
      for (const auto& rec : own_) {
        const auto imp = rec.fields.find("import");
        for (const auto& pip : split_names(rec.name))
          entries_.push_back({normalize_package_name(pip), &rec, imp == rec.fields.end() ? "" : imp->second});
      }
    }
    if (params.contains("version")) {
      if (!params["version"].is_string()) throw RuleError(where + "\"version\" must be a regex string");
      version_ = std::make_unique<RE2>(params["version"].get<std::string>(), RE2::Quiet);
      if (!version_->ok()) throw RuleError(where + "bad \"version\" regex: " + version_->error());
    }
    ecosystem_ = params.value("ecosystem", std::string("any"));
    if (ecosystem_ != "any" && ecosystem_ != "pip" && ecosystem_ != "conda")
      throw RuleError(where + "\"ecosystem\" must be pip, conda or any");
    if (entries_.empty() && !version_) throw RuleError(where + "needs \"table\", \"packages\" or \"version\"");
  }

  void match(const DepsFile& file, std::vector<DepsMatch>& out) const override {
    if (!files_.empty() && std::find(files_.begin(), files_.end(), file.kind) == files_.end()) return;
    for (const auto& dep : file.records) {
      if ((ecosystem_ == "pip" && dep.conda) || (ecosystem_ == "conda" && !dep.conda)) continue;
      const Entry* hit = nullptr;
      for (const auto& e : entries_)
        if (glob_matches(e.pip, dep.normalized)) {
          hit = &e;
          break;
        }
      std::string version_hit;
      if (!entries_.empty() && !hit) continue;
      if (version_ && !RE2::PartialMatch(dep.version, *version_)) continue;
      DepsMatch m = overrides_;
      m.start = dep.start;
      m.end = dep.end;
      m.dependency = &dep;
      if (hit) {
        m.record = hit->record;
        std::set<std::string> modules;
        for (const auto& e : entries_)
          if (e.record == hit->record || (e.pip == hit->pip && !e.module.empty()))
            if (!e.module.empty()) modules.insert(e.module);
        // Records that share a pip name (cupy and cupyx) all count as its modules.
        for (const auto& e : entries_)
          if (glob_matches(e.pip, dep.normalized) && !e.module.empty()) modules.insert(e.module);
        m.modules.assign(modules.begin(), modules.end());
      }
      m.vars["name"] = dep.name;
      m.vars["pip"] = dep.name;
      m.vars["requirement"] = dep.text;
      m.vars["version"] = dep.version;
      m.vars["text"] = dep.text;
      if (RequirementSpec::marker_excludes_macos(dep.marker)) {
        m.limit = DepsLimit::marker;
        m.vars["limit"] = dep.marker;
      } else if (dep.optional) {
        m.limit = DepsLimit::optional;
        m.vars["limit"] = dep.group;
      }
      out.push_back(std::move(m));
    }
  }

 private:
  struct Entry {
    std::string pip;  // normalised, may hold `*`
    const TableRecord* record;
    std::string module;  // import name, for linking to the code
  };
  std::vector<Entry> entries_;
  std::vector<TableRecord> own_;
  std::unique_ptr<RE2> version_;
  std::string ecosystem_;
  std::vector<DepsFileKind> files_;
  DepsMatch overrides_;
};

}  // namespace

std::unique_ptr<DepsMatcher> make_package_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
  return std::make_unique<PackageMatcher>(params, rule, rules);
}

}  // namespace mpsready
