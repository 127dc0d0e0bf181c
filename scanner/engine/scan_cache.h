#pragma once
// The incremental scan cache (`scan --cache DIR`). One file per repository root and rule-set key
// holds, for every file of the last scan, its content hash and what it contributed (findings,
// notes, facts). A file whose path and content hash match is not analysed again; the repository
// passes, suppressions and the verdict always run on the whole merged result, so a warm scan's
// report is byte-identical to a cold one's.
//
// Written atomically (a temporary file renamed over the old one), so two scans sharing DIR never
// see a half-written cache: the last one to finish wins. Bounded: the file holds only the files
// of the last scan, and DIR keeps the most recently used kMaxCacheFiles cache files. A corrupt or
// foreign file is ignored with a note.
#include <cstdint>
#include <filesystem>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/frontend.h"

namespace mpsready {

constexpr size_t kMaxCacheFiles = 8;

class ScanCache {
 public:
  // `key`: everything besides a file's bytes that shapes its analysis (tool version, rule set,
  // options); `root`: the scanned root (each root has its own cache file).
  ScanCache(std::filesystem::path dir, const std::string& key, const std::filesystem::path& root);

  // Reads the cache file, if any. Problems become notes (see notes()); the scan goes on cold.
  void load();
  // The cached outcome of `path` with these bytes, or nullopt. Safe to call from many threads
  // once load() returned.
  std::optional<FileOutcome> lookup(const std::string& path, uint64_t hash) const;
  // Writes the new cache file: `entries` are (path, hash, outcome) of every file of this scan
  // whose outcome may be reused. Returns false (with a note) when it cannot be written. When
  // every entry was a hit of the file that was loaded, the file is left as it is (only its time
  // is renewed, for pruning): rewriting tens of MB would dominate an unchanged rescan.
  struct Entry {
    const std::string* path;
    uint64_t hash;
    const FileOutcome* outcome;
  };
  bool save(const std::vector<Entry>& entries);

  // What went wrong with the cache, for stderr; never part of the report.
  const std::vector<std::string>& notes() const { return notes_; }
  const std::filesystem::path& file() const { return file_; }
  size_t hits() const { return hits_; }

 private:
  struct Cached {
    uint64_t hash;
    std::string_view blob;  // into buffer_
    // Set by lookup() when the blob decoded for this very hash: save() then copies the bytes
    // instead of encoding the outcome again. Each path is looked up by one worker only.
    mutable bool hit = false;
  };
  std::filesystem::path dir_;
  std::string key_;
  std::filesystem::path file_;
  std::string buffer_;
  std::unordered_map<std::string_view, Cached> entries_;  // keys point into buffer_
  std::vector<std::string> notes_;
  mutable std::atomic<size_t> hits_{0};
};

}  // namespace mpsready
