#pragma once
// A knowledge table from rules/tables/<name>.json: records keyed by a dotted-name pattern.
#include <map>
#include <string>
#include <vector>

namespace mpsready {

struct TableRecord {
  std::string name;                          // dotted pattern
  std::map<std::string, std::string> fields;  // every string field, "name" included
};

struct Table {
  std::string name;
  std::string description;
  std::vector<TableRecord> records;

  // The most specific record whose pattern matches `qualified_name`, or nullptr.
  const TableRecord* lookup(const std::string& qualified_name) const;
  // The record of an imported module: of `module` itself, else of the nearest package above it
  // (`apex.optimizers` finds `apex`), or nullptr.
  const TableRecord* lookup_module(const std::string& module) const;
};

// `module` and then each package above it, most specific first: `a.b.c`, `a.b`, `a`.
std::vector<std::string> module_and_parents(const std::string& module);

}  // namespace mpsready
