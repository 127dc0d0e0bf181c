// python.import: imports of listed modules (a module pattern also covers everything below it).
// Documented in docs/rule-format.md.
#include <algorithm>

#include "core/dotted_pattern.h"
#include "python/matchers/params.h"
#include "python/matchers/python_matcher.h"
#include "python/python_file.h"

namespace mpsready {
namespace {

class ImportMatcher final : public PythonMatcher {
 public:
  ImportMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
    const ParamReader reader(params, rule, "python.import");
    reader.allow_only({"modules", "table"});
    modules_ = reader.strings("modules");
    table_ = reader.table(rules);
    if (modules_.empty() && !table_) reader.fail("needs \"modules\" or \"table\"");
  }

  void match(const PythonFile& file, std::vector<RawMatch>& out) const override {
    const auto& sites = file.imports().sites();
    for (size_t i = 0; i < sites.size(); ++i) {
      const ImportSite& site = sites[i];
      const auto hit = lookup(site.name);
      if (!hit) continue;
      RawMatch m;
      m.node = site.node;
      m.record = hit->record;
      m.vars["name"] = site.name;
      m.vars["callee"] = site.name;
      m.vars["module"] = hit->module;
      out.push_back(std::move(m));
      // `from flash_attn import a, b` is one finding, on the module.
      if (site.is_from_module) {
        while (i + 1 < sites.size() && ts_node_eq(sites[i + 1].statement, site.statement)) ++i;
      }
    }
  }

 private:
  struct Hit {
    const TableRecord* record;
    std::string module;
  };

  // Tries the name and then each parent module, so the most specific entry wins.
  std::optional<Hit> lookup(const std::string& full) const {
    for (const std::string& name : module_and_parents(full)) {
      if (table_) {
        if (const TableRecord* record = table_->lookup(name)) return Hit{record, name};
      }
      if (std::any_of(modules_.begin(), modules_.end(),
                      [&](const std::string& p) { return dotted_pattern_matches(p, name); }))
        return Hit{nullptr, name};
    }
    return std::nullopt;
  }

  std::vector<std::string> modules_;
  const Table* table_ = nullptr;
};

}  // namespace

std::unique_ptr<PythonMatcher> make_import_matcher(const nlohmann::json& params, const Rule& rule,
                                                   const RuleSet& rules) {
  return std::make_unique<ImportMatcher>(params, rule, rules);
}

}  // namespace mpsready
