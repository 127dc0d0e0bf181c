#include <gtest/gtest.h>

#include "core/dotted_pattern.h"
#include "rules/message_template.h"

namespace mpsready {

TEST(DottedPattern, ExactWildcardAndAny) {
  EXPECT_TRUE(dotted_pattern_matches("torch.cuda.synchronize", "torch.cuda.synchronize"));
  EXPECT_FALSE(dotted_pattern_matches("torch.cuda.synchronize", "torch.cuda.synchronize_all"));
  EXPECT_TRUE(dotted_pattern_matches("torch.cuda.*", "torch.cuda.nvtx.range_push"));
  EXPECT_FALSE(dotted_pattern_matches("torch.cuda.*", "torch.cuda"));
  EXPECT_FALSE(dotted_pattern_matches("torch.cuda.*", "torch.cudax.y"));
  EXPECT_TRUE(dotted_pattern_matches("*", "anything"));
  EXPECT_FALSE(dotted_pattern_matches("torch.cuda.*", ""));
}

TEST(DottedPattern, ExactIsMoreSpecificThanWildcard) {
  EXPECT_GT(dotted_pattern_specificity("torch.cuda.synchronize"), dotted_pattern_specificity("torch.cuda.*"));
  EXPECT_GT(dotted_pattern_specificity("torch.cuda.*"), dotted_pattern_specificity("*"));
}

TEST(MessageTemplate, FillsKnownPlaceholdersAndKeepsUnknown) {
  EXPECT_EQ(fill_template("`{callee}` has no {what}", {{"callee", "x.cuda"}}), "`x.cuda` has no {what}");
  EXPECT_EQ(fill_template("unclosed {brace", {{"brace", "x"}}), "unclosed {brace");
}

}  // namespace mpsready
