#include "pipeline/failing_import_pass.h"

#include <deque>
#include <map>
#include <set>
#include <string>

#include "engine/scanner.h"
#include "model/repo_model.h"
#include "rules/message_template.h"

namespace mpsready {
namespace {

// An import that runs whenever its module is imported and whose failure stops it: module level,
// outside any guard, feature branch, `__main__` block or `try` that catches import errors (a
// handler that goes on, whether or not its fallback works: the module imports either way), in a
// Python file (not a notebook).
bool runs_on_import(const ImportFact& i) {
  return i.cell == 0 && !i.guarded && !i.caught && !i.lazy && i.branch.empty() && !i.in_main_block;
}

std::string spelled(const ImportFact& i) { return std::string(static_cast<size_t>(i.level), '.') + i.module; }

std::string at(const std::string& path, int line) { return path + ":" + std::to_string(line); }

}  // namespace

FailingImportPass::FailingImportPass(const RuleSet& rules) {
  for (const Rule& r : rules.rules())
    for (const MatcherSpec& m : r.matchers) {
      if (m.kind != "repository.failing_module_import") continue;
      const auto name = m.params.find("table");
      const Table* table = name != m.params.end() && name->is_string() ? rules.table(name->get<std::string>()) : nullptr;
      if (!table) throw RuleError(r.id + ": repository.failing_module_import needs \"table\", the name of a table");
      rules_.emplace_back(&r, table);
    }
}

void FailingImportPass::run(ScanResult& result) const {
  for (const auto& [rule, table] : rules_) run_rule(*rule, *table, result);
}

void FailingImportPass::run_rule(const Rule& rule, const Table& table, ScanResult& result) const {
  const RepoFacts& facts = result.facts;
  std::map<std::pair<std::string, int>, const ImportFact*> on_import;  // (path, line) -> the import there
  for (const ImportFact& i : facts.imports)
    if (runs_on_import(i)) on_import.emplace(std::make_pair(i.path, i.line), &i);

  // The failing imports: a package whose record says it has no macOS build (impact blocker).
  struct Failing {
    std::string chain;  // "a.py:3 → b.py:1 imports `triton`"
    std::string seed;   // "b.py:1", the import it carries
  };
  std::map<std::string, Failing> failing;  // module path -> why it cannot be imported
  std::set<std::pair<std::string, int>> failing_lines;
  std::deque<std::string> queue;
  // The repository's own modules are no packages to install (`from apex.optimizers import …`
  // inside apex): their imports are followed below, never taken as the cause.
  const RepoModel model = RepoModel::module_index(facts);
  for (const auto& [line, i] : on_import) {
    if (model.is_local_module(i->module)) continue;
    // The record of an absolute import, as the import rules find it (Table::lookup_module).
    const TableRecord* record = i->level > 0 ? nullptr : table.lookup_module(i->module);
    if (!record) continue;
    const auto impact = record->fields.find("impact");
    if (impact == record->fields.end() || impact->second != "blocker") continue;
    failing_lines.insert(line);
    const std::string where = at(i->path, i->line);
    if (failing.emplace(i->path, Failing{where + " imports `" + spelled(*i) + "`", where}).second)
      queue.push_back(i->path);
  }
  if (queue.empty()) return;

  // Who imports each module at module level: the import resolved as Python would.
  std::map<std::string, std::vector<const ImportFact*>> importers;  // module path -> imports of it
  for (const auto& [line, i] : on_import) {
    if (failing_lines.count(line) || !model.module_of(i->path)) continue;
    const auto target = model.resolve_name(i->path, i->module, i->level);
    if (target && target->path != i->path) importers[target->path].push_back(i);
  }

  // Breadth first, so each module's chain is a shortest one. One finding per line, and per
  // importing file and failing module: the names of a `from m import (a,\n b)` spread over
  // several lines are one import of `m`.
  std::set<std::pair<std::string, int>> reported;
  std::set<std::pair<std::string, std::string>> reported_modules;  // (importing file, failing module)
  while (!queue.empty()) {
    const std::string path = queue.front();
    queue.pop_front();
    const auto by = importers.find(path);
    if (by == importers.end()) continue;
    const Failing why = failing.at(path);
    for (const ImportFact* i : by->second) {
      if (reported.count({i->path, i->line}) || !reported_modules.emplace(i->path, path).second) continue;
      reported.emplace(i->path, i->line);
      Finding f;
      f.rule = rule.id;
      f.category = rule.category;
      f.mechanical = rule.mechanical;
      f.path = i->path;
      f.location = {i->line, 1, i->line, 1, 0};
      f.message = fill_template(rule.message, {{"name", spelled(*i)}, {"module", path}, {"chain", why.chain}});
      f.fix = fill_template(rule.fix, {{"name", spelled(*i)}, {"module", path}, {"chain", why.chain}});
      f.site.carried_from = why.seed;
      result.findings.push_back(std::move(f));
      if (failing.emplace(i->path, Failing{at(i->path, i->line) + " → " + why.chain, why.seed}).second)
        queue.push_back(i->path);
    }
  }
}

}  // namespace mpsready
