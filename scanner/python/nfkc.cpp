#include "python/nfkc.h"

#include <cstdint>
#include <cstdlib>
#include <memory>

#include <uninorm.h>

namespace mpsready {

bool has_non_ascii(std::string_view text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  return false;
}

std::optional<std::string> nfkc(std::string_view utf8) {
  if (!has_non_ascii(utf8)) return std::string(utf8);
  size_t length = 0;
  uint8_t* normalised = u8_normalize(UNINORM_NFKC, reinterpret_cast<const uint8_t*>(utf8.data()), utf8.size(),
                                     nullptr, &length);
  if (normalised == nullptr) return std::nullopt;
  const std::unique_ptr<uint8_t, decltype(&std::free)> owned(normalised, &std::free);
  return std::string(reinterpret_cast<const char*>(normalised), length);
}

}  // namespace mpsready
