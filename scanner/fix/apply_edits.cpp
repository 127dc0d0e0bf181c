#include "fix/apply_edits.h"

namespace mpsready {

std::string apply_edits(std::string_view text, const std::vector<Edit>& edits) {
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (const Edit& e : edits) {
    if (e.start < at || e.end > text.size() || e.start > e.end) continue;  // never for resolved edits
    out.append(text.substr(at, e.start - at));
    out.append(e.replacement);
    at = e.end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace mpsready
