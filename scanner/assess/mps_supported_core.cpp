#include "assess/mps_supported_core.h"

#include <cmath>

namespace mpsready {
namespace {

bool reached_by_core(const RepoModel& model, const std::string& path) {
  if (is_peripheral(model.role_of(path))) return false;
  const ModuleNode* node = model.module_of(path);
  return node && (node->reach == Reach::unconditional || node->reach == Reach::lazy);
}

}  // namespace

std::optional<CornerGaps> corner_gaps(const std::vector<Finding>& placed, const RepoModel& model,
                                      const CallGraph& graph) {
  // The core's own choice of MPS: evidence in a module the core reaches. Stubs that only raise
  // on MPS say the opposite.
  const EvidenceFact* selects = nullptr;
  for (const EvidenceFact& e : model.evidence()) {
    if (e.cell || !reached_by_core(model, e.path)) continue;
    if (e.kind == "mps-stub") return std::nullopt;
    if (e.kind == "selects-mps" && !selects) selects = &e;
  }
  if (!selects) return std::nullopt;

  CornerGaps gaps;
  for (const Finding& f : placed) {
    if (!f.in_core || f.impact == Impact::info) continue;
    if (f.impact == Impact::blocker) return std::nullopt;
    // A program users run is the path itself, never a corner; nor is what is no Python module
    // of the core (a requirement, a build file, a CUDA source): the install or build needs it.
    const ModuleNode* node = model.module_of(f.path);
    if (!node || node->path != f.path || model.role_of(f.path) != Role::core) return std::nullopt;
    gaps.files.insert(f.path);
    gaps.broken.insert(f.path);
    for (std::string& sub : graph.files_of_subclasses_constructing(f.path, f.location.line))
      if (model.role_of(sub) == Role::core) gaps.broken.insert(std::move(sub));
  }
  if (gaps.files.empty()) return std::nullopt;

  // The library's size: every module of its packages and programs, reached by an import or
  // not (a package that loads its modules lazily by name reaches few of them by import).
  size_t core_modules = 0;
  for (const ModuleNode& node : model.modules()) {
    if (node.path.empty()) continue;
    const Role role = model.role_of(node.path);
    if (role == Role::core || role == Role::entry_point) ++core_modules;
  }
  if (static_cast<double>(gaps.broken.size()) > std::floor(kMaxGapShare * static_cast<double>(core_modules)))
    return std::nullopt;

  gaps.why = "a gap in a corner of a core that selects MPS itself (" + selects->path + ":" +
             std::to_string(selects->line) + "): portable sites reach " + std::to_string(gaps.broken.size()) + " of its " +
             std::to_string(core_modules) + " modules";
  return gaps;
}

}  // namespace mpsready
