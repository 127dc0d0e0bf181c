#include "engine/scanner.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "engine/file_reader.h"
#include "engine/prefilter.h"
#include "python/notebook_reader.h"

namespace mpsready {
namespace {

struct FileOutcome {
  bool scanned = false;
  bool parsed = false;
  std::vector<Finding> findings;
  std::vector<FileNote> errors;
  std::vector<FileNote> skipped;
};

FileOutcome scan_file(const WalkedFile& file, const PythonProgram& program, const NeedleFilter& filter,
                      PythonParser& parser, const ScanOptions& options) {
  FileOutcome out;
  ReadResult read = read_repository_file(file.absolute, options.walk.max_file_size);
  if (!read.bytes) {
    out.errors.push_back({file.path, read.error});
    return out;
  }
  if (looks_binary(*read.bytes)) {
    out.skipped.push_back({file.path, "binary file (contains NUL bytes)"});
    return out;
  }
  std::string python = std::move(*read.bytes);
  NotebookSource notebook;
  if (file.kind == FileKind::notebook) {
    NotebookResult nb = read_notebook(python);
    if (!nb.ok) {
      out.errors.push_back({file.path, nb.error});
      return out;
    }
    notebook = std::move(nb.source);
    python = std::move(notebook.python);
  }
  const SourceText text(std::move(python));
  out.scanned = true;
  if (const auto bad = text.first_invalid_utf8()) {
    out.errors.push_back({file.path, "not valid UTF-8 (first invalid byte at offset " +
                                         std::to_string(*bad) + "); invalid bytes were read as '?'"});
  }
  const std::vector<bool> active = filter.active_rules(text.text());
  if (std::find(active.begin(), active.end(), true) == active.end()) return out;
  out.parsed = true;
  FileAnalysis analysis = analyze_python(text, file.path, program, active, parser, options.analysis,
                                         file.kind == FileKind::notebook ? &notebook : nullptr);
  out.findings = std::move(analysis.findings);
  for (auto& e : analysis.errors) out.errors.push_back(std::move(e));
  return out;
}

}  // namespace

ScanResult run_scan(const std::filesystem::path& root, const RuleSet& /*rules*/,
                    const PythonProgram& program, const ScanOptions& options) {
  ScanResult result;
  WalkResult walk = walk_repository(root, options.walk);
  result.errors = std::move(walk.errors);
  result.skipped = std::move(walk.skipped);
  result.files_ignored = walk.ignored;

  std::vector<std::vector<std::string>> needles;
  for (const auto& compiled : program.rules()) needles.push_back(compiled.rule->needles);
  const NeedleFilter filter(needles);

  std::vector<FileOutcome> outcomes(walk.files.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    PythonParser parser;
    for (size_t i = next++; i < walk.files.size(); i = next++) {
      try {
        outcomes[i] = scan_file(walk.files[i], program, filter, parser, options);
      } catch (const std::exception& e) {
        // One bad file must not end the scan; say so and go on.
        outcomes[i] = FileOutcome{};
        outcomes[i].errors.push_back({walk.files[i].path, std::string("internal error: ") + e.what()});
      }
    }
  };
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, std::max<size_t>(1, walk.files.size())));
  if (jobs <= 1) {
    work();
  } else {
    std::vector<std::thread> workers;
    for (unsigned j = 0; j < jobs; ++j) workers.emplace_back(work);
    for (auto& w : workers) w.join();
  }

  // Merge in walk order: the output does not depend on which worker finished first.
  for (auto& o : outcomes) {
    result.files_scanned += o.scanned;
    result.files_parsed += o.parsed;
    for (auto& f : o.findings) result.findings.push_back(std::move(f));
    for (auto& e : o.errors) result.errors.push_back(std::move(e));
    for (auto& s : o.skipped) result.skipped.push_back(std::move(s));
  }
  sort_findings(result.findings);
  sort_notes(result.errors);
  sort_notes(result.skipped);
  result.summary = summarize(result.findings);
  return result;
}

}  // namespace mpsready
