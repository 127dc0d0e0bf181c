// A crash, abort or hang inside a front end costs that file, never the scan (issue 17). No real
// input is known that crashes tree-sitter, yaml-cpp, toml++ or the notebook reader, so these
// tests run mpsready-crash-hooks (MPSREADY_CRASH_HOOKS_BIN, hostile/crash_hooks.cpp), which
// crashes a front end where a file carries `mpsready-test-crash:<front end>:<how>`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

const char* const kNormalFile = "import torch\nx = torch.zeros(1).cuda()\n";
const char* const kNormalFinding = "train.py:2:py-tensor-dot-cuda";

// A sanitizer build turns SIGSEGV into its report and exit status 1; the signal is what counts.
const std::string kSignalsAsThemselves = "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0\" ";

CliRun run_hooked(const fs::path& root, const std::string& extra) {
  return run_shell(kSignalsAsThemselves + quote(MPSREADY_CRASH_HOOKS_BIN) + " scan " + quote(root.string()) +
                   " --format json " + extra + " 2>/dev/null");
}

std::map<std::string, std::string> errors_of(const nlohmann::json& doc) {
  std::map<std::string, std::string> out;
  for (const auto& n : doc["errors"]) {
    std::string& reasons = out[n["path"].get<std::string>()];
    reasons += (reasons.empty() ? "" : " | ") + n["reason"].get<std::string>();
  }
  return out;
}

std::set<std::string> sites(const nlohmann::json& doc) {
  std::set<std::string> out;
  for (const auto& f : doc["findings"])
    out.insert(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
               f["rule"].get<std::string>());
  return out;
}

nlohmann::json parsed(const CliRun& run) {
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << "not a complete JSON report:\n" << run.out.substr(0, 2000);
  return doc.is_discarded() ? nlohmann::json::object({{"errors", nlohmann::json::array()},
                                                      {"findings", nlohmann::json::array()}})
                            : doc;
}

struct CrashCase {
  std::string frontend;
  std::string file;
  std::string text;
  std::string signal;
};

std::vector<CrashCase> crash_cases() {
  return {
      {"python", "models/net.py", "import torch\n# mpsready-test-crash:python:segv\nx = y.cuda()\n", "SIGSEGV"},
      {"cpp", "csrc/kernel.cu", "// mpsready-test-crash:cpp:ill\n__global__ void k(float* x) {}\n", "SIGILL"},
      {"yaml", "environment.yml",
       "# mpsready-test-crash:yaml:abort\nname: lab\ndependencies:\n  - pytorch-cuda=12.1\n  - cudatoolkit\n",
       "SIGABRT"},
      {"toml", "pyproject.toml",
       "# mpsready-test-crash:toml:segv\n[project]\nname = \"lab\"\ndependencies = [\"nvidia-cudnn-cu12\"]\n",
       "SIGSEGV"},
      {"notebook", "explore.ipynb",
       R"({"cells": [{"cell_type": "code", "source": ["# mpsready-test-crash:notebook:abort\n", "x.cuda()\n"]}],)"
       R"( "metadata": {}, "nbformat": 4, "nbformat_minor": 5})",
       "SIGABRT"},
  };
}

}  // namespace

// For each front end: one crashing file and one normal finding. The scan completes, the exit
// code is what the verdict gives without the crashing file (--fail-on), the crashing file is in
// `errors` with its signal, and the normal finding is reported.
TEST(FrontendCrash, CostsOnlyTheFileForEveryFrontEnd) {
  TempDir clean;
  clean.write("train.py", kNormalFile);
  const CliRun expected = run_hooked(clean.path(), "--fail-on partial");
  ASSERT_EQ(sites(parsed(expected)).count(kNormalFinding), 1u);
  for (const CrashCase& c : crash_cases()) {
    SCOPED_TRACE(c.frontend);
    TempDir dir;
    dir.write("train.py", kNormalFile);
    dir.write(c.file, c.text);
    const CliRun run = run_hooked(dir.path(), "--fail-on partial");
    EXPECT_EQ(run.code, expected.code);
    const nlohmann::json doc = parsed(run);
    EXPECT_EQ(sites(doc).count(kNormalFinding), 1u);
    const auto errors = errors_of(doc);
    ASSERT_EQ(errors.count(c.file), 1u) << doc["errors"].dump();
    EXPECT_EQ(errors.at(c.file), "front end crashed (" + c.signal + "); the file was not analysed");
  }
}

// Without the supervisor the same file ends the scan: the hook really crashes the front end.
TEST(FrontendCrash, InProcessScanDiesOnTheSameFile) {
  TempDir dir;
  dir.write("train.py", kNormalFile);
  dir.write("csrc/kernel.cu", "// mpsready-test-crash:cpp:ill\n__global__ void k(float* x) {}\n");
  const CliRun run = run_hooked(dir.path(), "--in-process");
  EXPECT_NE(run.code, 0);
  EXPECT_TRUE(nlohmann::json::parse(run.out, nullptr, false).is_discarded());
}

// A front end that never returns: the parent kills the scan after --file-time-limit and runs it
// again without that file.
TEST(FrontendCrash, HangIsLeftOutAfterTheTimeLimit) {
  TempDir dir;
  dir.write("train.py", kNormalFile);
  dir.write("stuck.py", "import torch\n# mpsready-test-crash:python:hang\n");
  const CliRun run = run_hooked(dir.path(), "--file-time-limit 1");
  EXPECT_EQ(run.code, 0);
  const nlohmann::json doc = parsed(run);
  EXPECT_EQ(sites(doc).count(kNormalFinding), 1u);
  EXPECT_EQ(errors_of(doc)["stuck.py"],
            "front end did not finish within its budget of 1 s (--file-time-limit 1 s, plus 20 s per MiB of the "
            "file's size); the file was not analysed");
}

// With several threads, files in flight beside the crashing one are analysed again, not left
// out; the report is the same whatever the thread count.
TEST(FrontendCrash, OnlyTheCulpritIsLeftOutWhateverTheThreadCount) {
  TempDir dir;
  for (int i = 0; i < 40; ++i) dir.write("m" + std::to_string(i) + ".py", kNormalFile);
  dir.write("m17_crash.py", "import torch\n# mpsready-test-crash:python:abort\nx.cuda()\n");
  const CliRun one = run_hooked(dir.path(), "-j 1");
  const CliRun four = run_hooked(dir.path(), "-j 4");
  EXPECT_EQ(one.out, four.out);
  const nlohmann::json doc = parsed(four);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(sites(doc).count("m" + std::to_string(i) + ".py:2:py-tensor-dot-cuda"), 1u) << i;
  const auto errors = errors_of(doc);
  EXPECT_EQ(errors.size(), 1u) << doc["errors"].dump();
  EXPECT_EQ(errors.count("m17_crash.py"), 1u);
}

// When nothing crashes, the supervised scan writes the same bytes as a scan in one process, in
// every format, to stdout and to -o, with the same exit code.
TEST(FrontendCrash, SupervisorChangesNoByteWhenNothingCrashes) {
  const fs::path repo = source_dir() / "sample_repos" / "fused-attention-stay-on-linux";
  for (const std::string format : {"json", "sarif", "text"}) {
    SCOPED_TRACE(format);
    const std::string args = "scan " + quote(repo.string()) + " --format " + format + " --fail-on partial";
    const CliRun supervised = mpsready(args, false);
    const CliRun in_process = mpsready(args + " --in-process", false);
    EXPECT_GT(supervised.out.size(), 1000u);
    EXPECT_EQ(supervised.out, in_process.out);
    EXPECT_EQ(supervised.code, in_process.code);
  }
  TempDir out;
  const std::string base = "scan " + quote(repo.string()) + " --format json -o ";
  mpsready(base + quote((out.path() / "a.json").string()), false);
  mpsready(base + quote((out.path() / "b.json").string()) + " --in-process", false);
  EXPECT_EQ(read_text(out.path() / "a.json"), read_text(out.path() / "b.json"));
}

}  // namespace mpsready::testing
