// `mpsready` (no LibTorch) hands the model commands to mpsready-runtime beside it: the scanner
// starts without loading LibTorch, and a missing runtime is a clear usage error.
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

fs::path scanner_binary() { return fs::path(std::getenv("MPSREADY_BIN")); }

fs::path runtime_binary() { return scanner_binary().parent_path() / "mpsready-runtime"; }

}  // namespace

TEST(RuntimeForward, HelpListsTheModelCommands) {
  const CliRun help = mpsready("--help");
  EXPECT_EQ(help.code, 0);
  for (const char* sub : {"scan", "rules", "smoke", "audit", "ops"})
    EXPECT_NE(help.out.find(std::string("\n  ") + sub), std::string::npos) << sub << "\n" << help.out;
}

TEST(RuntimeForward, TheScannerDoesNotLoadLibTorch) {
  // ldd lists every shared library the dynamic loader would map for the executable.
  const CliRun ldd = run_shell("ldd " + quote(scanner_binary().string()) + " 2>&1");
  ASSERT_EQ(ldd.code, 0) << ldd.out;
  EXPECT_NE(ldd.out.find("libtree-sitter"), std::string::npos) << ldd.out;  // the listing is real
  EXPECT_EQ(ldd.out.find("libtorch"), std::string::npos) << ldd.out;
  EXPECT_EQ(ldd.out.find("libc10"), std::string::npos) << ldd.out;
}

TEST(RuntimeForward, WithoutTheRuntimeModelCommandsSayWhatToDo) {
  TempDir dir;
  const fs::path lonely = dir.path() / "mpsready";
  fs::copy_file(scanner_binary(), lonely);
  for (const std::string args : {"smoke model.pt", "--rules /nowhere audit . --model m.pt", "ops model.pt --format json"}) {
    const CliRun run = run_shell(quote(lonely.string()) + " " + args + " 2>&1");
    EXPECT_EQ(run.code, 2) << args << "\n" << run.out;
    EXPECT_NE(run.out.find("there is none beside this executable"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find((dir.path() / "mpsready-runtime").string()), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("-DMPSREADY_WITH_TORCH=ON"), std::string::npos) << run.out;
  }
  // The scanner's own commands still work from the copy.
  const CliRun version = run_shell(quote(lonely.string()) + " --version 2>&1");
  EXPECT_EQ(version.code, 0) << version.out;
  EXPECT_NE(version.out.find("mpsready 0."), std::string::npos) << version.out;
}

TEST(RuntimeForward, ModelCommandsReachTheRuntime) {
  if (!fs::exists(runtime_binary())) GTEST_SKIP() << "built without LibTorch: no mpsready-runtime";
  // Only mpsready-runtime knows these options and this message; the scanner has neither.
  const CliRun help = mpsready("smoke --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--device"), std::string::npos) << help.out;
  const CliRun ops = mpsready("--rules " + quote(rules_dir().string()) + " ops /nonexistent/model.pt");
  EXPECT_EQ(ops.code, 2);
  EXPECT_NE(ops.out.find("model not found: /nonexistent/model.pt"), std::string::npos) << ops.out;
}

}  // namespace mpsready::testing
