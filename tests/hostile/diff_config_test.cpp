// Issue 26, item 3: in diff mode a pull request cannot judge itself with its own configuration,
// baseline or suppressions. Each test is one attack: BASE is a clean repository, the change adds
// a blocker together with an edit that would hide it.
#include <gtest/gtest.h>

#include <algorithm>

#include "hostile/diff_repo.h"
#include "report/report_text.h"

namespace mpsready::testing {

namespace {

const char* kClean = "import torch\n\n\ndef f(x):\n    return x\n";
const char* kBlocker = "import torch\n\n\ndef f(x):\n    return x\n\n\nimport flash_attn\n";

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// BASE: `files_before`; the change: `files_after`, committed. Then the gate must trip, name the
// edited file, and list the blocker the change adds.
void expect_blocker_caught(const std::vector<std::pair<std::string, std::string>>& files_before,
                           const std::vector<std::pair<std::string, std::string>>& files_after,
                           const std::string& blocker_site, const std::string& edited) {
  TempDir dir;
  for (const auto& [path, text] : files_before) dir.write(path, text);
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  for (const auto& [path, text] : files_after) dir.write(path, text);
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--fail-on stay-on-linux");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  EXPECT_EQ(scan.code, 1) << scan.out;
  EXPECT_TRUE(contains(sites(scan.doc), blocker_site)) << scan.doc.dump(1);
  EXPECT_EQ(scan.doc["verdict"], "stay-on-linux") << scan.doc.dump(1);
  EXPECT_EQ(scan.doc["diff"]["verdict_after"], "stay-on-linux");
  EXPECT_TRUE(contains(config_changes(scan.doc), edited)) << scan.doc["diff"].dump(1);
  EXPECT_EQ(scan.doc["diff"]["change"].get<std::string>().find("adds no finding"), std::string::npos) << scan.doc["diff"];
  // The PR comment says it on its first line.
  const CliRun md = mpsready("scan " + quote(dir.path().string()) + " --format markdown --diff HEAD~1", false);
  const std::string first = md.out.substr(0, md.out.find('\n'));
  EXPECT_NE(first.find(markdown_escape("edits what its own scan is configured by (" + edited.substr(0, edited.find(" (")))),
            std::string::npos)
      << first;
}

}  // namespace

TEST(HostileDiffConfig, AnIgnoreOfEveryRulePrefixInMpsreadyJson) {
  expect_blocker_caught({{"model.py", kClean}},
                        {{"model.py", kBlocker}, {".mpsready.json", R"({"ignore": ["py-*", "cu-*", "dep-*"]})"}},
                        "model.py:8:py-nvidia-only-import", ".mpsready.json (configuration)");
}

TEST(HostileDiffConfig, PerFileIgnoresOfEverythingInPyproject) {
  expect_blocker_caught({{"model.py", kClean}, {"pyproject.toml", "[project]\nname = \"m\"\n"}},
                        {{"model.py", kBlocker},
                         {"pyproject.toml", "[project]\nname = \"m\"\n\n[tool.mpsready]\nper_file_ignores = {\"**\" = [\"*\"]}\n"}},
                        "model.py:8:py-nvidia-only-import", "pyproject.toml [tool.mpsready] (configuration)");
}

TEST(HostileDiffConfig, AnExcludeOfTheChangedFile) {
  expect_blocker_caught({{"model.py", kClean}}, {{"model.py", kBlocker}, {".mpsready.json", R"({"exclude": ["model.py"]})"}},
                        "model.py:8:py-nvidia-only-import", ".mpsready.json (configuration)");
}

TEST(HostileDiffConfig, TheBlockersImpactLoweredToInfo) {
  expect_blocker_caught({{"model.py", kClean}},
                        {{"model.py", kBlocker}, {".mpsready.json", R"({"impact": {"py-nvidia-only-import": "info"}})"}},
                        "model.py:8:py-nvidia-only-import", ".mpsready.json (configuration)");
}

TEST(HostileDiffConfig, ThePackageCalledTests) {
  expect_blocker_caught({{"pkg/model.py", kClean}, {"pkg/__init__.py", ""}},
                        {{"pkg/model.py", kBlocker}, {".mpsready.json", R"({"roles": {"pkg": "tests"}})"}},
                        "pkg/model.py:8:py-nvidia-only-import", ".mpsready.json (configuration)");
}

TEST(HostileDiffConfig, AGitignoreOverATrackedFileHidesNothing) {
  // The file stays tracked (and changed): the walk reads what git tracks whatever `.gitignore`
  // says, so the blocker it gains is scanned and trips the gate, and nothing stopped being scanned.
  TempDir dir;
  dir.write("model.py", kClean);
  dir.write("other.py", "import torch\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", kBlocker);
  dir.write(".gitignore", "model.py\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--fail-on stay-on-linux");
  EXPECT_EQ(scan.code, 1) << scan.out;
  EXPECT_EQ(scan.doc["verdict"], "stay-on-linux") << scan.out;
  EXPECT_TRUE(config_changes(scan.doc).empty()) << scan.out;
}

TEST(HostileDiffConfig, AFileGrownPastTheSizeLimit) {
  TempDir dir;
  dir.write("model.py", kClean);
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", std::string(kBlocker) + "#" + std::string(4000, 'x') + "\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--max-file-size 2000 --fail-on stay-on-linux");
  EXPECT_EQ(scan.code, 1) << scan.out;
  EXPECT_EQ(config_changes(scan.doc), (std::vector<std::string>{"model.py (no longer scanned)"})) << scan.out;
}

TEST(HostileDiffConfig, AnUnrelatedPyprojectEditIsNoConfigurationChange) {
  // No false alarm: the table is compared, not the file; a moved finding is not new either.
  TempDir dir;
  dir.write("model.py", kClean);
  dir.write("pyproject.toml", "[project]\nname = \"m\"\n\n[tool.mpsready]\nfail_on = \"stay-on-linux\"\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("pyproject.toml", "[project]\nname = \"m\"\nversion = \"2\"\n\n[tool.mpsready]\nfail_on = \"stay-on-linux\"\n");
  dir.write("model.py", std::string("# a comment\n") + kClean);
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--fail-on partial");
  EXPECT_EQ(scan.code, 0) << scan.out;
  EXPECT_TRUE(config_changes(scan.doc).empty()) << scan.out;
  EXPECT_TRUE(scan.doc["diff"]["suppressions_added"].empty()) << scan.out;
}

TEST(HostileDiffConfig, AHigherFailOnInTheChangesOwnConfiguration) {
  // BASE gates at partial; the change raises its own bar and adds a portable site. No --fail-on on
  // the command line: the configuration's is BASE's.
  TempDir dir;
  dir.write("model.py", kClean);
  dir.write(".mpsready.json", R"({"fail_on": "partial"})");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", std::string(kClean) + "m = m.cuda()\n");
  dir.write(".mpsready.json", R"({"fail_on": "stay-on-linux"})");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1");
  EXPECT_EQ(scan.code, 1) << scan.out;
  EXPECT_EQ(scan.doc["verdict"], "partial") << scan.out;
  EXPECT_TRUE(contains(config_changes(scan.doc), ".mpsready.json (configuration)")) << scan.out;
}

TEST(HostileDiffConfig, AConfigurationChangeFailsTheGateUnlessAllowed) {
  // The change adds no finding, only a configuration: --fail-on fails with a one-line message
  // naming the file, and --allow-config-change accepts it.
  TempDir dir;
  dir.write("model.py", kClean);
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write(".mpsready.json", R"({"ignore": ["py-*"]})");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const std::string root = quote(dir.path().string());
  const CliRun gated = mpsready_redirected("scan " + root + " --diff HEAD~1 --fail-on partial", " 2>&1 >/dev/null");
  EXPECT_EQ(gated.code, 1) << gated.out;
  EXPECT_EQ(std::count(gated.out.begin(), gated.out.end(), '\n'), 1) << gated.out;
  EXPECT_NE(gated.out.find("this change edits .mpsready.json (configuration)"), std::string::npos) << gated.out;
  EXPECT_NE(gated.out.find("--allow-config-change"), std::string::npos) << gated.out;
  EXPECT_EQ(mpsready("scan " + root + " --diff HEAD~1 --fail-on partial --allow-config-change").code, 0);
  // Without a gate the report still says it, and the exit code is 0.
  EXPECT_EQ(mpsready("scan " + root + " --diff HEAD~1").code, 0);
}

TEST(HostileDiffConfig, TheChangesOwnBaselineIsNotRead) {
  // BASE commits a baseline of its findings; the change adds the fingerprint of its new blocker.
  TempDir dir;
  dir.write("model.py", kClean);
  const std::string root = quote(dir.path().string());
  ASSERT_EQ(mpsready("scan " + root + " --write-baseline " + quote((dir.path() / ".mpsready-baseline.json").string())).code, 0);
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", kBlocker);
  ASSERT_EQ(mpsready("scan " + root + " --write-baseline " + quote((dir.path() / ".mpsready-baseline.json").string())).code, 0);
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1", "--baseline " + quote((dir.path() / ".mpsready-baseline.json").string()) +
                                                     " --fail-on stay-on-linux --allow-config-change");
  EXPECT_EQ(scan.code, 1) << scan.out;
  EXPECT_TRUE(contains(sites(scan.doc), "model.py:8:py-nvidia-only-import")) << scan.out;
  EXPECT_TRUE(contains(config_changes(scan.doc), ".mpsready-baseline.json (baseline)")) << scan.out;
}

TEST(HostileDiffConfig, EverySuppressionTheChangeAddsIsListedWithItsPlace) {
  TempDir dir;
  dir.write("model.py", "import torch\n# mpsready: ignore[py-tensor-dot-cuda] old and known\nm = m.cuda()\n");
  dir.write("other.py", "import torch\n");
  dir.write("csrc/k.cu", "// a kernel file\n");
  dir.write("requirements.txt", "torch\n");
  ASSERT_TRUE(commit_all(dir, "base")) << "git is needed (scripts/bootstrap installs it)";
  // The old suppression moves down (not new); four new ones hide blockers.
  dir.write("model.py", "import torch\n\n\n# mpsready: ignore[py-tensor-dot-cuda] old and known\nm = m.cuda()\n"
                        "import flash_attn  # mpsready: ignore[*]\n");
  dir.write("other.py", "# mpsready: ignore-file[*] nothing to see\nimport torch\nimport apex\n");
  dir.write("csrc/k.cu", "// a kernel file\n__global__ void k(float* x) { x[0] = 1; }  // mpsready: ignore[*]\n");
  dir.write("requirements.txt", "torch\nflash-attn  # mpsready: ignore[dep-*]\n");
  ASSERT_TRUE(commit_all(dir, "the change"));
  const DiffScan scan = diff_scan(dir, "HEAD~1");
  ASSERT_TRUE(scan.doc.is_object()) << scan.out;
  std::vector<std::string> listed;
  for (const auto& s : scan.doc["diff"]["suppressions_added"]) {
    std::string rules;
    for (const auto& r : s["rules"]) rules += r.get<std::string>();
    listed.push_back(s["path"].get<std::string>() + ":" + std::to_string(s["line"].get<int>()) + ":" + rules +
                     (s["file_level"].get<bool>() ? ":file" : "") + (s["every_rule"].get<bool>() ? ":every" : ""));
  }
  EXPECT_EQ(listed, (std::vector<std::string>{"csrc/k.cu:2:*:every", "model.py:6:*:every", "other.py:1:*:file:every",
                                              "requirements.txt:2:dep-*"}))
      << scan.doc["diff"].dump(1);
  const CliRun md = mpsready("scan " + quote(dir.path().string()) + " --format markdown --diff HEAD~1", false);
  const std::string first = md.out.substr(0, md.out.find('\n'));
  EXPECT_NE(first.find(markdown_escape("adds 4 suppression comments (3 of every rule")), std::string::npos) << first;
  EXPECT_NE(md.out.find("### Suppressions this change adds"), std::string::npos) << md.out;
}

}  // namespace mpsready::testing
