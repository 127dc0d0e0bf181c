#include <gtest/gtest.h>

#include "engine/ignore_rules.h"

#include <optional>
#include <string>
#include <vector>

namespace mpsready {
namespace {

bool ignored(const std::string& gitignore, const std::string& path, bool is_dir = false,
             const std::string& base = "") {
  IgnoreList list(nullptr, IgnoreList::parse_file(gitignore, base));
  return list.ignored(path, is_dir);
}

}  // namespace

TEST(IgnoreRules, UnanchoredPatternsMatchAtAnyDepth) {
  EXPECT_TRUE(ignored("*.pyc\n", "a/b/c.pyc"));
  EXPECT_TRUE(ignored("scratch\n", "src/scratch", true));
  EXPECT_FALSE(ignored("*.pyc\n", "a/b/c.py"));
}

TEST(IgnoreRules, AnchoredPatternsAndDirectoriesOnly) {
  EXPECT_TRUE(ignored("/data\n", "data", true));
  EXPECT_FALSE(ignored("/data\n", "src/data", true));
  EXPECT_TRUE(ignored("out/\n", "out", true));
  EXPECT_FALSE(ignored("out/\n", "out", false));
  EXPECT_TRUE(ignored("docs/*.py\n", "docs/conf.py"));
  EXPECT_FALSE(ignored("docs/*.py\n", "docs/api/conf.py"));
}

TEST(IgnoreRules, DoubleStarAndNegationLastMatchWins) {
  EXPECT_TRUE(ignored("**/gen/**\n", "a/gen/b/c.py"));
  EXPECT_TRUE(ignored("a/**/z.py\n", "a/z.py"));
  EXPECT_TRUE(ignored("a/**/z.py\n", "a/b/c/z.py"));
  EXPECT_FALSE(ignored("*.py\n!keep.py\n", "keep.py"));
  EXPECT_TRUE(ignored("!keep.py\n*.py\n", "keep.py"));
}

TEST(IgnoreRules, CommentsEscapesClassesAndNestedBase) {
  EXPECT_FALSE(ignored("# a.py\n", "# a.py"));
  EXPECT_TRUE(ignored("\\#a.py\n", "#a.py"));
  EXPECT_TRUE(ignored("file[0-9].py\n", "file7.py"));
  EXPECT_FALSE(ignored("file[!0-9].py\n", "file7.py"));
  EXPECT_TRUE(ignored("local.py\n", "pkg/local.py", false, "pkg"));
  EXPECT_FALSE(ignored("/local.py\n", "other/local.py", false, "pkg"));
}

// A list of many patterns is matched as one automaton; its answers must be those of matching the
// patterns one by one, last match winning (directory-only and negated patterns included).
TEST(IgnoreRules, ManyPatternsAgreeWithOneByOneMatching) {
  const std::string gitignore =
      "*.pyc\n__pycache__/\nbuild/\n!build/keep.py\n/dist\ndocs/_build/\n*.so\n!special.so\n"
      "third_party/**/generated/\ncaffe2/**/*.pb.h\n*.swp\n.idea\ntorch/lib/*.a\n!torch/lib/keep.a\n"
      "**/*.egg-info/\ntmp?\nfile[0-9].txt\ncuda/\n!cuda/\n";
  std::vector<std::unique_ptr<IgnorePattern>> reference = IgnoreList::parse_file(gitignore, "");
  IgnoreList list(nullptr, IgnoreList::parse_file(gitignore, ""));
  const std::vector<std::string> paths = {
      "a.pyc", "x/y/a.pyc", "__pycache__", "src/__pycache__", "build", "build/keep.py", "build/other.py",
      "dist", "sub/dist", "docs/_build", "lib/x.so", "special.so", "third_party/a/b/generated",
      "third_party/generated", "caffe2/proto/x.pb.h", "caffe2/x.pb.h", ".idea", "a/.idea", "torch/lib/x.a",
      "torch/lib/keep.a", "pkg.egg-info", "tmp1", "tmp12", "file3.txt", "filex.txt", "cuda", "a/cuda", "main.py"};
  int decided = 0;
  for (const std::string& path : paths) {
    for (const bool is_dir : {false, true}) {
      std::optional<bool> expected;
      for (const auto& pattern : reference)
        if (pattern->matches(path, is_dir)) expected = !pattern->negated();
      EXPECT_EQ(list.ignored(path, is_dir), expected.value_or(false)) << path << (is_dir ? "/" : "");
      decided += expected.has_value();
    }
  }
  EXPECT_GT(decided, 30);  // the paths above exercise the patterns, not only the default
  EXPECT_FALSE(list.ignored("build/keep.py", false));
  EXPECT_TRUE(list.ignored("build/other.py", true) || list.ignored("build", true));
  EXPECT_FALSE(list.ignored("cuda", true));
}

}  // namespace mpsready
