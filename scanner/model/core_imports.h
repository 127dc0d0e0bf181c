#pragma once
// Modules outside the core's folders that the core imports on its default path. A folder's name
// (`examples/`, `third_party/`, a submodule's checkout) gives its files a role by convention, but
// a module the core imports at module level runs whenever the core does: it is core code,
// whatever its folder. This finds those modules and says why, so that the repository model can
// count them as core (repo_model.h, `imported_by_core`).
//
// An import carries a module into the core when it runs on a Mac with every option at its
// default: not behind a CUDA check or in a `try` whose `except ImportError` falls back (the
// import fact is `guarded`), not on a feature branch, and not only inside functions the Mac path
// (mac_path.h) never reaches with that status. Only the core's own imports count, and then those
// of the modules they carried in: a module of `examples/` that imports the core stays an example.
// A bare name (`import fastpath`) carries in a file of another folder only when Python would find
// it there: as a package's member, by its dotted path from the root (`examples.fastpath`), or
// beside the importing file.
#include <map>
#include <memory>
#include <string>

#include "core/repo_facts.h"

namespace mpsready {

class CallGraph;
class RepoModel;

// Path of each module carried into the core -> the reason, naming the chain of imports:
// "imported by the core from pkg/__init__.py:3", "imported by the core through
// pkg/__init__.py:3 → third_party/fastops/__init__.py:1". `model` is the model before any module
// is carried in (roles by folder and configuration alone).
// `graph`: where a call graph was built to decide it, that graph (of `model`), else untouched.
std::map<std::string, std::string> modules_imported_by_core(const RepoFacts& facts, const RepoModel& model,
                                                            std::shared_ptr<CallGraph>* graph = nullptr);

}  // namespace mpsready
