#pragma once
// The seam between the engine and the language front ends. The engine walks the repository,
// reads each file once and hands its bytes to every front end that wants the file; front ends
// turn bytes into findings and facts. Repository passes then look at all files together (an
// extension and the Python files that import it; a requirement and its imports).
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/repo_facts.h"
#include "engine/file_reader.h"

namespace mpsready {

struct WalkedFile;

// What analysing one file produced.
struct FileOutcome {
  bool scanned = false;  // some front end read it
  bool parsed = false;   // some front end needed a full parse
  // False when the result depends on more than the file's bytes and the rules (a parse stopped
  // by a time limit): the scan cache does not keep it, so a later scan tries again.
  bool cacheable = true;
  std::vector<Finding> findings;
  std::vector<FileNote> errors;
  std::vector<FileNote> skipped;
  RepoFacts facts;
};

// Per-thread state of a front end (parsers are not thread-safe); one per worker.
class FrontendWorker {
 public:
  virtual ~FrontendWorker() = default;
  // `bytes` are the file's contents (not binary); results are appended to `out`.
  virtual void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) = 0;
};

class Frontend {
 public:
  virtual ~Frontend() = default;
  // Whether this front end reads the file at `path` (relative, '/' separators).
  virtual bool wants(std::string_view path) const = 0;
  virtual std::unique_ptr<FrontendWorker> make_worker() const = 0;
  // A front end that needs only a part of some files (the dynamic section of an extension
  // binary) reads them itself: `reads_in_part` says which, and `read_part` returns the text its
  // workers analyse in place of the file's bytes (the scan cache identifies that text). Such
  // files are listed up to partial_read_limit() (repo_walker.h), not the size limit.
  virtual bool reads_in_part(std::string_view /*path*/) const { return false; }
  virtual ReadResult read_part(const std::filesystem::path& /*absolute*/, uintmax_t /*max_size*/) const { return {}; }
  // Called once before the walk, before any worker exists (so it may set up per-scan state,
  // such as a compilation database found at the root).
  virtual void begin_scan(const std::filesystem::path& /*root*/, std::vector<FileNote>& /*errors*/) const {}
};

struct ScanResult;

// Runs after every file is analysed, before the verdict; may add, drop or adjust findings.
class RepositoryPass {
 public:
  virtual ~RepositoryPass() = default;
  virtual void run(ScanResult& result) const = 0;
};

}  // namespace mpsready
