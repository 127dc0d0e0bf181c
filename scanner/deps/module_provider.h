#pragma once
// Whether a package that installs `modules` (its import names: `flash_attn`) provides the module
// an import names (`flash_attn.bert_padding`): the name itself or one below it.
#include <string>
#include <vector>

namespace mpsready {

inline bool provides_module(const std::vector<std::string>& modules, const std::string& imported) {
  for (const auto& m : modules)
    if (imported == m || (imported.size() > m.size() && imported.compare(0, m.size(), m) == 0 && imported[m.size()] == '.'))
      return true;
  return false;
}

}  // namespace mpsready
