#pragma once
// A whole scan: walk the repository, analyse each file once on a pool of workers, merge the
// results in a deterministic order and compute the verdict.
#include <filesystem>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/verdict.h"
#include "engine/repo_walker.h"
#include "python/python_analyzer.h"
#include "python/python_program.h"
#include "rules/rule_set.h"

namespace mpsready {

struct ScanOptions {
  WalkOptions walk;
  AnalysisOptions analysis;
  unsigned jobs = 0;  // 0: one per core
};

struct ScanResult {
  std::vector<Finding> findings;  // sorted (finding_less)
  std::vector<FileNote> errors;
  std::vector<FileNote> skipped;
  size_t files_scanned = 0;  // read and checked
  size_t files_parsed = 0;   // of which some rule needed a parse
  size_t files_ignored = 0;  // excluded before reading
  Summary summary;
};

ScanResult run_scan(const std::filesystem::path& root, const RuleSet& rules,
                    const PythonProgram& program, const ScanOptions& options);

}  // namespace mpsready
