// Issue 26, item 5: a change that removes a guard without touching the guarded line, or inserts
// an identical line before an old one, is judged by what it does to each site, not by which lines
// it touched. Each test keeps the whole tree's verdict where it was, so only the sites can tell.
#include <gtest/gtest.h>

#include <algorithm>

#include "hostile/diff_repo.h"

namespace mpsready::testing {

namespace {

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

TEST(HostileDiffGuard, AGuardMadeIfTrueUnguardsTheOldCall) {
  TempDir dir;
  // other.py keeps the tree partial before and after.
  dir.write("other.py", "import torch\nx = x.cuda()\n");
  dir.write("model.py", "import torch\n\n\ndef f(m):\n    if torch.cuda.is_available():\n        m = m.cuda()\n    return m\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", "import torch\n\n\ndef f(m):\n    if True:\n        m = m.cuda()\n    return m\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--fail-on partial");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(scan.doc["diff"]["verdict_before"], "partial");
  EXPECT_EQ(scan.doc["diff"]["verdict_after"], "partial");
  EXPECT_EQ(sites(scan.doc), (std::vector<std::string>{"model.py:6:py-tensor-dot-cuda"})) << scan.doc.dump(1);
  const std::string change = scan.doc["diff"]["change"].get<std::string>();
  EXPECT_NE(change.find("model.py:6 adds py-tensor-dot-cuda"), std::string::npos) << change;
  EXPECT_NE(change.find("before this change: guarded"), std::string::npos) << change;
  EXPECT_EQ(scan.code, 1) << scan.out;
}

TEST(HostileDiffGuard, ADeletedFallbackMakesTheOldImportABlocker) {
  TempDir dir;
  // A CUDA kernel keeps the tree at stay-on-linux before and after.
  dir.write("csrc/k.cu", "__global__ void k(float* x) { x[0] = 1; }\n");
  dir.write("model.py", "import torch\ntry:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n"
                        "def f(x):\n    if flash_attn is None:\n        return x\n    return flash_attn.f(x)\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", "import torch\ntry:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n"
                        "def f(x):\n    return flash_attn.f(x)\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--fail-on stay-on-linux");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(scan.doc["diff"]["verdict_before"], "stay-on-linux");
  EXPECT_EQ(scan.doc["diff"]["verdict_after"], "stay-on-linux");
  EXPECT_TRUE(contains(sites(scan.doc), "model.py:3:py-nvidia-only-import")) << scan.doc.dump(1);
  const std::string change = scan.doc["diff"]["change"].get<std::string>();
  EXPECT_NE(change.find("model.py:3 adds py-nvidia-only-import"), std::string::npos) << change;
  EXPECT_EQ(change.find("adds no finding"), std::string::npos) << change;
  EXPECT_EQ(scan.code, 1) << scan.out;
}

TEST(HostileDiffGuard, ANewNotebookCellBeforeAnIdenticalOldOneIsTheNewSite) {
  TempDir dir;
  const auto notebook = [](const std::vector<std::string>& cells) {
    std::string json = R"({"cells": [)";
    for (size_t i = 0; i < cells.size(); ++i)
      json += std::string(i ? ", " : "") + R"({"cell_type": "code", "source": [)" + cells[i] + "]}";
    return json + R"(], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})";
  };
  dir.write("nb.ipynb", notebook({R"("import torch\n", "a = a.cuda()\n")"}));
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("nb.ipynb", notebook({R"("a = a.cuda()\n")", R"("import torch\n", "a = a.cuda()\n")"}));
  ASSERT_TRUE(commit_all(dir, "the change: a new first cell"));
  const DiffScan scan = diff_scan(dir, "HEAD~1");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(sites(scan.doc), (std::vector<std::string>{"nb.ipynb:1:1:py-tensor-dot-cuda"})) << scan.doc.dump(1);
}

TEST(HostileDiffGuard, MovedAndReindentedSitesAreNotNew) {
  TempDir dir;
  dir.write("model.py", "import torch\n\n\ndef f(m):\n    m = m.cuda()\n    return m\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  // Lines added above it, the same call re-spaced, and one new identical call in another function.
  dir.write("model.py", "import torch\n# a comment\n\n\ndef f(m):\n    m  =  m.cuda()\n    return m\n\n\n"
                        "def g(m):\n    m = m.cuda()\n    return m\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(sites(scan.doc), (std::vector<std::string>{"model.py:11:py-tensor-dot-cuda"})) << scan.doc.dump(1);
}

}  // namespace mpsready::testing
