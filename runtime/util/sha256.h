#pragma once
// SHA-256, for the model file's identity in the record and for output hashes that two processes
// (or two machines) compare. Self-contained so the runtime-only build needs no crypto library.
#include <cstddef>
#include <cstdint>
#include <string>

namespace mpsready {

class Sha256 {
 public:
  Sha256();
  void update(const void* data, size_t size);
  std::string hex_digest();  // finishes the hash; call once

 private:
  void block(const unsigned char* p);
  uint32_t h_[8];
  unsigned char buffer_[64];
  size_t buffered_ = 0;
  uint64_t length_ = 0;
};

std::string sha256_hex(const void* data, size_t size);
// "" when the file cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace mpsready
