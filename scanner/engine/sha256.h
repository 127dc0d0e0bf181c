#pragma once
// SHA-256 from OpenSSL's libcrypto: what the scan cache trusts a file's bytes by. A file of the
// scanned repository is hostile input, and a cache keyed by a fast non-cryptographic hash can be
// made to read one file's results for another (see README "The scan cache").
#include <array>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace mpsready {

using Sha256 = std::array<unsigned char, 32>;

// The digest of `bytes`. Safe from many threads at once.
Sha256 sha256(std::string_view bytes);

// One digest over a sequence of pieces, each preceded by its length, so ("ab", "c") and
// ("a", "bc") differ.
class Sha256Pieces {
 public:
  Sha256Pieces();
  ~Sha256Pieces();
  Sha256Pieces(const Sha256Pieces&) = delete;
  Sha256Pieces& operator=(const Sha256Pieces&) = delete;
  Sha256Pieces& add(std::string_view piece);
  Sha256 finish();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

// Lower-case hex of the first `bytes` bytes of the digest (all 32 by default).
std::string hex(const Sha256& digest, size_t bytes = 32);

}  // namespace mpsready
