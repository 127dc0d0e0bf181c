#include "engine/scanner.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include <unistd.h>

#include "core/source_text.h"
#include "engine/content_hash.h"
#include "engine/file_reader.h"
#include "engine/progress_line.h"
#include "engine/scan_cache.h"

namespace mpsready {
namespace {

struct Workers {
  std::vector<std::unique_ptr<FrontendWorker>> per_frontend;
};

// The content hash of a file that was read, for the cache (nullopt: not read, never cached).
struct FileWork {
  FileOutcome outcome;
  std::optional<uint64_t> hash;
};

FileWork scan_file(const WalkedFile& file, const std::vector<const Frontend*>& frontends, Workers& workers,
                   const ScanOptions& options, const ScanCache* cache) {
  FileWork work;
  FileOutcome& out = work.outcome;
  ReadResult read = read_repository_file(file.absolute, options.walk.max_file_size);
  if (!read.bytes) {
    out.errors.push_back({file.path, read.error});
    return work;
  }
  if (cache) {
    work.hash = content_hash(*read.bytes);
    if (auto cached = cache->lookup(file.path, *work.hash)) {
      out = std::move(*cached);
      return work;
    }
  }
  if (looks_binary(*read.bytes)) {
    out.skipped.push_back({file.path, "binary file (contains NUL bytes)"});
    return work;
  }
  for (size_t i = 0; i < frontends.size(); ++i) {
    if (!frontends[i]->wants(file.path)) continue;
    if (!workers.per_frontend[i]) workers.per_frontend[i] = frontends[i]->make_worker();
    workers.per_frontend[i]->analyze(file, *read.bytes, out);
  }
  return work;
}

template <typename T>
void append(std::vector<T>& to, std::vector<T>& from) {
  for (auto& x : from) to.push_back(std::move(x));
}

}  // namespace

ScanResult run_scan(const std::filesystem::path& root, const std::vector<const Frontend*>& frontends,
                    const std::vector<const RepositoryPass*>& passes, ScanOptions options) {
  ScanResult result;
  options.walk.wanted = [&](std::string_view path) {
    return std::any_of(frontends.begin(), frontends.end(), [&](const Frontend* f) { return f->wants(path); });
  };
  std::vector<FileNote> setup_errors;
  for (const Frontend* f : frontends) f->begin_scan(root, setup_errors);
  WalkResult walk = walk_repository(root, options.walk);
  result.errors = std::move(walk.errors);
  append(result.errors, setup_errors);
  result.skipped = std::move(walk.skipped);
  result.files_ignored = walk.ignored;

  std::optional<ScanCache> cache;
  if (!options.cache_dir.empty()) {
    cache.emplace(options.cache_dir, options.cache_key, root);
    cache->load();
  }
  std::optional<ProgressLine> progress;
  if (options.progress) progress.emplace(STDERR_FILENO, walk.files.size());

  std::vector<FileWork> outcomes(walk.files.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    Workers workers;
    workers.per_frontend.resize(frontends.size());
    for (size_t i = next++; i < walk.files.size(); i = next++) {
      try {
        outcomes[i] = scan_file(walk.files[i], frontends, workers, options, cache ? &*cache : nullptr);
      } catch (const std::exception& e) {
        // One bad file must not end the scan; say so and go on.
        outcomes[i] = FileWork{};
        outcomes[i].outcome.errors.push_back({walk.files[i].path, std::string("internal error: ") + e.what()});
      }
      if (progress) progress->file_done(outcomes[i].outcome.findings.size());
    }
  };
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, std::max<size_t>(1, walk.files.size())));
  if (jobs <= 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(work);
    for (auto& t : threads) t.join();
  }
  if (progress) progress->finish();

  if (cache) {
    // Only what the file's bytes and the rules decide is kept (not read errors, not a parse the
    // time limit stopped); the new file replaces the old one, so it holds this scan's files only.
    std::vector<ScanCache::Entry> entries;
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (outcomes[i].hash && outcomes[i].outcome.cacheable)
        entries.push_back({&walk.files[i].path, *outcomes[i].hash, &outcomes[i].outcome});
    cache->save(entries);
    result.cache_hits = cache->hits();
    result.cache_notes = cache->notes();
  }

  // Merge in walk order: the output does not depend on which worker finished first.
  for (auto& w : outcomes) {
    FileOutcome& o = w.outcome;
    result.files_scanned += o.scanned;
    result.files_parsed += o.parsed;
    append(result.findings, o.findings);
    append(result.errors, o.errors);
    append(result.skipped, o.skipped);
    result.facts.append(std::move(o.facts));
  }
  for (const auto& file : walk.files) result.files.push_back(file.path);
  if (!options.impact_overrides.empty())
    for (Finding& f : result.findings)
      if (auto it = options.impact_overrides.find(f.rule); it != options.impact_overrides.end())
        f.impact = f.guarded ? lowered(it->second) : it->second;
  for (const RepositoryPass* pass : passes) pass->run(result);
  sort_findings(result.findings);
  sort_notes(result.errors);
  sort_notes(result.skipped);
  // Two front ends reading one file may report the same problem with it once each.
  const auto same = [](const FileNote& a, const FileNote& b) { return a.path == b.path && a.reason == b.reason; };
  result.errors.erase(std::unique(result.errors.begin(), result.errors.end(), same), result.errors.end());
  result.skipped.erase(std::unique(result.skipped.begin(), result.skipped.end(), same), result.skipped.end());
  result.summary = summarize(result.findings, result.summary_context);
  return result;
}

}  // namespace mpsready
