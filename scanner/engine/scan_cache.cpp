#include "engine/scan_cache.h"

#include <algorithm>
#include <chrono>
#include <fstream>

#include <stdlib.h>
#include <unistd.h>

#include "engine/content_hash.h"
#include "engine/outcome_codec.h"
#include "engine/sha256.h"

namespace mpsready {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFormatPrefix = "mpsready-cache ";
constexpr std::string_view kSuffix = ".mpsready-cache";
constexpr std::string_view kTempPrefix = ".mpsready-cache-tmp-";

fs::path canonical_or_absolute(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? fs::absolute(p, ec) : c;
}

// Keeps the most recently written cache files, and drops temporary files a killed scan left.
void prune(const fs::path& dir) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> caches;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code sec;
    if (!it->is_regular_file(sec)) continue;
    const auto mtime = it->last_write_time(sec);
    if (sec) continue;
    if (name.size() > kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
      caches.emplace_back(mtime, it->path());
    } else if (name.rfind(kTempPrefix, 0) == 0 && now - mtime > std::chrono::hours(1)) {
      fs::remove(it->path(), sec);
    }
  }
  if (caches.size() <= kMaxCacheFiles) return;
  std::sort(caches.begin(), caches.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = kMaxCacheFiles; i < caches.size(); ++i) fs::remove(caches[i].second, ec);
}

}  // namespace

ScanCache::ScanCache(fs::path dir, const std::string& key, const fs::path& root) : dir_(std::move(dir)), key_(key) {
  // The format is part of the name too: a file of another format is not even opened, as a rule.
  const Sha256 name = Sha256Pieces().add(kCacheFormatLine).add(key).add(canonical_or_absolute(root).string()).finish();
  file_ = dir_ / (hex(name, 16) + std::string(kSuffix));
}

void ScanCache::load() {
  std::error_code ec;
  if (!fs::exists(file_, ec)) return;
  // One read of the whole file (a cache of a large tree is tens of MB).
  std::ifstream in(file_, std::ios::binary);
  const auto size = fs::file_size(file_, ec);
  if (in && !ec) {
    buffer_.resize(static_cast<size_t>(size));
    in.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  }
  if (!in || ec) {
    notes_.push_back("cannot read the scan cache " + file_.string() + "; scanning without it");
    buffer_.clear();
    return;
  }
  const auto corrupt = [&](const std::string& why) {
    notes_.push_back("ignoring the scan cache " + file_.string() + " (" + why + "); scanning without it");
    entries_.clear();
    buffer_.clear();
  };
  const std::string_view all(buffer_);
  if (all.substr(0, kCacheFormatLine.size()) != kCacheFormatLine) {
    // An older (or newer) mpsready's cache: never read past its first line.
    const size_t eol = all.find('\n');
    if (all.substr(0, kFormatPrefix.size()) == kFormatPrefix && eol != std::string_view::npos && eol <= 32)
      return corrupt("cache format " + std::string(all.substr(kFormatPrefix.size(), eol - kFormatPrefix.size())) +
                     ", this version reads format " +
                     std::string(kCacheFormatLine.substr(kFormatPrefix.size(), kCacheFormatLine.size() - kFormatPrefix.size() - 1)));
    return corrupt("not a cache file");
  }
  if (all.size() < kCacheFormatLine.size() + 8) return corrupt("truncated header");
  // The checksum covers everything before it: a torn or damaged file is not read.
  const std::string_view body = all.substr(0, all.size() - 8);
  uint64_t checksum = 0;
  ByteReader trailer(all.substr(all.size() - 8));
  if (!trailer.fixed64(checksum) || checksum != content_hash(body)) return corrupt("checksum mismatch");
  ByteReader r(body.substr(kCacheFormatLine.size()));
  std::string_view key;
  uint64_t count = 0;
  if (!r.view(key) || !r.varint(count)) return corrupt("truncated header");
  // A different rule set or version hashed to the same name: nothing in it applies.
  if (key != key_) return;
  for (uint64_t i = 0; i < count; ++i) {
    std::string_view path, digest, blob;
    ContentIdentity identity;
    if (!r.view(path) || !r.varint(identity.size) || !r.raw(identity.digest.size(), digest) || !r.view(blob))
      return corrupt("truncated entry");
    std::copy(digest.begin(), digest.end(), identity.digest.begin());
    entries_[path] = Cached{identity, blob};
  }
  if (!r.at_end()) return corrupt("trailing bytes");
}

std::optional<FileOutcome> ScanCache::lookup(const std::string& path, const ContentIdentity& identity) const {
  const auto it = entries_.find(path);
  if (it == entries_.end() || !(it->second.identity == identity)) return std::nullopt;
  auto outcome = decode_outcome(it->second.blob, path);
  if (outcome) {
    it->second.hit = true;
    ++hits_;
  }
  return outcome;
}

bool ScanCache::save(const std::vector<Entry>& entries) {
  const auto reusable = [&](const Entry& e) -> const Cached* {
    const auto it = entries_.find(*e.path);
    return it != entries_.end() && it->second.hit && it->second.identity == e.identity ? &it->second : nullptr;
  };
  // Hits are distinct loaded paths, so as many hits as entries, and as many as were loaded,
  // means the new file would hold the same entries in the same (walk) order.
  if (!entries.empty() && hits_ == entries.size() && entries_.size() == entries.size() &&
      std::all_of(entries.begin(), entries.end(), [&](const Entry& e) { return reusable(e) != nullptr; })) {
    std::error_code ec;
    fs::last_write_time(file_, fs::file_time_type::clock::now(), ec);
    return true;
  }
  std::error_code ec;
  fs::create_directories(dir_, ec);
  std::string data(kCacheFormatLine);
  data.reserve(buffer_.size() + (buffer_.size() >> 3) + 4096);
  put_string(data, key_);
  put_varint(data, entries.size());
  std::string blob;
  for (const Entry& e : entries) {
    put_string(data, *e.path);
    put_varint(data, e.identity.size);
    data.append(reinterpret_cast<const char*>(e.identity.digest.data()), e.identity.digest.size());
    if (const Cached* cached = reusable(e)) {
      put_string(data, cached->blob);
      continue;
    }
    blob.clear();
    encode_outcome(*e.outcome, blob);
    put_string(data, blob);
  }
  put_fixed64(data, content_hash(data));

  std::string temp = (dir_ / (std::string(kTempPrefix) + "XXXXXX")).string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) {
    notes_.push_back("cannot write the scan cache in " + dir_.string());
    return false;
  }
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  const bool ok = ::close(fd) == 0 && written == data.size();
  // rename() replaces the old file in one step: a concurrent reader sees the old or the new one.
  if (!ok || ::rename(temp.c_str(), file_.c_str()) != 0) {
    ::unlink(temp.c_str());
    notes_.push_back("cannot write the scan cache " + file_.string());
    return false;
  }
  prune(dir_);
  return true;
}

std::vector<std::pair<std::string, ContentIdentity>> ScanCache::loaded() const {
  std::vector<std::pair<std::string, ContentIdentity>> out;
  for (const auto& [path, cached] : entries_) out.emplace_back(std::string(path), cached.identity);
  return out;
}

}  // namespace mpsready
