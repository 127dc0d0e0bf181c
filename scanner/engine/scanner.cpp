#include "engine/scanner.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "core/source_text.h"
#include "engine/content_identity.h"
#include "engine/file_kinds.h"
#include "engine/file_reader.h"
#include "engine/in_flight.h"
#include "engine/notebook_stream.h"
#include "engine/progress_line.h"
#include "engine/scan_cache.h"
#include "engine/watched_workers.h"

namespace mpsready {
namespace {

struct Workers {
  std::vector<std::unique_ptr<FrontendWorker>> per_frontend;
};

// The size and SHA-256 of the bytes that were read, for the cache (nullopt: not read, never
// cached).
struct FileWork {
  FileOutcome outcome;
  std::optional<ContentIdentity> identity;
};

// The reason a supervisor gave for leaving this file out (a crash or hang in an earlier attempt).
const std::string* quarantine_reason(unsigned scan, const std::string& path) {
  for (const QuarantinedFile& q : supervision().quarantined)
    if (q.file.scan == scan && q.file.path == path) return &q.reason;
  return nullptr;
}

FileWork scan_file(const WalkedFile& file, const std::vector<const Frontend*>& frontends, Workers& workers,
                   const ScanOptions& options, const ScanCache* cache, unsigned scan) {
  FileWork work;
  FileOutcome& out = work.outcome;
  if (const std::string* reason = quarantine_reason(scan, file.path)) {
    out.errors.push_back({file.path, *reason, true});
    out.cacheable = false;
    return work;
  }
  // A supervising parent learns from this which file a crash or hang belongs to (reading is
  // included: a front end that reads in part parses the file's headers there).
  // Its time budget grows with the size it has now; a file read in part (an extension binary's
  // dynamic section) counts at most the ordinary size limit, since only its headers are read.
  const bool replaced = options.replaced_files && options.replaced_files->count(file.path);
  const Frontend* partial = nullptr;  // the front end that reads this file itself, in part
  for (const Frontend* f : frontends)
    if (!partial && f->reads_in_part(file.path)) partial = f;
  uint64_t budget_bytes = 0;
  struct stat st {};
  if (replaced) {
    budget_bytes = options.replaced_files->at(file.path).size();
  } else if (::lstat(file.absolute.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    budget_bytes = static_cast<uint64_t>(st.st_size);
  }
  if (partial) budget_bytes = std::min<uint64_t>(budget_bytes, options.walk.max_file_size);
  const InFlightMark in_flight(scan, file.path, budget_bytes);
  ReadResult read;
  if (!replaced && partial) {
    read = partial->read_part(file.absolute, partial_read_limit(options.walk.max_file_size));
  } else if (!replaced && is_notebook_file(file.path) && ::lstat(file.absolute.c_str(), &st) == 0 &&
      static_cast<uintmax_t>(st.st_size) > options.walk.max_file_size) {
    // Over the limit, usually for its outputs: only the code cells count (and are kept).
    NotebookStream streamed = stream_notebook(file.absolute.string(), options.walk.max_file_size);
    if (!streamed.skipped.empty()) {
      out.skipped.push_back({file.path, streamed.skipped});
      return work;
    }
    read.bytes = std::move(streamed.reduced);
    read.error = std::move(streamed.error);
  } else {
    read = read_scanned_file(file.path, file.absolute, options);
  }
  if (!read.bytes) {
    out.errors.push_back({file.path, read.error, true});
    return work;
  }
  if (!partial && decodes_wide_bom(file.path))
    if (std::optional<std::string> text = decode_wide_bom(*read.bytes)) read.bytes = std::move(text);
  if (cache) {
    // The very bytes analysed below are the ones identified: nothing about the file (its time, its
    // git object, a diff) stands in for them.
    work.identity = identify_content(*read.bytes);
    if (auto cached = cache->lookup(file.path, *work.identity)) {
      out = std::move(*cached);
      return work;
    }
  }
  if (git_judges_binary(*read.bytes) && !read_past_nul(file.path)) {
    out.skipped.push_back({file.path, "binary file (a NUL byte in its first 8,000 bytes, as git judges)"});
    return work;
  }
  // Past git's window, or in a file whose compiler or pip reads on: NUL bytes are read as spaces
  // (offsets unchanged), and said.
  if (const size_t nul = read.bytes->find('\0'); nul != std::string::npos) {
    out.errors.push_back({file.path, "contains NUL bytes (the first at offset " + std::to_string(nul) +
                                         "); they were read as spaces"});
    std::replace(read.bytes->begin(), read.bytes->end(), '\0', ' ');
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

ReadResult read_scanned_file(const std::string& relative, const std::filesystem::path& absolute,
                             const ScanOptions& options) {
  if (options.replaced_files) {
    const auto it = options.replaced_files->find(relative);
    if (it != options.replaced_files->end()) {
      ReadResult read;
      if (it->second.size() > options.walk.max_file_size) read.error = "larger than the size limit once fixed";
      else read.bytes = it->second;
      return read;
    }
  }
  return read_repository_file(absolute, options.walk.max_file_size);
}

ScanResult run_scan(const std::filesystem::path& root, const std::vector<const Frontend*>& frontends,
                    const std::vector<const RepositoryPass*>& passes, ScanOptions options) {
  ScanResult result;
  const unsigned scan = next_scan_ordinal();
  options.walk.wanted = [&](std::string_view path) {
    return std::any_of(frontends.begin(), frontends.end(), [&](const Frontend* f) { return f->wants(path); });
  };
  options.walk.read_in_part = [&](std::string_view path) {
    return std::any_of(frontends.begin(), frontends.end(), [&](const Frontend* f) { return f->reads_in_part(path); });
  };
  std::vector<FileNote> setup_errors;
  for (const Frontend* f : frontends) f->begin_scan(root, setup_errors);
  WalkResult walk = walk_repository(root, options.walk);
  result.errors = std::move(walk.errors);
  append(result.errors, setup_errors);
  result.skipped = std::move(walk.skipped);
  result.files_ignored = walk.ignored;
  result.unmatched_excludes = std::move(walk.unmatched_excludes);

  std::optional<ScanCache> cache;
  if (!options.cache_dir.empty()) {
    cache.emplace(options.cache_dir, options.cache_key, root);
    cache->load();
  }
  std::optional<ProgressLine> progress;
  if (options.progress) progress.emplace(STDERR_FILENO, walk.files.size());

  std::vector<FileWork> outcomes(walk.files.size());
  // Suspects (files in flight on several threads when an earlier attempt crashed) go first, one
  // at a time, so that a crash among them names a single file; then the rest, on every thread.
  std::vector<char> suspect(walk.files.size(), 0);
  for (const ScanFileId& s : supervision().suspects)
    if (s.scan == scan)
      for (size_t i = 0; i < walk.files.size(); ++i)
        if (walk.files[i].path == s.path) suspect[i] = 1;
  std::vector<size_t> suspects_first, the_rest;
  for (size_t i = 0; i < walk.files.size(); ++i) (suspect[i] ? suspects_first : the_rest).push_back(i);
  // Threads take the next file from a shared cursor, so a thread that takes the place of one
  // stuck in a front end (watched_workers.h) goes on where the others are.
  const auto run_phase = [&](const std::vector<size_t>& order, unsigned threads) {
    std::atomic<size_t> cursor{0};
    const auto work = [&] {
      Workers workers;
      workers.per_frontend.resize(frontends.size());
      for (size_t k = cursor++; k < order.size(); k = cursor++) {
        const size_t i = order[k];
        try {
          outcomes[i] = scan_file(walk.files[i], frontends, workers, options, cache ? &*cache : nullptr, scan);
        } catch (const std::exception& e) {
          // One bad file must not end the scan; say so and go on.
          outcomes[i] = FileWork{};
          outcomes[i].outcome.errors.push_back({walk.files[i].path, std::string("internal error: ") + e.what(), true});
        }
        if (progress) progress->file_done(outcomes[i].outcome.findings.size());
      }
    };
    run_watched_workers(threads, work, [&] { return cursor.load() < order.size(); });
  };
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, std::max<size_t>(1, walk.files.size())));
  if (!suspects_first.empty()) run_phase(suspects_first, 1);
  run_phase(the_rest, jobs);
  if (progress) progress->finish();

  if (cache) {
    // Only what the file's bytes and the rules decide is kept (not read errors, not a parse the
    // time limit stopped); the new file replaces the old one, so it holds this scan's files only.
    std::vector<ScanCache::Entry> entries;
    for (size_t i = 0; i < outcomes.size(); ++i)
      if (outcomes[i].identity && outcomes[i].outcome.cacheable)
        entries.push_back({&walk.files[i].path, *outcomes[i].identity, &outcomes[i].outcome});
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
  for (const RepositoryPass* pass : passes) pass->run(result);
  sort_findings(result.findings);
  sort_notes(result.errors);
  sort_notes(result.skipped);
  // Two front ends reading one file may report the same problem with it once each.
  const auto same = [](const FileNote& a, const FileNote& b) { return a.path == b.path && a.reason == b.reason; };
  result.errors.erase(std::unique(result.errors.begin(), result.errors.end(), same), result.errors.end());
  result.skipped.erase(std::unique(result.skipped.begin(), result.skipped.end(), same), result.skipped.end());
  return result;
}

size_t unread_count(const ScanResult& result) {
  return static_cast<size_t>(std::count_if(result.errors.begin(), result.errors.end(), [](const FileNote& n) { return n.unread; }));
}

std::string incomplete_sentence(const ScanResult& result) {
  const size_t n = unread_count(result);
  if (n == 0) return "";
  return "incomplete: " + std::to_string(n) + (n == 1 ? " file" : " files") + " could not be read";
}

}  // namespace mpsready
