#pragma once
// A process group that a public entry always initialises with a backend taken from a per-device
// table or an accelerator class whose MPS entry is a stub (None, a method that raises
// NotImplementedError or returns None / NotImplemented*): on a Mac that initialisation has no
// backend, so the entry cannot run. A table that gives MPS a real backend (`"mps": "gloo"`) or a
// literal per-device string (`"cpu:gloo,cuda:nccl"`) is not this.
#include <vector>

#include "engine/frontend.h"
#include "rules/rule_set.h"

namespace mpsready {

class DistributedBackendPass final : public RepositoryPass {
 public:
  // The rules whose matcher is `repository.distributed_backend` report these initialisations.
  explicit DistributedBackendPass(const RuleSet& rules);
  void run(ScanResult& result) const override;

 private:
  std::vector<const Rule*> rules_;
};

}  // namespace mpsready
