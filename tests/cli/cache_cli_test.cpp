// `scan --cache`, `--quiet` and `--clang-time-limit` as a user runs them: a warm scan's report is
// byte-identical to a cold one's, in every format, before and after a change; stderr stays clean
// when it is not a terminal.
#include <gtest/gtest.h>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

CliRun scan_cli(const std::string& args, const std::string& redirect = " 2>/dev/null") {
  return mpsready_redirected(args, redirect);
}

std::string report(const fs::path& root, const std::string& format, const std::string& extra = "") {
  const CliRun run = scan_cli("scan " + quote(root.string()) + " --format " + format + " " + extra);
  EXPECT_EQ(run.code, 0);
  return run.out;
}

fs::path copy_sample(const TempDir& into, const std::string& name) {
  const fs::path to = into.path() / name;
  fs::copy(source_dir() / "sample_repos" / name, to, fs::copy_options::recursive);
  return to;
}

}  // namespace

TEST(Cache, WarmReportsAreByteIdenticalToColdOnesInEveryFormat) {
  TempDir work, cache;
  for (const char* sample : {"fused-attention-stay-on-linux", "rmsnorm-extension-partial", "unet-segmentation-partial"}) {
    const fs::path repo = copy_sample(work, sample);
    const std::string with_cache = "--cache " + quote(cache.path().string());
    for (const char* format : {"json", "sarif", "text"}) {
      const std::string cold = report(repo, format);
      ASSERT_FALSE(cold.empty());
      EXPECT_EQ(report(repo, format, with_cache), cold) << sample << " " << format << " (filling the cache)";
      EXPECT_EQ(report(repo, format, with_cache), cold) << sample << " " << format << " (from the cache)";
    }
  }
  EXPECT_FALSE(fs::is_empty(cache.path()));
}

TEST(Cache, AfterAOneFileChangeTheWarmReportEqualsAColdScanOfTheChangedTree) {
  TempDir work, cache;
  const fs::path repo = copy_sample(work, "rmsnorm-extension-partial");
  const std::string with_cache = "--cache " + quote(cache.path().string());
  report(repo, "json", with_cache);
  // Add a finding to one file, and drop another file's content.
  std::vector<fs::path> python;
  for (const auto& e : fs::recursive_directory_iterator(repo))
    if (e.path().extension() == ".py") python.push_back(e.path());
  std::sort(python.begin(), python.end());
  ASSERT_GE(python.size(), 2u);
  std::ofstream(python[0], std::ios::app) << "\nimport torch\nextra = torch.zeros(4).cuda()\n";
  for (const char* format : {"json", "sarif"}) {
    const std::string warm = report(repo, format, with_cache);
    EXPECT_EQ(warm, report(repo, format)) << format;
    EXPECT_NE(warm.find("extra = torch.zeros(4).cuda()"), std::string::npos) << format;
  }
  std::ofstream(python[1], std::ios::trunc) << "print('nothing to see')\n";
  EXPECT_EQ(report(repo, "json", with_cache), report(repo, "json"));
}

TEST(Cache, ACorruptCacheIsReportedOnStderrAndTheReportIsUnchanged) {
  TempDir work, cache;
  const fs::path repo = copy_sample(work, "unet-segmentation-partial");
  const std::string with_cache = "--cache " + quote(cache.path().string());
  const std::string cold = report(repo, "json", with_cache);
  for (const auto& e : fs::directory_iterator(cache.path())) std::ofstream(e.path(), std::ios::trunc) << "garbage";
  const CliRun err = scan_cli("scan " + quote(repo.string()) + " --format json " + with_cache, " 2>&1 >/dev/null");
  EXPECT_EQ(err.code, 0);
  EXPECT_NE(err.out.find("ignoring the scan cache"), std::string::npos) << err.out;
  EXPECT_EQ(report(repo, "json", with_cache), cold);  // rewritten whole by the previous scan
  for (const auto& e : fs::directory_iterator(cache.path())) std::ofstream(e.path(), std::ios::trunc) << "garbage";
  const CliRun quiet = scan_cli("scan " + quote(repo.string()) + " --quiet " + with_cache, " 2>&1 >/dev/null");
  EXPECT_EQ(quiet.out, "");
}

TEST(Progress, StderrStaysCleanWhenItIsNotATerminal) {
  TempDir work, cache;
  const fs::path repo = copy_sample(work, "fused-attention-stay-on-linux");
  for (const std::string& extra : std::vector<std::string>{"", "-j 1", "--cache " + quote(cache.path().string())}) {
    const CliRun err = scan_cli("scan " + quote(repo.string()) + " " + extra, " 2>&1 >/dev/null");
    EXPECT_EQ(err.code, 0);
    EXPECT_EQ(err.out, "") << extra;
  }
}

TEST(ClangTimeLimit, TheOptionIsValidatedAndReportsStoppedFiles) {
  TempDir repo;
  repo.write("k.cu", "__global__ void k(float* x) {}\nvoid go(float* x) { k<<<1, 1>>>(x); }\n");
  EXPECT_EQ(scan_cli("scan " + quote(repo.path().string()) + " --clang-time-limit -1").code, 2);
  EXPECT_EQ(scan_cli("scan " + quote(repo.path().string()) + " --clang-time-limit soon").code, 2);
  const std::string json = report(repo.path(), "json", "--clang-time-limit 0");
  EXPECT_NE(json.find("Clang parse stopped after 0 s"), std::string::npos) << json;
  EXPECT_NE(json.find("cu-kernel-launch"), std::string::npos);
  EXPECT_EQ(report(repo.path(), "json", "--clang-time-limit 30").find("stopped after"), std::string::npos);
}

}  // namespace mpsready::testing
