#pragma once
// A whole scan: walk the repository, read each file once, let every interested front end
// analyse it on a pool of workers, merge in a deterministic order and run the repository passes.
// The verdict is the assessment's (assess/assess.h), not the engine's.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/repo_facts.h"
#include "core/verdict.h"
#include "engine/file_reader.h"
#include "engine/frontend.h"
#include "engine/repo_walker.h"

namespace mpsready {

struct ScanOptions {
  WalkOptions walk;
  unsigned jobs = 0;  // 0: one per core
  // --cache DIR: reuse the outcomes of unchanged files (empty: no cache). `cache_key` holds
  // everything besides a file's bytes that shapes its outcome (tool version, rules, options).
  std::filesystem::path cache_dir;
  std::string cache_key;
  // A progress line on stderr after the first second (the caller checks for a terminal).
  bool progress = false;
  // Checked after the scan, with the suppression comments (pipeline/suppressions.h): every rule
  // id, to report suppressions that name none, and the configuration's per_file_ignores.
  std::vector<std::string> known_rules;
  std::vector<std::pair<std::string, std::vector<std::string>>> per_file_ignores;
  // Files whose bytes the scan takes from here instead of reading them, by relative path: the
  // fix engine scans its fixed texts in place of the originals, with no copy of the tree. The
  // walk still decides which files there are. Not owned; must outlive the scan.
  const std::map<std::string, std::string>* replaced_files = nullptr;
};

// A walked file's bytes: from `replaced_files` when it is there, else read from the disk
// (engine/file_reader.h), within the size limit either way.
ReadResult read_scanned_file(const std::string& relative, const std::filesystem::path& absolute,
                             const ScanOptions& options);

// A suppression comment that names no rule, or suppresses nothing although its rule ran.
struct SuppressionNote {
  std::string path;
  int cell = 0;  // notebooks: 1-based cell, 0 otherwise
  int line = 0;  // 1-based, of the cell in a notebook
  std::string message;
};

struct ScanResult {
  std::vector<Finding> findings;  // sorted (finding_less)
  std::vector<Finding> suppressed;  // removed by an `mpsready: ignore[...]` comment or per_file_ignores; sorted
  std::vector<SuppressionNote> suppression_notes;  // sorted by path, cell, line
  std::vector<FileNote> errors;
  std::vector<FileNote> skipped;
  RepoFacts facts;
  std::vector<std::string> files;  // every file walked (relative paths, sorted)
  SummaryContext summary_context;  // what the summary needs besides findings (the assessment's)
  size_t files_scanned = 0;  // read and checked
  size_t files_parsed = 0;   // of which some rule needed a parse
  size_t files_ignored = 0;  // excluded before reading
  std::vector<std::string> unmatched_excludes;  // excludes that left out nothing (WalkResult)
  size_t cache_hits = 0;     // files whose outcome came from the scan cache
  std::vector<std::string> cache_notes;  // cache problems, for stderr (never in a report)
  // Set by the assessment's last step (assess/verdict_funnel.h): the findings it left out of the
  // report by cause ("baseline", "outside-diff", "outside-paths"), the verdict, and the verdict of
  // the whole tree (the same unless a filter left findings out).
  std::map<std::string, size_t> removed;
  Summary summary;
  Verdict tree_verdict = Verdict::mps_ready;
};

// How many files (or directories) the scan could not read, parse or finish (FileNote::unread): a
// verdict beside one is that of an incomplete scan.
size_t unread_count(const ScanResult& result);
// "incomplete: 2 files could not be read" ("" when every file was read).
std::string incomplete_sentence(const ScanResult& result);

ScanResult run_scan(const std::filesystem::path& root, const std::vector<const Frontend*>& frontends,
                    const std::vector<const RepositoryPass*>& passes, ScanOptions options);

}  // namespace mpsready
