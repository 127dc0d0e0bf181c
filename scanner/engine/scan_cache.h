#pragma once
// The incremental scan cache (`scan --cache DIR`). One file per repository root and rule-set key
// holds, for every file of the last scan, its size and SHA-256 (engine/content_identity.h) and
// what it contributed (findings, notes, facts). A file whose path, size and SHA-256 match is not
// analysed again; the repository
// passes, suppressions and the verdict always run on the whole merged result, so a warm scan's
// report is byte-identical to a cold one's.
//
// Written atomically (a temporary file renamed over the old one), so two scans sharing DIR never
// see a half-written cache: the last one to finish wins. Bounded: the file holds only the files
// of the last scan, and DIR keeps the most recently used kMaxCacheFiles cache files. A corrupt,
// torn or foreign file, or one in another format, is ignored with a note.
//
// What it defends: a repository's *content* cannot make one file's cached results stand for
// another's (that needs a SHA-256 collision). What it does not: whoever can write DIR can make
// the cache say anything; the trailing checksum only catches a torn or damaged file.
#include <cstdint>
#include <filesystem>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/content_identity.h"
#include "engine/frontend.h"

namespace mpsready {

constexpr size_t kMaxCacheFiles = 8;

// The first line of a cache file: its format. Format 1 (a 64-bit fast hash per file) is read as
// a foreign file and never trusted. Then: the key; the number of entries; per entry its path,
// size (varint), SHA-256 (32 bytes) and encoded outcome; then a checksum of everything before it
// (content_hash, 8 bytes little-endian), against torn files, not against someone who can write DIR.
constexpr std::string_view kCacheFormatLine = "mpsready-cache 2\n";

class ScanCache {
 public:
  // `key`: everything besides a file's bytes that shapes its analysis (tool version, rule set,
  // options); `root`: the scanned root (each root has its own cache file).
  ScanCache(std::filesystem::path dir, const std::string& key, const std::filesystem::path& root);

  // Reads the cache file, if any. Problems become notes (see notes()); the scan goes on cold.
  void load();
  // The cached outcome of `path` with these bytes, or nullopt. Safe to call from many threads
  // once load() returned.
  std::optional<FileOutcome> lookup(const std::string& path, const ContentIdentity& identity) const;
  // Writes the new cache file: `entries` are (path, identity, outcome) of every file of this scan
  // whose outcome may be reused. Returns false (with a note) when it cannot be written. When
  // every entry was a hit of the file that was loaded, the file is left as it is (only its time
  // is renewed, for pruning): rewriting tens of MB would dominate an unchanged rescan.
  struct Entry {
    const std::string* path;
    ContentIdentity identity;
    const FileOutcome* outcome;
  };
  bool save(const std::vector<Entry>& entries);

  // What load() accepted, in no particular order (for tests and the fuzz target).
  std::vector<std::pair<std::string, ContentIdentity>> loaded() const;

  // What went wrong with the cache, for stderr; never part of the report.
  const std::vector<std::string>& notes() const { return notes_; }
  const std::filesystem::path& file() const { return file_; }
  size_t hits() const { return hits_; }

 private:
  struct Cached {
    ContentIdentity identity;
    std::string_view blob;  // into buffer_
    // Set by lookup() when the blob decoded for these very bytes: save() then copies the bytes
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
