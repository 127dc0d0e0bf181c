#include <gtest/gtest.h>

#include "core/source_text.h"

namespace mpsready {

TEST(SourceText, CountsColumnsInCodePointsAndStripsBom) {
  const SourceText text("\xEF\xBB\xBFx = 1\r\n\xC3\xA9t\xC3\xA9 = y.cuda()\n");
  EXPECT_TRUE(text.had_bom());
  const auto pos = text.position(static_cast<uint32_t>(text.text().find("cuda")));
  EXPECT_EQ(pos.line, 2);
  EXPECT_EQ(pos.column, 9);  // é, t, é count one column each
  EXPECT_EQ(text.line(1), "x = 1");
  EXPECT_EQ(text.line(2), "\xC3\xA9t\xC3\xA9 = y.cuda()");
}

TEST(SourceText, ReplacesInvalidUtf8AndRemembersWhere) {
  const SourceText text(std::string("ok = 1\nname = '\xE9t\xE9'\n"));  // Latin-1 bytes
  ASSERT_TRUE(text.first_invalid_utf8().has_value());
  EXPECT_EQ(*text.first_invalid_utf8(), 15u);
  EXPECT_EQ(text.line(2), "name = '?t?'");
}

TEST(SourceText, RejectsOverlongAndSurrogateSequences) {
  std::string overlong = "\xC0\xAF";
  EXPECT_EQ(sanitize_utf8(overlong), 0u);
  std::string surrogate = "a\xED\xA0\x80";
  EXPECT_EQ(sanitize_utf8(surrogate), 1u);
  std::string fine = "\xF0\x9F\x98\x80 ok";
  EXPECT_FALSE(sanitize_utf8(fine).has_value());
}

TEST(SourceText, DetectsBinaryByNulByte) {
  EXPECT_TRUE(looks_binary(std::string("abc\0def", 7)));
  EXPECT_FALSE(looks_binary("import torch\n"));
}

TEST(SourceText, ShortensWithoutSplittingCharacters) {
  EXPECT_EQ(shorten_utf8("\xC3\xA9\xC3\xA9\xC3\xA9", 3), "\xC3\xA9\xE2\x80\xA6");
  EXPECT_EQ(shorten_utf8("short", 10), "short");
}

TEST(SourceText, PositionAtEndOfFileWithoutNewline) {
  const SourceText text("a\nbc");
  EXPECT_EQ(text.position(4).line, 2);
  EXPECT_EQ(text.position(4).column, 3);
  EXPECT_EQ(text.line_count(), 2);
}

}  // namespace mpsready

namespace mpsready {

// Columns come from per-block code-point counts; they must equal a plain count from the line's
// start at every offset, across block boundaries, multi-byte characters and the end of the text.
TEST(SourceText, ColumnsAgreeWithAPlainCountAtEveryOffset) {
  std::string bytes;
  for (int i = 0; i < 300; ++i) bytes += (i % 7 == 0) ? "\xC3\xA9" : (i % 97 == 0 ? "\n" : "x");
  bytes += std::string(512 - bytes.size() % 256, 'y');  // the text ends exactly on a block edge
  const SourceText text(bytes);
  ASSERT_EQ(text.text().size() % 256, 0u);
  int line = 1, column = 1;
  for (uint32_t offset = 0; offset <= text.text().size(); ++offset) {
    if (offset == text.text().size() || (static_cast<unsigned char>(text.text()[offset]) & 0xC0) != 0x80) {
      const LineColumn pos = text.position(offset);
      ASSERT_EQ(pos.line, line) << offset;
      ASSERT_EQ(pos.column, column) << offset;
    }
    if (offset == text.text().size()) break;
    const char c = text.text()[offset];
    if (c == '\n') line += 1, column = 1;
    else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) column += 1;
  }
}

}  // namespace mpsready
