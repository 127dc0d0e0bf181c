#pragma once
// What the scan cache knows a file's bytes by: their size and their SHA-256, always computed
// from the bytes just read for analysis (never from a timestamp, an inode or a git object id),
// so a cached outcome is reused only for the very bytes it was computed from. A fast 64-bit hash
// is not enough here: the bytes come from the scanned repository, and one crafted block can make
// two different files of one length hash alike (tests/hostile/cache_poisoning_test.cpp).
#include <cstdint>
#include <string_view>

#include "engine/sha256.h"

namespace mpsready {

struct ContentIdentity {
  uint64_t size = 0;
  Sha256 digest{};
  bool operator==(const ContentIdentity&) const = default;
};

inline ContentIdentity identify_content(std::string_view bytes) { return {bytes.size(), sha256(bytes)}; }

}  // namespace mpsready
