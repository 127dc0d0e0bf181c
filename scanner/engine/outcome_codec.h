#pragma once
// A compact binary form of what one file contributed to a scan (its findings, notes and facts),
// for the scan cache. Varints and length-prefixed strings; decoding checks every length against
// the buffer, so a truncated or corrupt entry is rejected instead of read out of bounds.
#include <optional>
#include <string>
#include <string_view>

#include "engine/frontend.h"

namespace mpsready {

void encode_outcome(const FileOutcome& outcome, std::string& out);

// nullopt for a malformed entry, or one naming any path other than `path` for its findings, notes
// and facts (a cache entry never speaks for another file), or a source path that is absolute or
// climbs out of the root.
std::optional<FileOutcome> decode_outcome(std::string_view bytes, const std::string& path);

// The primitives, shared with the cache file's framing.
void put_varint(std::string& out, uint64_t value);
void put_string(std::string& out, std::string_view s);

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  bool varint(uint64_t& value);
  bool string(std::string& value);
  bool view(std::string_view& value);  // a string without copying
  bool fixed64(uint64_t& value);
  bool raw(size_t size, std::string_view& value);  // exactly `size` bytes, no length prefix
  bool at_end() const { return pos_ == bytes_.size(); }
  size_t position() const { return pos_; }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

void put_fixed64(std::string& out, uint64_t value);

}  // namespace mpsready
