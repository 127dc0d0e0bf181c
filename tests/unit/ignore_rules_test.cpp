#include <gtest/gtest.h>

#include "engine/ignore_rules.h"

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

}  // namespace mpsready
