#include "engine/file_kinds.h"

#include "core/source_kinds.h"

#include <algorithm>
#include <cstdint>

#include "core/source_text.h"
#include <cstring>

namespace mpsready {
namespace {

std::string_view file_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}


uint32_t unit(std::string_view b, size_t i, size_t width, bool big) {
  uint32_t v = 0;
  for (size_t k = 0; k < width; ++k) {
    const auto byte = static_cast<unsigned char>(b[i + (big ? k : width - 1 - k)]);
    v = (v << 8) | byte;
  }
  return v;
}

}  // namespace

bool git_judges_binary(std::string_view bytes) {
  return std::memchr(bytes.data(), '\0', std::min(bytes.size(), kGitBinaryWindow)) != nullptr;
}

bool read_past_nul(std::string_view path) {
  // C compilers skip NUL bytes too.
  if (is_cpp_source(path) || path.ends_with(".c")) return true;
  const std::string_view name = file_name(path);
  return name.substr(0, 12) == "requirements" && (name.ends_with(".txt") || name.ends_with(".in"));
}

bool decodes_wide_bom(std::string_view path) { return !path.ends_with(".py") && !path.ends_with(".ipynb"); }

std::optional<std::string> decode_wide_bom(std::string_view b) {
  size_t width = 0;
  bool big = false;
  if (b.size() >= 4 && b.substr(0, 4) == std::string_view("\xFF\xFE\0\0", 4)) width = 4;
  else if (b.size() >= 4 && b.substr(0, 4) == std::string_view("\0\0\xFE\xFF", 4)) width = 4, big = true;
  else if (b.size() >= 2 && b.substr(0, 2) == "\xFF\xFE") width = 2;
  else if (b.size() >= 2 && b.substr(0, 2) == "\xFE\xFF") width = 2, big = true;
  else return std::nullopt;
  std::string out;
  out.reserve(b.size());
  for (size_t i = width; i + width <= b.size(); i += width) {
    uint32_t cp = unit(b, i, width, big);
    if (width == 2 && cp >= 0xD800 && cp <= 0xDBFF && i + 4 <= b.size()) {
      const uint32_t low = unit(b, i + 2, 2, big);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        i += 2;
      }
    }
    append_utf8(out, cp);
  }
  if (b.size() % width != 0) append_utf8(out, 0xFFFD);  // a truncated last unit
  return out;
}

}  // namespace mpsready
