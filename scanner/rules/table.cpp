#include "rules/table.h"

#include "core/dotted_pattern.h"

namespace mpsready {

const TableRecord* Table::lookup(const std::string& qualified_name) const {
  const TableRecord* best = nullptr;
  int best_score = -1;
  for (const auto& record : records) {
    if (!dotted_pattern_matches(record.name, qualified_name)) continue;
    const int score = dotted_pattern_specificity(record.name);
    if (score > best_score) {
      best = &record;
      best_score = score;
    }
  }
  return best;
}

const TableRecord* Table::lookup_module(const std::string& module) const {
  for (const std::string& name : module_and_parents(module))
    if (const TableRecord* record = lookup(name)) return record;
  return nullptr;
}

std::vector<std::string> module_and_parents(const std::string& module) {
  std::vector<std::string> names{module};
  for (size_t dot = module.rfind('.'); dot != std::string::npos && dot > 0; dot = module.rfind('.', dot - 1))
    names.push_back(module.substr(0, dot));
  return names;
}

}  // namespace mpsready
