#pragma once
// A private helper of a file (`def _collect_weights(...)`, a method `_gather`) that the file calls
// only behind guards runs only behind them: its body is guarded too. Public functions are left
// alone, since other modules may call them unguarded; so is a helper whose name appears
// anywhere but at its calls (passed as a callback, stored, exported). One pass: a helper called
// only from another such helper is not followed.
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "python/guard_map.h"
#include "python/python_file.h"

namespace mpsready {

// `definitions`: the file's function_definition nodes; `guards`: the regions guarded so far
// (finished). Adds the bodies of the helpers it finds to `out`.
void guard_private_helpers(std::string_view source, const std::vector<TSNode>& definitions,
                           const std::vector<CallSite>& calls, const GuardMap& guards, GuardMap& out);

}  // namespace mpsready
