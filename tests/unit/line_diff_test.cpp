// The in-process line diff of diff mode and the Python scopes its fingerprints use.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/diff_files.h"
#include "cli/line_diff.h"

namespace mpsready::testing {

namespace {

// The 1-based numbers of the lines of `after` that count as added.
std::vector<int> added(const std::string& before, const std::string& after, size_t max_edits = 3000) {
  const std::vector<bool> marks = added_lines(split_lines(before), split_lines(after), max_edits);
  std::vector<int> out;
  for (size_t i = 0; i < marks.size(); ++i)
    if (marks[i]) out.push_back(static_cast<int>(i) + 1);
  return out;
}

}  // namespace

TEST(LineDiff, InsertionsDeletionsAndChanges) {
  EXPECT_EQ(added("a\nb\nc\n", "a\nb\nc\n"), std::vector<int>{});
  EXPECT_EQ(added("a\nb\nc\n", "a\nx\nb\nc\n"), std::vector<int>{2});
  EXPECT_EQ(added("a\nb\nc\n", "a\nc\n"), std::vector<int>{});
  EXPECT_EQ(added("a\nb\nc\n", "a\nB\nc\n"), std::vector<int>{2});
  EXPECT_EQ(added("", "a\nb\n"), (std::vector<int>{1, 2}));
  EXPECT_EQ(added("a\nb\n", ""), std::vector<int>{});
  // A last line without a newline is a line; adding the newline changes it.
  EXPECT_EQ(added("a\nb", "a\nb\nc"), std::vector<int>{3});
  // Identical lines: the one inserted before the old one is the new one.
  EXPECT_EQ(added("x = 1\nf()\n", "f()\nx = 1\nf()\n"), std::vector<int>{1});
  EXPECT_EQ(added("a\nb\nc\nd\ne\n", "e\na\nb\nX\nd\n"), (std::vector<int>{1, 4}));
}

TEST(LineDiff, TooManyEditsCountEveryMiddleLineAsAdded) {
  std::string before = "head\n", after = "head\n";
  for (int i = 0; i < 50; ++i) {
    before += "old " + std::to_string(i) + "\n";
    after += "new " + std::to_string(i) + "\n";
  }
  before += "tail\n";
  after += "tail\n";
  EXPECT_EQ(added(before, after, 10).size(), 50u);
  EXPECT_EQ(added(before, after, 10).front(), 2);
  EXPECT_EQ(added(before, after).size(), 50u);  // exactly: every middle line differs
  // A large file with one edit in the middle stays exact.
  std::string big_before, big_after;
  for (int i = 0; i < 20000; ++i) {
    big_before += "line " + std::to_string(i) + "\n";
    big_after += (i == 12345 ? std::string("changed\n") : "line " + std::to_string(i) + "\n");
  }
  EXPECT_EQ(added(big_before, big_after), std::vector<int>{12346});
}

TEST(PythonScopes, FunctionsAndClassesByIndentation) {
  const std::vector<std::string> lines = {
      "import torch",                         // 0
      "class Net:",                           // 1
      "    def forward(self, x):",            // 2
      "        y = x.cuda()",                 // 3
      "        s = '''",                      // 4
      "def not_a_def():",                     // 5: inside a string
      "'''",                                  // 6
      "        z = f(a,",                     // 7
      "  b)",                                 // 8: inside brackets
      "",                                     // 9
      "    # a comment at another indent",    // 10
      "        w = 1",                        // 11
      "async def g():",                       // 12
      "    return 1",                         // 13
      "x = 2",                                // 14
  };
  const std::vector<std::string> scopes = python_scopes(lines);
  ASSERT_EQ(scopes.size(), lines.size());
  EXPECT_EQ(scopes[0], "");
  EXPECT_EQ(scopes[1], "");
  EXPECT_EQ(scopes[2], "Net");
  EXPECT_EQ(scopes[3], "Net.forward");
  EXPECT_EQ(scopes[5], "Net.forward");
  EXPECT_EQ(scopes[8], "Net.forward");
  EXPECT_EQ(scopes[11], "Net.forward");
  EXPECT_EQ(scopes[13], "g");
  EXPECT_EQ(scopes[14], "");
}

}  // namespace mpsready::testing
