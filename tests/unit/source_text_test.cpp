#include <gtest/gtest.h>

#include "core/source_text.h"

namespace mpsready {

TEST(SourceText, CountsColumnsInCodePointsAndStripsBom) {
  const SourceText text("\xEF\xBB\xBFx = 1\r\n\xC3\xA9t\xC3\xA9 = y.cuda()\n");
  EXPECT_TRUE(text.had_bom());
  const auto pos = text.position(static_cast<uint32_t>(text.text().find("cuda")));
  EXPECT_EQ(pos.line, 2);
  EXPECT_EQ(pos.column, 10);
  EXPECT_EQ(text.line(1), "x = 1");
}

}  // namespace mpsready
