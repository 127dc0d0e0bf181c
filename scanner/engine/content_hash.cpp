#include "engine/content_hash.h"

#include <cstring>

namespace mpsready {
namespace {

constexpr uint64_t kP0 = 0xa0761d6478bd642full;
constexpr uint64_t kP1 = 0xe7037ed1a0b428dbull;
constexpr uint64_t kP2 = 0x8ebc6af09c88c6e3ull;
constexpr uint64_t kP3 = 0x589965cc75374cc3ull;

inline uint64_t mix(uint64_t a, uint64_t b) {
  const __uint128_t product = static_cast<__uint128_t>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

// Little-endian reads through memcpy: no alignment assumptions, same value on every x86/ARM host.
inline uint64_t read64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t read32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

uint64_t content_hash(std::string_view bytes, uint64_t seed) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t len = bytes.size();
  uint64_t h = seed ^ mix(seed ^ kP0, kP1);
  uint64_t a = 0, b = 0;
  if (len <= 16) {
    if (len >= 4) {
      a = (read32(p) << 32) | read32(p + ((len >> 3) << 2));
      b = (read32(p + len - 4) << 32) | read32(p + len - 4 - ((len >> 3) << 2));
    } else if (len > 0) {
      a = (static_cast<uint64_t>(p[0]) << 16) | (static_cast<uint64_t>(p[len >> 1]) << 8) | p[len - 1];
    }
  } else {
    size_t i = len;
    if (i > 48) {
      uint64_t h1 = h, h2 = h;
      do {
        h = mix(read64(p) ^ kP1, read64(p + 8) ^ h);
        h1 = mix(read64(p + 16) ^ kP2, read64(p + 24) ^ h1);
        h2 = mix(read64(p + 32) ^ kP3, read64(p + 40) ^ h2);
        p += 48;
        i -= 48;
      } while (i > 48);
      h ^= h1 ^ h2;
    }
    while (i > 16) {
      h = mix(read64(p) ^ kP1, read64(p + 8) ^ h);
      p += 16;
      i -= 16;
    }
    a = read64(p + i - 16);
    b = read64(p + i - 8);
  }
  return mix(kP1 ^ len, mix(a ^ kP1, b ^ h));
}

}  // namespace mpsready
