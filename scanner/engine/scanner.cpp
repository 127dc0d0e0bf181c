#include "engine/scanner.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/source_text.h"
#include "engine/file_reader.h"

namespace mpsready {
namespace {

struct Workers {
  std::vector<std::unique_ptr<FrontendWorker>> per_frontend;
};

FileOutcome scan_file(const WalkedFile& file, const std::vector<const Frontend*>& frontends,
                      Workers& workers, const ScanOptions& options) {
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
  for (size_t i = 0; i < frontends.size(); ++i) {
    if (!frontends[i]->wants(file.path)) continue;
    if (!workers.per_frontend[i]) workers.per_frontend[i] = frontends[i]->make_worker();
    workers.per_frontend[i]->analyze(file, *read.bytes, out);
  }
  return out;
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

  std::vector<FileOutcome> outcomes(walk.files.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    Workers workers;
    workers.per_frontend.resize(frontends.size());
    for (size_t i = next++; i < walk.files.size(); i = next++) {
      try {
        outcomes[i] = scan_file(walk.files[i], frontends, workers, options);
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
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(work);
    for (auto& t : threads) t.join();
  }

  // Merge in walk order: the output does not depend on which worker finished first.
  for (auto& o : outcomes) {
    result.files_scanned += o.scanned;
    result.files_parsed += o.parsed;
    append(result.findings, o.findings);
    append(result.errors, o.errors);
    append(result.skipped, o.skipped);
    result.facts.append(std::move(o.facts));
  }
  for (const RepositoryPass* pass : passes) pass->run(result);
  sort_findings(result.findings);
  sort_notes(result.errors);
  sort_notes(result.skipped);
  // Two front ends reading one file may report the same problem with it once each.
  const auto same = [](const FileNote& a, const FileNote& b) { return a.path == b.path && a.reason == b.reason; };
  result.errors.erase(std::unique(result.errors.begin(), result.errors.end(), same), result.errors.end());
  result.skipped.erase(std::unique(result.skipped.begin(), result.skipped.end(), same), result.skipped.end());
  result.summary = summarize(result.findings);
  return result;
}

}  // namespace mpsready
