#pragma once
// Ties each flagged dependency to the code that imports it: "imported unguarded in model.py:12",
// "imported only behind a guard", or "not imported by any scanned file".
#include "engine/frontend.h"

namespace mpsready {

class DependencyLinkPass final : public RepositoryPass {
 public:
  void run(ScanResult& result) const override;
};

}  // namespace mpsready
