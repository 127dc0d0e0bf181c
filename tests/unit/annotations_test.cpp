#include <gtest/gtest.h>

#include "fixtures/annotations.h"

namespace mpsready {

TEST(Annotations, ApplyToTheNextNonAnnotationLine) {
  const auto parsed = parse_annotations(
      "import torch\n"
      "# expect: py-a\n"
      "# ok: py-b\n"
      "x.cuda()\n"
      "    // expect-guarded: py-c, py-d\n"
      "    y();\n"
      "# todo-ok: py-a\n"
      "z = 1\n");
  EXPECT_TRUE(parsed.errors.empty());
  ASSERT_EQ(parsed.lines.size(), 3u);
  EXPECT_TRUE(parsed.lines.at(4).by_rule.at("py-a").count(Expectation::expect));
  EXPECT_TRUE(parsed.lines.at(4).by_rule.at("py-b").count(Expectation::ok));
  EXPECT_TRUE(parsed.lines.at(6).by_rule.at("py-d").count(Expectation::expect_guarded));
  EXPECT_TRUE(parsed.lines.at(8).by_rule.at("py-a").count(Expectation::todo_ok));
}

TEST(Annotations, MisspelledAndDanglingAnnotationsAreErrors) {
  EXPECT_EQ(parse_annotations("# expects: py-a\nx = 1\n").errors.size(), 1u);
  EXPECT_EQ(parse_annotations("x = 1\n# expect: py-a\n").errors.size(), 1u);
  EXPECT_EQ(parse_annotations("# expect: py-a\n\nx = 1\n").errors.size(), 1u);
  // Ordinary comments with a colon are not annotations.
  EXPECT_TRUE(parse_annotations("# note: see the docs\nx = 1\n").errors.empty());
}

}  // namespace mpsready
