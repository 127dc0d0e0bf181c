#pragma once
// The bytes of one file as analysed: BOM removed, invalid UTF-8 replaced, with a line index so
// byte offsets map to 1-based lines and code-point columns.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

struct LineColumn {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, Unicode code points
};

class SourceText {
 public:
  explicit SourceText(std::string bytes);

  std::string_view text() const { return text_; }
  bool had_bom() const { return had_bom_; }
  // Byte offset of the first invalid UTF-8 sequence in the original bytes, if any. Invalid
  // bytes are replaced by '?' so offsets stay the same and outputs stay valid UTF-8.
  std::optional<size_t> first_invalid_utf8() const { return first_invalid_; }

  LineColumn position(uint32_t byte_offset) const;
  // The byte offset of a 1-based line and 1-based byte column (clamped to the text).
  uint32_t offset_of(int line, int byte_column) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }
  // The text of a 1-based line without its line ending.
  std::string_view line(int line) const;

 private:
  std::string text_;
  bool had_bom_ = false;
  std::optional<size_t> first_invalid_;
  std::vector<uint32_t> line_starts_;
  // Code points before each block of kCodePointBlock bytes: a column is found in time bounded by
  // one block, not by the line's length (a 50 MB one-line file with many sites stays linear).
  std::vector<uint32_t> code_points_before_block_;
  uint32_t code_points_before(uint32_t byte_offset) const;
};

// True if the bytes look binary (a NUL byte anywhere).
bool looks_binary(std::string_view bytes);

// Replaces every invalid UTF-8 sequence in place by '?'; returns the offset of the first one.
std::optional<size_t> sanitize_utf8(std::string& bytes);

// Appends one code point as UTF-8; a surrogate or a value past U+10FFFF becomes U+FFFD.
void append_utf8(std::string& out, uint32_t code_point);

// Cuts text to at most max_bytes without splitting a UTF-8 sequence, adding "…" when cut.
std::string shorten_utf8(std::string_view text, size_t max_bytes);

}  // namespace mpsready
