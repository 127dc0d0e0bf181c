#include "pipeline/pipeline.h"

#include "binary/binary_frontend.h"
#include "cpp_frontend.h"
#include "cython/cython_frontend.h"
#include "deps/dependency_link_pass.h"
#include "deps/deps_frontend.h"
#include "docs/docs_frontend.h"
#include "pipeline/distributed_backend_pass.h"
#include "pipeline/extension_link_pass.h"
#include "pipeline/failing_import_pass.h"
#include "pipeline/suppressions.h"
#include "python/python_frontend.h"

namespace mpsready {

Pipeline::Pipeline(const RuleSet& rules, const std::string& compile_commands, double clang_time_limit_s)
    : rules_(rules) {
  frontends_.push_back(std::make_unique<PythonFrontend>(rules));
  frontends_.push_back(std::make_unique<CppFrontend>(rules, compile_commands, clang_time_limit_s));
  frontends_.push_back(std::make_unique<DepsFrontend>(rules));
  frontends_.push_back(std::make_unique<DocsFrontend>());
  frontends_.push_back(std::make_unique<BinaryFrontend>(rules));
  frontends_.push_back(std::make_unique<CythonFrontend>(rules));
  passes_.push_back(std::make_unique<ExtensionLinkPass>(rules));
  passes_.push_back(std::make_unique<FailingImportPass>(rules));
  passes_.push_back(std::make_unique<DependencyLinkPass>());
  passes_.push_back(std::make_unique<DistributedBackendPass>(rules));
}

ScanResult Pipeline::scan(const std::filesystem::path& root, const ScanOptions& options,
                          const AssessOptions& assess_options) const {
  std::vector<const Frontend*> frontends;
  for (const auto& f : frontends_) frontends.push_back(f.get());
  std::vector<const RepositoryPass*> passes;
  for (const auto& p : passes_) passes.push_back(p.get());
  ScanResult result = run_scan(root, frontends, passes, options);
  // Suppression comments apply last, to every finding (those of the repository passes too);
  // the summary then counts what is left, and the suppressed findings are kept aside.
  // With the rule ids known (the command line passes them), comments that name no rule or
  // suppress nothing are reported.
  SuppressionChecks checks;
  checks.known_rules = options.known_rules;
  if (!options.known_rules.empty())
    for (const Rule& r : rules_.rules()) checks.enabled_rules.push_back(r.id);
  checks.per_file_ignores = options.per_file_ignores;
  checks.replaced_files = options.replaced_files;
  apply_suppressions(root, result, options.walk.max_file_size, checks);
  // Then the assessment: what each finding means for this repository, and the verdicts.
  assess(result, rules_, assess_options);
  return result;
}

}  // namespace mpsready
