#include "assess/package_scope.h"

#include "deps/deps_file.h"
#include "deps/module_provider.h"

namespace mpsready {

PackageScope::PackageScope(const RepoFacts& facts) : facts_(facts), core_(read_core_requirements(facts)) {
  for (const ImportFact& i : facts.imports)
    if (i.cell == 0 && i.level == 0) imports_.emplace(std::make_pair(i.path, i.line), &i);
}

bool PackageScope::required_by_core(const std::string& module) const {
  const std::string top = module.substr(0, module.find('.'));
  if (core_->names.count(normalize_package_name(top))) return true;
  for (const DependencyFact& d : facts_.dependencies)
    if (provides_module(d.modules, module) && core_->names.count(normalize_package_name(d.package))) return true;
  return false;
}

std::optional<std::string> PackageScope::requirement_outside_core(const Finding& f) const {
  // An optional group (extra) is installed only when asked for (`pip install pkg[dev]`): a Mac
  // installing the package with its defaults does not get it. It is that feature's requirement.
  for (const DependencyFact& d : facts_.dependencies)
    if (!d.extra.empty() && d.rule == f.rule && d.path == f.path && d.line == f.location.line &&
        d.column == f.location.column)
      return "optional feature: `" + d.package + "` is only in the optional group `" + d.extra +
             "`, which a plain install (`pip install` with the defaults) leaves out";
  if (!core_ || f.path == core_->manifest) return std::nullopt;
  for (const DependencyFact& d : facts_.dependencies) {
    if (d.rule != f.rule || d.path != f.path || d.line != f.location.line || d.column != f.location.column) continue;
    // Another manifest of the core (a setup.cfg beside the pyproject.toml) lists requirements too.
    for (const PackageFact& p : facts_.packages)
      if (p.kind == "package-requires" && p.path == f.path) return std::nullopt;
    if (core_->names.count(normalize_package_name(d.package))) return std::nullopt;
    return "not a requirement of the installable package (" + core_->manifest + " lists those): " + f.path +
           " sets up another environment, for examples, tests or development";
  }
  return std::nullopt;
}

std::optional<std::string> PackageScope::optional_import(const Finding& f) const {
  // Without a manifest that lists what the package requires, nothing says the import is
  // optional: a lazy import in a constructor the core always runs is as needed as any other.
  if (!core_ || f.location.cell) return std::nullopt;
  // The finding does not say which module of `import a, b` it is about: every one on the line
  // must be optional.
  const auto [first, last] = imports_.equal_range({f.path, f.location.line});
  if (first == last) return std::nullopt;
  for (auto it = first; it != last; ++it) {
    const ImportFact& each = *it->second;
    if ((!each.lazy && !each.guarded) || required_by_core(each.module)) return std::nullopt;
  }
  const ImportFact& i = *first->second;
  const std::string top = i.module.substr(0, i.module.find('.'));
  std::string why = "optional feature: `" + top + "` is no requirement of the package (" + core_->manifest +
                    " lists those), and it is imported only ";
  why += i.lazy ? "inside `" + i.function + "`" : "behind an import fallback";
  return why + ", so a Mac without it runs the rest";
}

}  // namespace mpsready
