#pragma once
// What `mpsready --version` prints: enough to reproduce a result (the commit, the rules that
// decided it, and the parsers' versions).
#include <string>

namespace mpsready {

// "mpsready 0.2.0\ncommit ...\nrules sha ...\n..." for the rules in `rules_dir`.
std::string version_text(const std::string& rules_dir);

}  // namespace mpsready
