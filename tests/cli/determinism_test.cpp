// The same input gives byte-identical reports whatever the thread count and whatever order the
// file system lists directories in: the same files are written into two trees in opposite orders
// and scanned with different thread counts.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

struct SourceFile {
  std::string relative;
  std::string content;
};

// Every sample repository, side by side, and files that end in `errors` and `skipped`.
std::vector<SourceFile> corpus() {
  std::vector<SourceFile> files;
  const fs::path samples = source_dir() / "sample_repos";
  for (auto it = fs::recursive_directory_iterator(samples); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_regular_file() && it->path().filename() != "expected.json")
      files.push_back({fs::relative(it->path(), samples).string(), read_text(it->path())});
  }
  files.push_back({"extra/binary.py", std::string("import torch\0x.cuda()", 21)});
  files.push_back({"extra/latin1.py", "# caf\xE9\nimport torch\nx = y.cuda()\n"});
  files.push_back({"extra/broken.py", "import torch\ndef f(:\nz = w.cuda()\n"});
  files.push_back({"extra/bad.ipynb", "{\"cells\": ["});
  files.push_back({"extra/requirements.txt", "-r ../../outside.txt\nnvidia-cudnn-cu12\n"});
  for (int i = 0; i < 40; ++i)  // many small files, so the workers interleave
    files.push_back({"extra/many/m" + std::to_string(i) + ".py", "import torch\nx" + std::to_string(i) + " = y.cuda()\n"});
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.relative < b.relative; });
  return files;
}

}  // namespace

TEST(Determinism, ReportsDoNotDependOnThreadsOrDirectoryOrder) {
  const std::vector<SourceFile> files = corpus();
  ASSERT_GT(files.size(), 50u);
  TempDir forward, backward;
  for (const auto& f : files) forward.write("repo/" + f.relative, f.content);
  for (auto f = files.rbegin(); f != files.rend(); ++f) backward.write("repo/" + f->relative, f->content);

  for (const char* format : {"json", "sarif", "markdown", "text", "html"}) {
    SCOPED_TRACE(format);
    // The same relative root in both runs, so that the reports may be compared byte for byte.
    const std::string args = std::string("scan repo --format ") + format;
    const CliRun a = mpsready(args + " -j 1", false, "cd " + quote(forward.path().string()) + " && ");
    const CliRun b = mpsready(args + " -j 4", false, "cd " + quote(backward.path().string()) + " && ");
    const CliRun c = mpsready(args + " -j 2", false, "cd " + quote(backward.path().string()) + " && ");
    EXPECT_EQ(a.code, 0);
    EXPECT_GT(a.out.size(), 1000u);
    EXPECT_TRUE(a.out == b.out) << "differs across thread count and directory order";
    EXPECT_TRUE(b.out == c.out) << "differs across thread counts";
  }
}

}  // namespace mpsready::testing
