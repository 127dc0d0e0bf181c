#pragma once
// `mpsready fix`: scan, rewrite the sites whose rules carry an "autofix", check every fixed
// file (it parses, a second run changes nothing), scan the fixed tree, and tell the verdict
// before and after. Nothing is written to the root here (write_fixes does that).
#include <filesystem>
#include <string>
#include <vector>

#include "assess/assess.h"
#include "core/impact.h"
#include "engine/scanner.h"
#include "fix/edit.h"
#include "fix/edit_collection.h"
#include "pipeline/pipeline.h"
#include "rules/rule_set.h"

namespace mpsready {

struct FixOptions {
  ScanOptions scan;
  AssessOptions assess;
  EditCollectionOptions edits;
};

struct FileFix {
  std::string path;  // relative to the root
  std::string before;
  std::string after;
  std::vector<Edit> edits;  // sorted, non-overlapping
};

struct FixOutcome {
  bool ok = true;
  std::string error;
  Verdict before = Verdict::mps_ready;
  Verdict after = Verdict::mps_ready;
  std::vector<FileFix> files;      // sorted by path
  std::vector<LeftSite> left;      // sites of fixable rules left alone, and why (sorted)
  std::vector<Finding> remaining;  // the fixed tree's findings that count for its verdict
  std::string needs_pytorch;       // the oldest PyTorch every applied fix runs on ("" = any)
  ScanResult scanned;              // the scan of the tree before fixing (for --report)
  size_t sites_fixed() const;     // edits of sites (not the bindings they share)
  size_t bindings_added() const;  // `device = ...` lines inserted for sites to share
  size_t imports_tidied() const;  // deprecated imports cut down to what the fixed file reads
};

FixOutcome run_fix(const Pipeline& pipeline, const RuleSet& rules, const std::filesystem::path& root,
                   const FixOptions& options);

// Writes the fixed files under `root`, each through a new temporary file in its directory and a
// rename (fix/safe_write.h): only regular files reached from the root through real directories,
// and only while they still hold the bytes that were fixed. Every file is checked before any is
// written; `error` names the first that could not be. `follow_root_link`: the root itself may be
// a symbolic link (--allow-outside-worktree); links below it are never followed.
bool write_fixes(const std::filesystem::path& root, const FixOutcome& outcome, std::string& error,
                 bool follow_root_link = false);

}  // namespace mpsready
