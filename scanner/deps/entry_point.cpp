#include "deps/entry_point.h"

#include <cctype>
#include <string>

namespace mpsready {

void add_entry_point(DepsFile& file, std::string_view spec, uint32_t offset) {
  if (const size_t eq = spec.find('='); eq != std::string_view::npos) {
    offset += static_cast<uint32_t>(eq + 1);
    spec.remove_prefix(eq + 1);
  }
  while (!spec.empty() && std::isspace(static_cast<unsigned char>(spec.front()))) spec.remove_prefix(1), ++offset;
  // `module:function`: the module is everything before the colon, and nothing else.
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return;
  std::string module(spec.substr(0, colon));
  while (!module.empty() && std::isspace(static_cast<unsigned char>(module.back()))) module.pop_back();
  for (const char c : module)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return;
  if (module.empty() || module.front() == '.') return;
  file.add_directive("entry-point", module, offset);
}

}  // namespace mpsready
