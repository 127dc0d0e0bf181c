// Hung front ends, second round (issue 26, item 9): a file's time budget grows with its size, and
// one restart leaves out every file that hangs, however many, while every other file is still
// analysed. Runs mpsready-crash-hooks (hostile/crash_hooks.cpp), whose Python front end hangs on
// a file carrying `mpsready-test-crash:python:hang` and, with MPSREADY_TEST_HOOK_LOG set, logs
// each marker it meets with the process id of the attempt that met it.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

const char* const kNormalFile = "import torch\nx = torch.zeros(1).cuda()\n";
const char* const kHangingFile = "import torch\n# mpsready-test-crash:python:hang\n";

struct Hooked {
  CliRun run;
  nlohmann::json doc;
  std::set<std::string> attempts_meeting_a_hang;  // process ids
  double seconds = 0;
};

Hooked run_hooked(const fs::path& root, const std::string& extra) {
  TempDir log;
  const fs::path log_file = log.path() / "hooks.log";
  const auto start = std::chrono::steady_clock::now();
  Hooked out;
  out.run = run_shell("MPSREADY_TEST_HOOK_LOG=" + quote(log_file.string()) + " " + quote(MPSREADY_CRASH_HOOKS_BIN) +
                      " scan " + quote(root.string()) + " --format json " + extra + " 2>/dev/null");
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.doc = nlohmann::json::parse(out.run.out, nullptr, false);
  EXPECT_FALSE(out.doc.is_discarded()) << out.run.out.substr(0, 2000);
  if (fs::exists(log_file)) {
    std::istringstream lines(read_text(log_file));
    std::string pid, how;
    while (lines >> pid >> how)
      if (how == "hang") out.attempts_meeting_a_hang.insert(pid);
  }
  return out;
}

std::map<std::string, std::string> errors_of(const nlohmann::json& doc) {
  std::map<std::string, std::string> out;
  if (doc.is_discarded()) return out;
  for (const auto& n : doc["errors"]) out[n["path"].get<std::string>()] += n["reason"].get<std::string>();
  return out;
}

std::set<std::string> finding_paths(const nlohmann::json& doc) {
  std::set<std::string> out;
  if (doc.is_discarded()) return out;
  for (const auto& f : doc["findings"]) out.insert(f["path"].get<std::string>());
  return out;
}

std::string budget_reason(const std::string& budget) {
  return "front end did not finish within its budget of " + budget +
         " s (--file-time-limit 1 s, plus 20 s per MiB of the file's size); the file was not analysed";
}

}  // namespace

// Three files hang, on one thread: the first attempt leaves each stuck thread behind and goes
// on, so all three are met by one process and left out by one restart, and every file after
// them is analysed. Before, each hung file cost a restart of its own (three processes met one).
TEST(FileBudget, EveryHungFileIsLeftOutInOneRestart) {
  TempDir dir;
  for (int i = 0; i < 12; ++i) dir.write("m" + std::to_string(i) + ".py", kNormalFile);
  for (const char* stuck : {"m03_stuck.py", "m06_stuck.py", "m09_stuck.py"}) dir.write(stuck, kHangingFile);
  for (const char* jobs : {"-j 1", "-j 2"}) {
    SCOPED_TRACE(jobs);
    const Hooked run = run_hooked(dir.path(), std::string("--file-time-limit 1 ") + jobs);
    EXPECT_EQ(run.run.code, 0);
    const auto errors = errors_of(run.doc);
    EXPECT_EQ(errors.size(), 3u) << run.doc.dump();
    for (const char* stuck : {"m03_stuck.py", "m06_stuck.py", "m09_stuck.py"})
      EXPECT_EQ(errors.count(stuck) ? errors.at(stuck) : "", budget_reason("1")) << stuck;
    const auto found = finding_paths(run.doc);
    for (int i = 0; i < 12; ++i) EXPECT_EQ(found.count("m" + std::to_string(i) + ".py"), 1u) << i;
    EXPECT_EQ(run.attempts_meeting_a_hang.size(), 1u) << "hung files were met by more than one attempt";
  }
}

// A file's budget is the base limit plus 20 s per MiB: a 160 KiB file that hangs gets about
// 4.1 s, a small one 1 s, and the large one is not killed before its own budget has run out.
TEST(FileBudget, BudgetGrowsWithTheFileSize) {
  TempDir dir;
  dir.write("train.py", kNormalFile);
  dir.write("small_stuck.py", kHangingFile);
  std::string large = kHangingFile;
  while (large.size() < 160 * 1024) large += "# " + std::string(78, 'x') + "\n";
  dir.write("large_stuck.py", large);
  const double large_budget = 1 + 20.0 * double(large.size()) / double(1 << 20);
  std::ostringstream text;
  text << std::round(large_budget * 10) / 10;
  const Hooked run = run_hooked(dir.path(), "--file-time-limit 1 -j 2");
  EXPECT_EQ(run.run.code, 0);
  auto errors = errors_of(run.doc);
  EXPECT_EQ(errors["small_stuck.py"], budget_reason("1"));
  EXPECT_EQ(errors["large_stuck.py"], budget_reason(text.str()));
  EXPECT_EQ(finding_paths(run.doc).count("train.py"), 1u);
  EXPECT_GE(run.seconds, large_budget) << "the large file was left out before its budget ran out";
  EXPECT_EQ(run.attempts_meeting_a_hang.size(), 1u);
}

}  // namespace mpsready::testing
