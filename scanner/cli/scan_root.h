#pragma once
// Whether the root given to `scan` or `fix` stays where the user thinks it is. A repository can
// commit a link (`data -> /home/ci`), and a bot that scans or fixes `repo/data` would then read,
// publish or rewrite files outside the repository. So a root that is itself a symbolic link, or
// whose real path leaves the git work tree around it, is refused unless --allow-outside-worktree.
#include <string>

namespace mpsready {

// "" when `given` (an existing path, as typed) may be scanned; else what is wrong, in one line.
// The work tree is the innermost directory holding `.git` on the way from `/` down to `given`,
// as written, before the first symbolic link met inside a work tree (a `.git` seen through a
// link says nothing about where the link leads). Outside any work tree only the link is refused.
std::string scan_root_problem(const std::string& given);

}  // namespace mpsready
