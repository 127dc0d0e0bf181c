#include "deps/toml_manifest_reader.h"
#include "engine/test_point.h"

#include <toml++/toml.h>

#include "deps/entry_point.h"
#include "deps/package_list.h"
#include "deps/requirement_spec.h"

namespace mpsready {
namespace {

uint32_t offset(const DepsFile& file, const toml::source_position& pos) {
  return file.offset_of(static_cast<int>(pos.line), static_cast<int>(pos.column));
}

// A PEP 508 string in an array (`dependencies = ["flash-attn>=2"]`).
void add_pep508(DepsFile& file, const toml::node& node, const std::string& group, bool optional) {
  const auto* s = node.as_string();
  if (!s) return;
  DependencyRecord r;
  if (!RequirementSpec::parse(s->get(), r)) {
    file.errors.push_back({file.path, "line " + std::to_string(node.source().begin.line) + ": `" + s->get() +
                                          "` is not a requirement; it was skipped"});
    return;
  }
  r.text = s->get();
  r.group = group;
  r.optional = optional;
  r.start = offset(file, node.source().begin);
  r.end = offset(file, node.source().end);
  if (r.end <= r.start) r.end = r.start + static_cast<uint32_t>(r.text.size() + 2);
  file.records.push_back(std::move(r));
}

void add_array(DepsFile& file, const toml::node_view<const toml::node>& view, const std::string& group, bool optional) {
  if (const auto* arr = view.as_array())
    for (const auto& el : *arr) add_pep508(file, el, group, optional);
}

// Poetry and Pipfile style: `name = "version"` or `name = { version = ..., markers = ... }`.
void add_table_deps(DepsFile& file, const toml::table* deps, const std::string& group, bool optional) {
  if (!deps) return;
  for (const auto& [key, value] : *deps) {
    const std::string name(key.str());
    if (name == "python") continue;
    DependencyRecord r;
    r.name = name;
    r.normalized = normalize_package_name(name);
    r.group = group;
    r.optional = optional;
    if (const auto* s = value.as_string()) {
      r.version = s->get() == "*" ? "" : s->get();
    } else if (const auto* t = value.as_table()) {
      r.version = (*t)["version"].value_or(std::string());
      r.marker = (*t)["markers"].value_or(std::string());
      if (const auto platform = (*t)["platform"].value<std::string>())
        r.marker += (r.marker.empty() ? "" : " and ") + ("sys_platform == \"" + *platform + "\"");
      if (const auto sp = (*t)["sys_platform"].value<std::string>())
        r.marker += (r.marker.empty() ? "" : " and ") + ("sys_platform " + *sp);
      if ((*t)["optional"].value_or(false)) r.optional = true;
    }
    r.text = name + (r.version.empty() ? "" : " " + r.version);
    r.start = offset(file, key.source().begin);
    r.end = r.start + static_cast<uint32_t>(name.size());
    file.records.push_back(std::move(r));
  }
}

// `url = "https://download.pytorch.org/whl/cu121"` of each entry of an array of tables.
void add_index_urls(DepsFile& file, const toml::node_view<const toml::node>& view) {
  const auto* arr = view.as_array();
  if (!arr) return;
  for (const auto& el : *arr) {
    const auto* t = el.as_table();
    if (!t) continue;
    // An explicit index (uv's `explicit = true`, poetry's `priority = "explicit"`) serves only
    // the packages pinned to it, which their own entries (with markers) decide; it changes
    // nothing for a plain install.
    const toml::node* explicit_flag = t->get("explicit");
    const toml::node* priority = t->get("priority");
    if ((explicit_flag && explicit_flag->value_or(false)) ||
        (priority && priority->is_string() && priority->as_string()->get() == "explicit"))
      continue;
    const toml::node* url = t->get("url");
    if (url && url->is_string())
      file.add_directive("index-url", url->as_string()->get(), offset(file, url->source().begin) + 1);
  }
}

// `[project.scripts]` / `[tool.poetry.scripts]`: `name = "pkg.cli:main"`.
void add_scripts(DepsFile& file, const toml::table* scripts) {
  if (!scripts) return;
  for (const auto& [key, value] : *scripts)
    if (const auto* s = value.as_string()) add_entry_point(file, s->get(), offset(file, value.source().begin) + 1);
}

// Each string of an array (or the single string) as one part of `kind`.
void add_parts(DepsFile& file, std::string_view kind, const toml::node* node) {
  if (!node) return;
  const auto add = [&](const toml::node& n) {
    if (const auto* s = n.as_string()) add_package_part(file, kind, s->get(), offset(file, n.source().begin) + 1);
  };
  if (const auto* arr = node->as_array()) {
    for (const auto& el : *arr) add(el);
  } else {
    add(*node);
  }
}

// `[tool.setuptools.packages.find]` (or `packages = {find = {...}}`): each `where` folder is a
// search with the same include and exclude patterns.
void add_find(DepsFile& file, const toml::table& find) {
  add_parts(file, "package-include", find.get("include"));
  add_parts(file, "package-exclude", find.get("exclude"));
  const toml::node* where = find.get("where");
  const auto* folders = where ? where->as_array() : nullptr;
  if (!folders || folders->empty()) {
    add_package_part(file, "package-find", "", offset(file, find.source().begin));
    return;
  }
  add_parts(file, "package-find", where);
}

// `[tool.setuptools]` packages and package-dir; poetry's `packages = [{include, from}]`.
void add_packages(DepsFile& file, const toml::node_view<const toml::node>& setuptools,
                  const toml::node_view<const toml::node>& poetry) {
  if (const auto* packages = setuptools["packages"].node()) {
    if (packages->is_array()) add_parts(file, "package", packages);
    else if (const auto* t = packages->as_table())
      if (const auto* find = (*t)["find"].as_table()) add_find(file, *find);
  }
  if (const auto* dirs = setuptools["package-dir"].as_table())
    for (const auto& [key, value] : *dirs)
      if (const auto* s = value.as_string())
        add_package_part(file, "package-dir", std::string(key.str()) + "=" + s->get(), offset(file, value.source().begin) + 1);
  if (const auto* arr = poetry["packages"].as_array())
    for (const auto& el : *arr) {
      const auto* t = el.as_table();
      const toml::node* include = t ? t->get("include") : nullptr;
      if (!include || !include->is_string()) continue;
      // `include = "kit"` (or a path, `kit/ops`): the package, found under `from`.
      std::string name = include->as_string()->get();
      while (!name.empty() && name.back() == '/') name.pop_back();
      const uint32_t at = offset(file, include->source().begin) + 1;
      std::string dotted = name;
      for (char& c : dotted)
        if (c == '/') c = '.';
      add_package_part(file, "package", dotted, at);
      const std::string from = (*t)["from"].value_or(std::string());
      if (!from.empty()) add_package_part(file, "package-dir", dotted + "=" + from + "/" + name, at);
    }
}

// Hatch (`[tool.hatch.build.targets.wheel] packages = ["src/kit"]`) and PDM
// (`[tool.pdm.build] includes = ["src/kit"]`) list the folders of packages: each is the package
// its last part names, found in that folder.
void add_package_paths(DepsFile& file, const toml::node_view<const toml::node>& list) {
  const auto* arr = list.as_array();
  if (!arr) return;
  for (const auto& el : *arr) {
    const auto* s = el.as_string();
    if (!s) continue;
    std::string path = s->get();
    while (path.rfind("./", 0) == 0) path.erase(0, 2);
    while (!path.empty() && path.back() == '/') path.pop_back();
    if (path.empty() || (path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0)) continue;
    const size_t slash = path.rfind('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const uint32_t at = offset(file, el.source().begin) + 1;
    add_package_part(file, "package", name, at);
    if (slash != std::string::npos) add_package_part(file, "package-dir", name + "=" + path, at);
  }
}

}  // namespace

void TomlManifestReader::read(DepsFile& file) {
  toml::table doc;
  try {
    test_point("toml", file.text->text());
    doc = toml::parse(file.text->text(), file.path);
  } catch (const toml::parse_error& e) {
    file.errors.push_back({file.path, "invalid TOML at line " + std::to_string(e.source().begin.line) + ", column " +
                                          std::to_string(e.source().begin.column) + ": " +
                                          std::string(e.description()) + "; its dependencies were not read"});
    return;
  }
  const toml::table& root = doc;
  if (file.kind == DepsFileKind::pipfile) {
    add_table_deps(file, root["packages"].as_table(), "", false);
    add_table_deps(file, root["dev-packages"].as_table(), "dev-packages", true);
    add_index_urls(file, root["source"]);
    return;
  }
  add_array(file, root["project"]["dependencies"], "", false);
  if (const auto* extras = root["project"]["optional-dependencies"].as_table())
    for (const auto& [key, value] : *extras)
      if (const auto* arr = value.as_array())
        for (const auto& el : *arr) add_pep508(file, el, std::string(key.str()), true);
  if (const auto* groups = root["dependency-groups"].as_table())
    for (const auto& [key, value] : *groups)
      if (const auto* arr = value.as_array())
        for (const auto& el : *arr) add_pep508(file, el, std::string(key.str()), true);
  add_array(file, root["build-system"]["requires"], "build-system", false);
  const auto poetry = root["tool"]["poetry"];
  add_table_deps(file, poetry["dependencies"].as_table(), "", false);
  add_table_deps(file, poetry["dev-dependencies"].as_table(), "dev-dependencies", true);
  if (const auto* groups = poetry["group"].as_table())
    for (const auto& [key, value] : *groups) {
      const auto* g = value.as_table();
      if (!g) continue;
      const bool optional = (*g)["optional"].value_or(false);
      add_table_deps(file, (*g)["dependencies"].as_table(), std::string(key.str()), optional);
    }
  add_scripts(file, root["project"]["scripts"].as_table());
  add_scripts(file, root["project"]["gui-scripts"].as_table());
  add_scripts(file, poetry["scripts"].as_table());
  add_packages(file, root["tool"]["setuptools"], poetry);
  add_package_paths(file, root["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]);
  const auto pdm_build = root["tool"]["pdm"]["build"];
  if (const auto* dir = pdm_build["package-dir"].as_string())
    add_package_part(file, "package-dir", "=" + dir->get(), offset(file, dir->source().begin) + 1);
  add_package_paths(file, pdm_build["includes"]);
  add_index_urls(file, poetry["source"]);
  add_index_urls(file, root["tool"]["uv"]["index"]);
  add_index_urls(file, root["tool"]["pdm"]["source"]);
}

}  // namespace mpsready
