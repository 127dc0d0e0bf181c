#include "core/source_text.h"

#include <algorithm>
#include <cstring>

namespace mpsready {
namespace {

constexpr uint32_t kCodePointBlock = 256;

bool starts_code_point(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is invalid.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t len = 0;
  uint32_t min = 0;
  if ((c & 0xE0) == 0xC0) { len = 2; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { len = 3; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { len = 4; min = 0x10000; }
  else return 0;
  if (i + len > s.size()) return 0;
  uint32_t cp = c & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::optional<size_t> sanitize_utf8(std::string& bytes) {
  std::optional<size_t> first;
  size_t i = 0;
  while (i < bytes.size()) {
    if (static_cast<unsigned char>(bytes[i]) < 0x80) { ++i; continue; }
    const size_t len = utf8_sequence_length(bytes, i);
    if (len == 0) {
      if (!first) first = i;
      bytes[i] = '?';
      ++i;
    } else {
      i += len;
    }
  }
  return first;
}

bool looks_binary(std::string_view bytes) {
  return std::memchr(bytes.data(), '\0', bytes.size()) != nullptr;
}

std::string shorten_utf8(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "\xE2\x80\xA6";
}

SourceText::SourceText(std::string bytes) : text_(std::move(bytes)) {
  if (text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    text_.erase(0, 3);
    had_bom_ = true;
  }
  first_invalid_ = sanitize_utf8(text_);
  line_starts_.push_back(0);
  code_points_before_block_.reserve(text_.size() / kCodePointBlock + 1);
  uint32_t code_points = 0;
  for (size_t i = 0; i < text_.size(); ++i) {
    if (i % kCodePointBlock == 0) code_points_before_block_.push_back(code_points);
    if (starts_code_point(text_[i])) ++code_points;
    if (text_[i] == '\n') line_starts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

uint32_t SourceText::code_points_before(uint32_t byte_offset) const {
  if (code_points_before_block_.empty()) return 0;  // an empty text
  // The offset just past the end of a text whose size is a multiple of the block starts no block.
  const uint32_t block =
      std::min<uint32_t>(byte_offset / kCodePointBlock, static_cast<uint32_t>(code_points_before_block_.size() - 1));
  uint32_t count = code_points_before_block_[block];
  for (uint32_t i = block * kCodePointBlock; i < byte_offset; ++i)
    if (starts_code_point(text_[i])) ++count;
  return count;
}

LineColumn SourceText::position(uint32_t byte_offset) const {
  byte_offset = std::min<uint32_t>(byte_offset, static_cast<uint32_t>(text_.size()));
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte_offset);
  const size_t line_index = static_cast<size_t>(it - line_starts_.begin()) - 1;
  // Code points: every byte that is not a continuation byte starts one.
  const uint32_t start = line_starts_[line_index];
  const int column = 1 + static_cast<int>(code_points_before(byte_offset) - code_points_before(start));
  return {static_cast<int>(line_index) + 1, column};
}

uint32_t SourceText::offset_of(int line, int byte_column) const {
  if (line < 1) return 0;
  if (line > line_count()) return static_cast<uint32_t>(text_.size());
  const uint64_t offset = uint64_t{line_starts_[static_cast<size_t>(line - 1)]} +
                          static_cast<uint64_t>(std::max(byte_column, 1) - 1);
  return static_cast<uint32_t>(std::min<uint64_t>(offset, text_.size()));
}

std::string_view SourceText::line(int line) const {
  if (line < 1 || line > line_count()) return {};
  const uint32_t start = line_starts_[static_cast<size_t>(line - 1)];
  uint32_t end = line < line_count() ? line_starts_[static_cast<size_t>(line)]
                                     : static_cast<uint32_t>(text_.size());
  std::string_view view(text_.data() + start, end - start);
  while (!view.empty() && (view.back() == '\n' || view.back() == '\r')) view.remove_suffix(1);
  return view;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace mpsready
