#include "pipeline/pipeline.h"

#include "python/python_frontend.h"

namespace mpsready {

Pipeline::Pipeline(const RuleSet& rules) {
  frontends_.push_back(std::make_unique<PythonFrontend>(rules));
}

ScanResult Pipeline::scan(const std::filesystem::path& root, const ScanOptions& options) const {
  std::vector<const Frontend*> frontends;
  for (const auto& f : frontends_) frontends.push_back(f.get());
  std::vector<const RepositoryPass*> passes;
  for (const auto& p : passes_) passes.push_back(p.get());
  return run_scan(root, frontends, passes, options);
}

}  // namespace mpsready
