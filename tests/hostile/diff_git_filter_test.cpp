// Issue 26, item 8 (and item 4's first part): diff mode runs nothing the checkout configures.
// `git diff BASE` against the work tree would run the clean filter a `.gitattributes` names (a
// command from the checkout's .git/config), and `*.py -diff` would print "Binary files differ"
// and so hide every added line.
#include <gtest/gtest.h>

#include <algorithm>

#include "hostile/diff_repo.h"

namespace mpsready::testing {

TEST(HostileDiffGit, NoFilterOrTextConversionOfTheCheckoutRuns) {
  TempDir dir, outside;
  dir.write("model.py", "import torch\n\n\ndef f(x):\n    return x\n");
  dir.write(".gitattributes", "*.py filter=mark diff=mark\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  // Configured after the commit, as a hostile checkout would come: every command leaves a file.
  const fs::path marker = outside.path() / "ran";
  const std::string touch = "touch " + quote(marker.string()) + "; cat";
  const std::string git = git_in(dir);
  ASSERT_EQ(sh_quiet(git + " config filter.mark.clean " + quote(touch)), 0);
  ASSERT_EQ(sh_quiet(git + " config filter.mark.smudge " + quote(touch)), 0);
  ASSERT_EQ(sh_quiet(git + " config diff.mark.textconv " + quote(touch)), 0);
  ASSERT_EQ(sh_quiet(git + " config core.fsmonitor " + quote(touch)), 0);
  // An uncommitted edit: git would have to filter the work tree's file to compare it.
  dir.write("model.py", "import torch\n\n\ndef f(x):\n    return x\n\n\nimport flash_attn\n");
  const DiffScan scan = diff_scan(dir, "HEAD");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(sites(scan.doc), (std::vector<std::string>{"model.py:8:py-nvidia-only-import"})) << scan.doc.dump(1);
  EXPECT_FALSE(fs::exists(marker)) << "a command configured by the scanned checkout ran";
}

TEST(HostileDiffGit, AttributesThatMakePythonBinaryHideNoLine) {
  TempDir dir;
  // A CUDA kernel keeps the tree at stay-on-linux before and after: only the listed sites tell.
  dir.write("csrc/k.cu", "__global__ void k(float* x) { x[0] = 1; }\n");
  dir.write("model.py", "import torch\n\n\ndef f(x):\n    return x\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write(".gitattributes", "*.py -diff\n");
  dir.write("model.py", "import torch\n\n\ndef f(x):\n    return x\n\n\nimport flash_attn\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--fail-on stay-on-linux");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(sites(scan.doc), (std::vector<std::string>{"model.py:8:py-nvidia-only-import"})) << scan.doc.dump(1);
  EXPECT_NE(scan.doc["diff"]["change"].get<std::string>().find("model.py:8 adds py-nvidia-only-import"), std::string::npos)
      << scan.doc["diff"];
  EXPECT_EQ(scan.code, 1);
}

}  // namespace mpsready::testing
