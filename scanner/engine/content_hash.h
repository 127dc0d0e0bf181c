#pragma once
// A fast non-cryptographic 64-bit hash for cache keys: wyhash-style, 16 bytes per step folded
// through a 64x64->128-bit multiply. Not a defence against a chosen collision; the cache also
// compares the path and the rule-set key, so a collision can only ever reuse one file's own
// earlier results.
#include <cstdint>
#include <string>
#include <string_view>

namespace mpsready {

uint64_t content_hash(std::string_view bytes, uint64_t seed = 0);

// Hashes pieces one after another, each with its length, so ("ab","c") and ("a","bc") differ.
class HashBuilder {
 public:
  HashBuilder& add(std::string_view piece);
  HashBuilder& add(uint64_t value);
  uint64_t value() const { return state_; }

 private:
  uint64_t state_ = 0x6d707372656164ull;  // "mpsread"
};

// Sixteen lower-case hex digits.
std::string hex64(uint64_t value);

}  // namespace mpsready
