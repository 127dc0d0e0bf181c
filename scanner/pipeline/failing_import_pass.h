#pragma once
// An import that fails on a Mac fails in every module that imports the module holding it. A
// repository module whose module-level code imports, unguarded, something with no macOS build
// (Triton, a CUDA-only extension: the sites of the rules whose subject is "import" with a
// blocker impact) cannot be imported on a Mac; nor can a module that imports it, unguarded, at
// module level, and so on up the chain. Those import lines are where a Mac user's program stops
// (`from fla.ops.gla import chunk_gla`, `from .triton.quant import per_block_int8`), and this
// pass reports each with the chain down to the failing import. The chain is followed breadth
// first with an explicit queue: an import graph is input, and as deep as a repository makes it.
//
// Each site names the import it carries (SiteContext::carried_from): where a finding of an
// import rule stands at that line, the assessment keeps the site only while that finding counts
// (a blocker of the core, not suppressed), so what the configuration, a suppression or the model
// decides of the cause decides of its carriers too.
#include <utility>
#include <vector>

#include "engine/frontend.h"
#include "rules/rule_set.h"

namespace mpsready {

class FailingImportPass final : public RepositoryPass {
 public:
  // The rules whose matcher is `repository.failing_module_import`, each with its `table`.
  explicit FailingImportPass(const RuleSet& rules);
  void run(ScanResult& result) const override;

 private:
  void run_rule(const Rule& rule, const Table& table, ScanResult& result) const;
  std::vector<std::pair<const Rule*, const Table*>> rules_;
};

}  // namespace mpsready
