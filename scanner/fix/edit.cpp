#include "fix/edit.h"

#include <tuple>

namespace mpsready {

bool edit_less(const Edit& a, const Edit& b) {
  return std::tie(a.path, a.start, a.end, a.rule, a.replacement) <
         std::tie(b.path, b.start, b.end, b.rule, b.replacement);
}

bool left_site_less(const LeftSite& a, const LeftSite& b) {
  return std::tie(a.path, a.location.cell, a.location.line, a.location.column, a.rule, a.reason) <
         std::tie(b.path, b.location.cell, b.location.line, b.location.column, b.rule, b.reason);
}

}  // namespace mpsready
