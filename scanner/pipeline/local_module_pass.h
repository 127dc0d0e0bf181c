#pragma once
// An import of the repository's own code is not an import of a third-party package: a lab repo
// (or the package itself) with a top-level `triton_ops/` or `causal_conv1d/` folder imports its
// own modules. Import findings for names the scanned tree provides are dropped.
#include "engine/frontend.h"

namespace mpsready {

class LocalModulePass final : public RepositoryPass {
 public:
  void run(ScanResult& result) const override;
};

}  // namespace mpsready
