#include "python/import_map.h"

#include "python/ts_python.h"

namespace mpsready {
namespace {

std::string dotted(std::string_view source, TSNode dotted_name) {
  // dotted_name text may contain spaces or comments in odd code ("a . b"); rebuild it.
  std::string out;
  const uint32_t count = ts_node_named_child_count(dotted_name);
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode part = ts_node_named_child(dotted_name, i);
    if (!node_is(part, "identifier")) continue;
    if (!out.empty()) out += '.';
    out += node_text(source, part);
  }
  return out;
}

// Walks an attribute chain down to its base; returns the base and fills `parts` (outermost
// last). Iterative: chains can be arbitrarily long.
TSNode chain_base(std::string_view source, TSNode node, std::vector<std::string_view>& parts) {
  const auto& f = PyFields::get();
  while (node_is(node, "attribute")) {
    const TSNode attr = ts_node_child_by_field_id(node, f.attribute);
    parts.push_back(node_text(source, attr));
    node = ts_node_child_by_field_id(node, f.object);
  }
  return node;
}

}  // namespace

void ImportMap::add_statement(std::string_view source, TSNode statement) {
  const auto& f = PyFields::get();
  const std::string_view type = ts_node_type(statement);
  const uint32_t count = ts_node_named_child_count(statement);
  if (type == "import_statement") {
    for (uint32_t i = 0; i < count; ++i) {
      const TSNode child = ts_node_named_child(statement, i);
      if (node_is(child, "dotted_name")) {
        const std::string full = dotted(source, child);
        const std::string first = full.substr(0, full.find('.'));
        bindings_[first] = first;
        modules_.insert(first);
        sites_.push_back({child, statement, full, false});
      } else if (node_is(child, "aliased_import")) {
        const TSNode name = ts_node_child_by_field_id(child, f.name);
        const TSNode alias = ts_node_child_by_field_id(child, f.alias);
        const std::string full = dotted(source, name);
        if (!ts_node_is_null(alias)) {
          bindings_[std::string(node_text(source, alias))] = full;
          modules_.insert(std::string(node_text(source, alias)));
        } else {
          const std::string first = full.substr(0, full.find('.'));
          bindings_[first] = first;
          modules_.insert(first);
        }
        sites_.push_back({name, statement, full, false});
      }
    }
    return;
  }
  if (type != "import_from_statement") return;
  const TSNode module = ts_node_child_by_field_id(statement, f.module_name);
  if (node_is(module, "relative_import")) {
    add_relative(source, statement, module);
    return;  // relative imports stay local to the project: no bindings for the rules
  }
  if (!node_is(module, "dotted_name")) return;
  const std::string base = dotted(source, module);
  // The module itself is one site; each imported name is another, more specific one.
  sites_.push_back({module, statement, base, true});
  for (uint32_t i = 0; i < count; ++i) {
    const TSNode child = ts_node_named_child(statement, i);
    if (ts_node_eq(child, module)) continue;
    TSNode name_node = child;
    TSNode alias{};
    if (node_is(child, "aliased_import")) {
      name_node = ts_node_child_by_field_id(child, f.name);
      alias = ts_node_child_by_field_id(child, f.alias);
    } else if (!node_is(child, "dotted_name")) {
      continue;
    }
    const std::string name = dotted(source, name_node);
    const std::string full = base + "." + name;
    const std::string local = ts_node_is_null(alias) ? name.substr(0, name.find('.'))
                                                     : std::string(node_text(source, alias));
    bindings_[local] = ts_node_is_null(alias) ? base + "." + local : full;
    sites_.push_back({name_node, statement, full, false});
  }
}

void ImportMap::add_string_import(TSNode statement, TSNode literal, const std::string& name,
                                  const std::string& local, const std::string& bound_to) {
  if (!local.empty()) {
    bindings_[local] = bound_to;
    modules_.insert(local);
  }
  sites_.push_back({literal, statement, name, false, local});
}

void ImportMap::bind_if_unbound(const std::string& local, const std::string& qualified, bool is_module) {
  if (!bindings_.emplace(local, qualified).second) return;
  if (is_module) modules_.insert(local);
}

void ImportMap::add_relative(std::string_view source, TSNode statement, TSNode module) {
  const auto& f = PyFields::get();
  int level = 0;
  std::string base;
  for (const char c : node_text(source, module)) {
    if (c != '.') break;
    ++level;
  }
  const uint32_t parts = ts_node_named_child_count(module);
  for (uint32_t i = 0; i < parts; ++i)
    if (node_is(ts_node_named_child(module, i), "dotted_name")) base = dotted(source, ts_node_named_child(module, i));
  if (!base.empty()) relative_sites_.push_back({statement, base, level});
  // `from . import a, b`: each name may be a submodule.
  const uint32_t count = ts_node_named_child_count(statement);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(statement, i);
    if (ts_node_eq(child, module)) continue;
    if (node_is(child, "aliased_import")) child = ts_node_child_by_field_id(child, f.name);
    if (!node_is(child, "dotted_name")) continue;
    const std::string name = dotted(source, child);
    relative_sites_.push_back({statement, base.empty() ? name : base + "." + name, level});
  }
}

std::string ImportMap::resolve(std::string_view source, TSNode node) const {
  std::vector<std::string_view> parts;
  const TSNode base = chain_base(source, node, parts);
  if (!node_is(base, "identifier")) return {};
  const auto it = bindings_.find(std::string(node_text(source, base)));
  if (it == bindings_.end()) return {};
  std::string out = it->second;
  for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
    out += '.';
    out += *p;
  }
  return out;
}

std::string ImportMap::display_name(std::string_view source, TSNode node) const {
  std::string resolved = resolve(source, node);
  if (!resolved.empty()) return resolved;
  std::vector<std::string_view> parts;
  const TSNode base = chain_base(source, node, parts);
  std::string out = node_is(base, "identifier") ? std::string(node_text(source, base)) : "…";
  for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
    out += '.';
    out += *p;
  }
  return out;
}

}  // namespace mpsready
