// The command line a linter user expects (README "Using it", "Configuration", "Suppressions",
// "Use it in CI"): pyproject.toml settings, paths and list options, --help and --version, colour,
// statistics, GitHub annotations, suppressions that never fail silently, a pre-commit hook's runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A repository with one portable finding of each of two rules.
void write_two_rules(const TempDir& dir) {
  dir.write("train.py", "import torch\nm = m.cuda()\nx = torch.zeros(3, dtype=torch.float64)\n");
}

std::string in_dir(const TempDir& dir) { return "cd " + quote(dir.path().string()) + " && "; }

int sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

std::string git(const TempDir& dir) {
  return "git -C " + quote(dir.path().string()) + " -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false";
}

}  // namespace

TEST(Pyproject, ToolTableIsHonoured) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("pyproject.toml", "[project]\nname = \"x\"\n\n[tool.mpsready]\nignore = [\"py-float64\"]\nfail_on = \"partial\"\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format concise");
  EXPECT_EQ(run.code, 1) << run.out;  // fail_on from the table
  EXPECT_TRUE(contains(run.out, "[py-tensor-dot-cuda]")) << run.out;
  EXPECT_FALSE(contains(run.out, "[py-float64]")) << run.out;
}

TEST(Pyproject, ErrorsNameTheFileAndTheKey) {
  TempDir dir;
  write_two_rules(dir);
  const std::string root = quote(dir.path().string());
  const std::string file = (dir.path() / "pyproject.toml").string();
  dir.write("pyproject.toml", "[tool.mpsready]\nselect = [1]\n");
  CliRun run = mpsready("scan " + root);
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, file + " [tool.mpsready]: \"select\"[0] must be a string")) << run.out;
  dir.write("pyproject.toml", "[tool.mpsready]\nignore = [\"py-no-such-rule\"]\n");
  run = mpsready("scan " + root);
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, file + " [tool.mpsready]: \"ignore\"[0]: no rule matches \"py-no-such-rule\"")) << run.out;
  dir.write("pyproject.toml", "[tool.mpsready]\ncolour = \"red\"\n");
  run = mpsready("scan " + root);
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, "unknown key \"colour\"")) << run.out;
  dir.write("pyproject.toml", "[tool.mpsready]\nper_file_ignores = { \"tests/**\" = \"py-float64\" }\n");
  run = mpsready("scan " + root);
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, "\"per_file_ignores.tests/**\" must be an array of strings")) << run.out;
  dir.write("pyproject.toml", "[tool.mpsready\nexclude = []\n");
  run = mpsready("scan " + root);
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, file + ":1: not valid TOML")) << run.out;
}

TEST(Pyproject, APyprojectWithoutTheTableOrBrokenElsewhereIsNoConfiguration) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("pyproject.toml", "[project\nname = 'broken packaging, not ours to judge'\n");
  EXPECT_EQ(mpsready("scan " + quote(dir.path().string())).code, 0);
}

TEST(Pyproject, DedicatedFileWinsAndSaysSo) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("pyproject.toml", "[tool.mpsready]\nignore = [\"py-float64\"]\n");
  dir.write(".mpsready.json", "{\"ignore\": [\"py-tensor-dot-cuda\"]}");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format concise");
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(contains(run.out, "[py-float64]")) << run.out;
  EXPECT_FALSE(contains(run.out, "[py-tensor-dot-cuda]")) << run.out;
  EXPECT_TRUE(contains(run.out, ".mpsready.json; the [tool.mpsready] table of")) << run.out;
}

TEST(Init, WritesACommentedTableThatScansAndRefusesTwice) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("pyproject.toml", "[project]\nname = \"x\"\n");
  const std::string root = quote(dir.path().string());
  CliRun run = mpsready("init " + root);
  EXPECT_EQ(run.code, 0) << run.out;
  const std::string written = read_text(dir.path() / "pyproject.toml");
  EXPECT_EQ(written.rfind("[project]\nname = \"x\"\n\n[tool.mpsready]\n", 0), 0u) << written;
  EXPECT_TRUE(contains(written, "# fail_on = \"stay-on-linux\"")) << written;
  run = mpsready("scan " + root);
  EXPECT_EQ(run.code, 0) << run.out;
  run = mpsready("init " + root);
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, "already has a [tool.mpsready] table")) << run.out;
  EXPECT_EQ(read_text(dir.path() / "pyproject.toml"), written);
  // Every line of the commented options is valid once uncommented.
  TempDir other;
  write_two_rules(other);
  std::string uncommented;
  for (size_t at = 0; at < written.size();) {
    size_t end = written.find('\n', at);
    std::string line = written.substr(at, end - at);
    if (line.rfind("# ", 0) == 0 && line.find(" = ") != std::string::npos) line = line.substr(2);
    uncommented += line + "\n";
    at = end + 1;
  }
  other.write("pyproject.toml", uncommented);
  other.write("examples/cifar/run.py", "print(1)\n");
  other.write("scripts/train/main.py", "print(1)\n");
  run = mpsready("scan " + quote(other.path().string()));
  EXPECT_NE(run.code, 2) << uncommented << run.out;
}

TEST(CommandLine, ListOptionsTakeOneValueEachOrACommaList) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("legacy/old.py", "import torch\ny = y.cuda()\n");
  const std::string root = quote(dir.path().string());
  CliRun run = mpsready("scan --exclude 'legacy/**' " + root + " --format concise");
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_FALSE(contains(run.out, "legacy/old.py")) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:2:")) << run.out;
  run = mpsready("scan --select py-float64,py-tensor-* " + root + " --format concise");
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(contains(run.out, "[py-float64]") && contains(run.out, "[py-tensor-dot-cuda]")) << run.out;
  run = mpsready("scan --select py-float64 " + root + " --format concise");
  EXPECT_FALSE(contains(run.out, "[py-tensor-dot-cuda]")) << run.out;
}

TEST(CommandLine, DefaultPathIsTheCurrentDirectoryAndDashIsStdout) {
  TempDir dir;
  write_two_rules(dir);
  const CliRun run = mpsready("scan -o - --format json", false, in_dir(dir));
  EXPECT_EQ(run.code, 0) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["findings"].size(), 2u);
  EXPECT_FALSE(fs::exists(dir.path() / "-"));
}

TEST(CommandLine, SeveralPathsReportOnlyTheirFindings) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("a/one.py", "import torch\ny = y.cuda()\n");
  dir.write("b/two.py", "import torch\nz = z.cuda()\n");
  CliRun run = mpsready("scan train.py a --format concise", true, in_dir(dir));
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:2:") && contains(run.out, "a/one.py:2:")) << run.out;
  EXPECT_FALSE(contains(run.out, "b/two.py")) << run.out;
  run = mpsready("scan train.py ../elsewhere", true, in_dir(dir));
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, "path not found: ../elsewhere")) << run.out;
  run = mpsready("scan train.py " + quote(dir.path().parent_path().string()), true, in_dir(dir));
  EXPECT_EQ(run.code, 2);
  EXPECT_TRUE(contains(run.out, "is outside it")) << run.out;
}

TEST(CommandLine, HelpHasExamplesDefaultsAndExitCodes) {
  for (const std::string& args : {"--help", "scan --help"}) {
    const CliRun run = mpsready(args);
    EXPECT_EQ(run.code, 0);
    EXPECT_TRUE(contains(run.out, "Examples:")) << run.out;
    EXPECT_TRUE(contains(run.out, "Exit codes:")) << run.out;
    EXPECT_TRUE(contains(run.out, "2  usage or input error")) << run.out;
  }
  const CliRun scan = mpsready("scan --help");
  EXPECT_TRUE(contains(scan.out, "--color")) << scan.out;
  EXPECT_TRUE(contains(scan.out, "=auto")) << scan.out;  // a default shown
}

TEST(CommandLine, VersionNamesCommitRulesAndParsers) {
  const CliRun run = mpsready("--version");
  EXPECT_EQ(run.code, 0);
  for (const char* part : {"mpsready 0.", "commit: ", "rules: ", "(hash ", "clang: ", "tree-sitter: ",
                           "tree-sitter-python ", "libtorch: "})
    EXPECT_TRUE(contains(run.out, part)) << part << "\n" << run.out;
}

TEST(CommandLine, ColourOnlyWhenAskedOrOnATerminal) {
  TempDir dir;
  write_two_rules(dir);
  const std::string root = quote(dir.path().string());
  EXPECT_FALSE(contains(mpsready("scan " + root, false).out, "\033["));  // a pipe: no colour
  EXPECT_TRUE(contains(mpsready("scan " + root + " --color always", false).out, "\033[33mportable\033[0m"));
  EXPECT_EQ(mpsready("scan " + root + " --color sometimes").code, 2);
}

TEST(CommandLine, StatisticsCountFindingsPerRule) {
  TempDir dir;
  dir.write("train.py", "import torch\nm = m.cuda()\nn = n.cuda()\nx = torch.zeros(3, dtype=torch.float64)\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --statistics", false);
  EXPECT_EQ(run.code, 0);
  EXPECT_TRUE(contains(run.out, "     2  py-tensor-dot-cuda ")) << run.out;
  EXPECT_LT(run.out.find("py-tensor-dot-cuda"), run.out.find("py-float64")) << run.out;
  EXPECT_TRUE(contains(run.out, "verdict: partial")) << run.out;
  EXPECT_EQ(mpsready("scan " + quote(dir.path().string()) + " --statistics --format json").code, 2);
}

TEST(GithubFormat, FindingsAreWorkflowCommands) {
  TempDir dir;
  write_two_rules(dir);
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format github --fail-on partial", false);
  EXPECT_EQ(run.code, 1);
  EXPECT_TRUE(contains(run.out, "::warning file=train.py,line=2,col=5,")) << run.out;
  EXPECT_TRUE(contains(run.out, ",title=py-tensor-dot-cuda::")) << run.out;
  EXPECT_TRUE(contains(run.out, "%0Afix: ")) << run.out;
  EXPECT_TRUE(contains(run.out, "\nverdict: partial")) << run.out;
}

// A bare marker means every rule on its line, as ruff's bare `# noqa` does, and is counted as a
// suppression; an unused one is reported like any other. A malformed id list suppresses nothing,
// and says so: the finding stays, and a suppression note names the line.
TEST(Suppressions, ABareMarkerSuppressesEveryRuleAndAMalformedOneNothing) {
  TempDir dir;
  dir.write("train.py",
            "import torch\n"
            "m = m.cuda()  # mpsready: ignore\n"
            "# mpsready: ignore[py tensor]\n"
            "n = n.cuda()\n"
            "k = 1  # mpsready: ignore\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --select py-* --format concise", false);
  EXPECT_FALSE(contains(run.out, "train.py:2:5: portable:")) << run.out;
  EXPECT_FALSE(contains(run.out, "train.py:2: warning")) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:4:5: portable:")) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:3: warning: `mpsready: ignore[py tensor]` suppresses nothing")) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:5: warning: unused suppression `mpsready: ignore`: no finding on this line; remove it"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "; 1 suppressed;")) << run.out;
}

TEST(Suppressions, UnknownAndUnusedOnesAreReported) {
  TempDir dir;
  dir.write("train.py",
            "import torch\n"
            "m = m.cuda()  # mpsready: ignore[py-tensor-dot-cuda] used\n"
            "x = 1  # mpsready: ignore[py-tensor-dot-cuda] nothing here\n"
            "y = 2  # mpsready: ignore[py-no-such-rule]\n"
            "z = 3  # mpsready: ignore[cu-cuda-kernel] a rule that did not run is left alone\n");
  dir.write("clean.py", "# mpsready: ignore[py-float64]\nprint(1)\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --select py-* --format concise", false);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:3: warning: unused suppression ignore[py-tensor-dot-cuda]: no finding of it on this line; remove it")) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:4: warning: suppression ignore[py-no-such-rule] names no rule")) << run.out;
  EXPECT_TRUE(contains(run.out, "clean.py:1: warning: unused suppression ignore[py-float64]: no finding of it on this line or the next")) << run.out;
  EXPECT_FALSE(contains(run.out, "train.py:2: warning")) << run.out;
  EXPECT_FALSE(contains(run.out, "train.py:5: warning")) << run.out;
  EXPECT_TRUE(contains(run.out, "1 suppressed; 3 suppression problems")) << run.out;
  // The same problems in JSON and SARIF, for a bot that reads those.
  const CliRun json_run = mpsready("scan " + quote(dir.path().string()) + " --select py-* --format json", false);
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc["summary"]["suppression_notes"], 3);
  ASSERT_EQ(doc["suppression_notes"].size(), 3u) << json_run.out;
  EXPECT_EQ(doc["suppression_notes"][0]["path"], "clean.py");
  EXPECT_EQ(doc["suppression_notes"][0]["line"], 1);
  EXPECT_EQ(doc["suppression_notes"][1]["line"], 3);
  EXPECT_EQ(doc["suppression_notes"][2]["message"].get<std::string>().rfind("suppression ignore[py-no-such-rule] names no rule", 0), 0u);
  const CliRun sarif_run = mpsready("scan " + quote(dir.path().string()) + " --select py-* --format sarif", false);
  const auto sarif = nlohmann::json::parse(sarif_run.out);
  size_t suppression_warnings = 0;
  for (const auto& note : sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"])
    if (note["properties"]["kind"] == "suppression") {
      ++suppression_warnings;
      EXPECT_EQ(note["level"], "warning");
      EXPECT_TRUE(note["locations"][0]["physicalLocation"].contains("region")) << note.dump();
    }
  EXPECT_EQ(suppression_warnings, 3u) << sarif_run.out;
}

TEST(Suppressions, PerFileIgnoresAndTheFileLevelForm) {
  TempDir dir;
  dir.write("tests/test_gpu.py", "import torch\nm = m.cuda()\nx = torch.zeros(3, dtype=torch.float64)\n");
  dir.write("bench.py", "# mpsready: ignore-file[py-float64] benchmarks compare against float64\nimport torch\n"
                        "x = torch.zeros(3, dtype=torch.float64)\ny = torch.ones(3, dtype=torch.float64)\nm = m.cuda()\n");
  dir.write(".mpsready.json", "{\"per_file_ignores\": {\"tests/**\": [\"py-tensor-*\"]}}");
  const auto doc = nlohmann::json::parse(mpsready("scan " + quote(dir.path().string()) + " --format json", false).out);
  std::vector<std::string> seen;
  for (const auto& f : doc["findings"]) seen.push_back(f["path"].get<std::string>() + " " + f["rule"].get<std::string>());
  EXPECT_EQ(seen, (std::vector<std::string>{"bench.py py-tensor-dot-cuda", "tests/test_gpu.py py-float64"}));
  EXPECT_EQ(doc["summary"]["suppressed"], 3);
  dir.write(".mpsready.json", "{\"per_file_ignores\": {\"tests/**\": [\"py-tensr-*\"]}}");
  const CliRun bad = mpsready("scan " + quote(dir.path().string()));
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(contains(bad.out, "\"per_file_ignores.tests/**\"[0]: no rule matches \"py-tensr-*\"")) << bad.out;
}

TEST(PreCommit, DiffHeadWorksWithoutCommitsAndAllFilesScansWhatItIsGiven) {
  TempDir dir;
  write_two_rules(dir);
  dir.write("old.py", "import torch\ny = y.cuda()\n");
  if (sh(git(dir) + " init -q") != 0 || sh(git(dir) + " add -A") != 0) GTEST_SKIP() << "git is missing";
  // No commit yet: everything staged is new.
  CliRun run = mpsready("scan --diff HEAD train.py old.py --format concise", false, in_dir(dir));
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_TRUE(contains(run.out, "train.py:2:") && contains(run.out, "old.py:2:")) << run.out;
  ASSERT_EQ(sh(git(dir) + " commit -q --no-verify -m base"), 0);
  // A commit that changes train.py: the hook is given train.py and sees only its changed line.
  dir.write("train.py", "import torch\nm = m.cuda()\nx = torch.zeros(3, dtype=torch.float64)\nn = n.cuda()\n");
  sh(git(dir) + " add -A");
  run = mpsready("scan --diff HEAD train.py --format concise", false, in_dir(dir));
  EXPECT_TRUE(contains(run.out, "train.py:4:")) << run.out;
  EXPECT_FALSE(contains(run.out, "train.py:2:")) << run.out;
  // `pre-commit run --all-files` also gives the unchanged old.py: it is scanned whole.
  run = mpsready("scan --diff HEAD train.py old.py --format concise", false, in_dir(dir));
  EXPECT_TRUE(contains(run.out, "old.py:2:")) << run.out;
  EXPECT_FALSE(contains(run.out, "train.py:2:")) << run.out;
}

}  // namespace mpsready::testing
