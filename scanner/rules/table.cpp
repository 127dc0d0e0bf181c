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

}  // namespace mpsready
