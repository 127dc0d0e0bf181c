// Fuzz target for the scan cache file (`scan --cache DIR`): a cache restored by CI, or damaged on
// disk, is read before anything else of the scan. Decoding arbitrary bytes as a cache file must
// never crash, a damaged file must be ignored (with a note) rather than partly trusted, and an
// entry must be used only for its own path and the exact size and SHA-256 it was stored with.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "engine/content_hash.h"
#include "engine/outcome_codec.h"
#include "engine/scan_cache.h"
#include "fuzz/fuzz_targets.h"

namespace mpsready::fuzz {

namespace fs = std::filesystem;

namespace {

struct CacheSandbox {
  fs::path dir;
  CacheSandbox() {
    std::string name = (fs::temp_directory_path() / "mpsready-fuzz-cache-XXXXXX").string();
    if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a temporary directory");
    dir = name;
  }
  ~CacheSandbox() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

void write_cache_file(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The key the file names (so that cache files written by real scans, used as seeds, get past the
// key check); "fuzz" when there is none to read.
std::string stored_key(std::string_view bytes) {
  if (bytes.substr(0, kCacheFormatLine.size()) != kCacheFormatLine) return "fuzz";
  ByteReader r(bytes.substr(kCacheFormatLine.size()));
  std::string key;
  return r.string(key) ? key : "fuzz";
}

bool checksum_holds(std::string_view bytes) {
  if (bytes.size() < 8) return false;
  uint64_t stored = 0;
  ByteReader trailer(bytes.substr(bytes.size() - 8));
  return trailer.fixed64(stored) && stored == content_hash(bytes.substr(0, bytes.size() - 8));
}

// Every path an outcome carries must be the one it was looked up for.
bool speaks_only_for(const FileOutcome& o, const std::string& path) {
  for (const Finding& f : o.findings)
    if (f.path != path) return false;
  for (const FileNote& n : o.errors)
    if (n.path != path) return false;
  for (const FileNote& n : o.skipped)
    if (n.path != path) return false;
  return true;
}

void check_one(const CacheSandbox& sandbox, std::string_view bytes) {
  const fs::path dir = sandbox.dir / "cache";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  const std::string key = stored_key(bytes);
  const fs::path root = sandbox.dir / "repo";
  ScanCache cache(dir, key, root);
  write_cache_file(cache.file(), bytes);
  cache.load();
  const auto loaded = cache.loaded();
  // Only a whole file of this format, with its checksum, is read at all.
  if (!loaded.empty() && (bytes.substr(0, kCacheFormatLine.size()) != kCacheFormatLine || !checksum_holds(bytes)))
    std::abort();
  if (!cache.notes().empty() && !loaded.empty()) std::abort();

  std::set<std::string> paths;
  std::vector<std::pair<std::string, FileOutcome>> hits;
  for (size_t i = 0; i < loaded.size() && i < 256; ++i) {
    const auto& [path, identity] = loaded[i];
    paths.insert(path);
    // Nothing but the exact size and digest finds an entry.
    ContentIdentity other_size = identity, other_digest = identity;
    ++other_size.size;
    other_digest.digest[i % other_digest.digest.size()] ^= 0x80;
    if (cache.lookup(path, other_size) || cache.lookup(path, other_digest)) std::abort();
    if (auto outcome = cache.lookup(path, identity)) {
      if (!speaks_only_for(*outcome, path)) std::abort();
      hits.emplace_back(path, std::move(*outcome));
    }
  }
  if (!paths.count("not-in-the-cache.py") && cache.lookup("not-in-the-cache.py", ContentIdentity{})) std::abort();

  // What was reused is written back, and reads back the same.
  if (hits.empty()) return;
  std::vector<ScanCache::Entry> entries;
  for (const auto& [path, identity] : loaded)
    for (const auto& hit : hits)
      if (hit.first == path) entries.push_back({&hit.first, identity, &hit.second});
  if (!cache.save(entries)) return;  // an unwritable directory is a note, not a crash
  ScanCache again(dir, key, root);
  again.load();
  if (!again.notes().empty()) std::abort();
  for (const ScanCache::Entry& e : entries) {
    const auto back = again.lookup(*e.path, e.identity);
    if (!back) std::abort();
    std::string before, after;
    encode_outcome(*e.outcome, before);
    encode_outcome(*back, after);
    if (before != after) std::abort();
  }
}

}  // namespace

// Each input is read twice: as it is (almost always a checksum mismatch for a mutated file), and
// with its last 8 bytes replaced by the checksum of the rest, so that mutations reach the entries.
void fuzz_scan_cache(std::string_view bytes) {
  static const CacheSandbox sandbox;
  check_one(sandbox, bytes);
  if (bytes.substr(0, kCacheFormatLine.size()) != kCacheFormatLine || bytes.size() < kCacheFormatLine.size() + 8) return;
  std::string fixed(bytes.substr(0, bytes.size() - 8));
  put_fixed64(fixed, content_hash(fixed));
  if (fixed != bytes) check_one(sandbox, fixed);
}

}  // namespace mpsready::fuzz
