#pragma once
// Everything a scan runs, built once from the rules: the front ends (one per language) and the
// repository passes. Shared read-only by the workers of a scan.
#include <filesystem>
#include <memory>
#include <vector>

#include "cpp_frontend.h"
#include "assess/assess.h"
#include "engine/scanner.h"
#include "rules/rule_set.h"

namespace mpsready {

class Pipeline {
 public:
  // Compiles the rules; throws RuleError on a bad one. `rules` must outlive the pipeline.
  // `compile_commands`: a compile_commands.json for C++ files (default: found at the root).
  // `clang_time_limit_s`: Clang's time per C++/CUDA file (negative: none).
  explicit Pipeline(const RuleSet& rules, const std::string& compile_commands = "",
                    double clang_time_limit_s = kDefaultClangTimeLimit);
  ScanResult scan(const std::filesystem::path& root, const ScanOptions& options,
                  const AssessOptions& assess_options = {}) const;

 private:
  const RuleSet& rules_;
  std::vector<std::unique_ptr<Frontend>> frontends_;
  std::vector<std::unique_ptr<RepositoryPass>> passes_;
};

}  // namespace mpsready
