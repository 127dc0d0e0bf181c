#include "model/core_imports.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "model/call_graph.h"
#include "model/mac_path.h"
#include "model/repo_model.h"

namespace mpsready {
namespace {

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

bool is_init(const std::string& path) {
  return path == "__init__.py" || (path.size() > 12 && path.compare(path.size() - 12, 12, "/__init__.py") == 0);
}

// One import that may carry a module into the core: `from` imports `to` at `line`.
struct Edge {
  int line = 0;
  std::string to;
  bool operator<(const Edge& o) const { return std::tie(line, to) < std::tie(o.line, o.to); }
};

// Whether Python, running the core, would find `target` under the name the import spells. The
// model resolves a bare `import utils` to the nearest file of that stem anywhere (right for a
// folder of scripts that imports its siblings), but from another folder that name is some other
// module: no folder of scripts is on the core's path.
bool named_by_location(const ImportFact& i, const RepoModel& model, const RepoModel::NameTarget& target) {
  if (i.level > 0) return true;
  const ModuleNode* node = model.module_of(target.path);
  if (!node) return false;
  if (node->name.find('.') != std::string::npos || is_init(target.path)) return true;  // a package's member
  const size_t matched = i.module.size() - (target.rest.empty() ? 0 : target.rest.size() + 1);
  if (i.module.compare(0, matched, node->name) != 0 || matched != node->name.size()) return true;  // a longer spelling
  return folder_of(target.path) == folder_of(i.path) || folder_of(target.path).empty();
}

// Whether an import runs at all when the module holding it is loaded with options at their
// defaults (the Mac path of the code around it is checked separately).
bool unconditional(const ImportFact& i, const RepoModel& model) {
  if (i.cell || i.guarded || !i.branch.empty()) return false;
  if (!i.in_main_block) return true;
  // The `__main__` block of a library module is its demo, which importing the module never runs.
  const ModuleNode* node = model.module_of(i.path);
  return model.role_of(i.path) == Role::entry_point || (node && node->name.find('.') == std::string::npos);
}

}  // namespace

std::map<std::string, std::string> modules_imported_by_core(const RepoFacts& facts, const RepoModel& model,
                                                            std::shared_ptr<CallGraph>* graph_out) {
  const auto core = [&](const std::string& path) { return !is_peripheral(model.role_of(path)); };
  // The imports that may carry a module outside the core's folders in, by importing file.
  std::map<std::string, std::vector<std::pair<const ImportFact*, std::string>>> candidates;
  bool from_core = false;
  for (const ImportFact& i : facts.imports) {
    if (!model.module_of(i.path) || !unconditional(i, model)) continue;
    const auto target = model.resolve_name(i.path, i.module, i.level);
    if (!target || core(target->path) || !named_by_location(i, model, *target)) continue;
    candidates[i.path].emplace_back(&i, target->path);
    from_core = from_core || core(i.path);
  }
  if (!from_core) return {};
  // Where an import inside a function runs: the Mac path of the repository as its folders give
  // it. A module carried in is reached there already, since the call graph follows every import.
  const auto built = std::make_shared<CallGraph>(facts, model);
  if (graph_out) *graph_out = built;
  const CallGraph& graph = *built;
  const MacPath mac(facts, model, graph);
  const auto on_default_path = [&](const ImportFact& i) {
    const std::optional<MacReach> reach = mac.at(i.path, i.line);
    if (!reach) return !i.lazy;
    return reach->status == MacStatus::on_default;
  };
  std::map<std::string, std::vector<Edge>> edges;
  for (const auto& [from, list] : candidates) {
    std::vector<Edge>& out = edges[from];
    for (const auto& [i, to] : list)
      if (on_default_path(*i)) out.push_back({i->line, to});
    std::sort(out.begin(), out.end());
  }
  // Breadth first from every core file at once (shortest chains), with an explicit queue: an
  // import graph is input, and as deep as a repository makes it.
  std::map<std::string, std::string> chain;  // module carried in -> "a.py:3 → b.py:1"
  std::deque<std::string> queue;
  for (const auto& entry : edges)
    if (core(entry.first)) queue.push_back(entry.first);
  while (!queue.empty()) {
    const std::string at = queue.front();
    queue.pop_front();
    const auto out = edges.find(at);
    if (out == edges.end()) continue;
    const auto via = chain.find(at);
    const std::string before = via == chain.end() ? "" : via->second + " → ";
    for (const Edge& e : out->second) {
      if (chain.count(e.to)) continue;
      chain.emplace(e.to, before + at + ":" + std::to_string(e.line));
      queue.push_back(e.to);
    }
  }
  std::map<std::string, std::string> reasons;
  for (const auto& [path, steps] : chain)
    reasons.emplace(path, std::string("imported by the core ") +
                              (steps.find(" → ") == std::string::npos ? "from " : "through ") + steps);
  return reasons;
}

}  // namespace mpsready
