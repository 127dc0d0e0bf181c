#pragma once
// What `mpsready --version` prints: enough to reproduce a result (the commit, the rules that
// decided it, and the parsers' versions).
#include <string>

namespace mpsready {

// "mpsready 0.2.0\ncommit ...\nrules sha ...\n..." for the rules in `rules_dir`.
std::string version_text(const std::string& rules_dir);
// The name of the folder `path` names ("." → the current directory's name; "" when unknown).
std::string root_folder_name(const std::string& path);
// The commit this binary was built from ("unknown" outside a checkout).
std::string build_commit();
// The hash of the rules in `rules_dir` that `--version` prints ("unreadable", "none found").
std::string rules_hash(const std::string& rules_dir);

}  // namespace mpsready
