#pragma once
// Imports a file no longer needs once its sites are rewritten. A rule's "retires_imports" names
// deprecated modules (`torch.cuda.amp`): a `from torch.cuda.amp import autocast, GradScaler` loses
// each name that nothing outside the rewritten spans reads any more, and goes whole when it loses
// them all. A name read anywhere else, exported through `__all__`, or imported with a star stays.
#include <string>
#include <string_view>
#include <vector>

#include "fix/edit.h"

namespace mpsready {

struct RetiredModule {
  std::string module;  // `torch.cuda.amp`
  std::string rule;    // the rule whose rewrites retire it (the edit is filed under it)
};

// `kept`: the file's edits that will be applied (sites and bindings). Returns the edits that drop
// the retired names, none when there is nothing to drop or the file does not parse.
std::vector<Edit> retire_unused_imports(const std::string& path, std::string_view text, const std::vector<Edit>& kept,
                                        const std::vector<RetiredModule>& modules);

}  // namespace mpsready
