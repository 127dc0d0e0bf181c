#include "model/environments.h"

#include "model/path_roles.h"

namespace mpsready {

Environments::Environments(const RepoFacts& facts) {
  for (const PackageFact& p : facts.packages) {
    if (p.kind != "environment") continue;
    if (p.text == "container") {
      containers_.insert(p.path);
    } else if (p.text == "native" && !is_peripheral(conventional_role(p.path)) &&
               (native_.empty() || p.path < native_)) {
      native_ = p.path;
    }
  }
}

}  // namespace mpsready
