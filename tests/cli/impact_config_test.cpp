// A configuration's `impact` rewrites the rule before the scan (README "How the verdict is
// decided"): repeating a rule's own impact changes nothing, whatever its table records, guards
// and markers say; another impact reaches every site of the rule, those the repository passes
// create included, and every format reports the rule at that impact.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

nlohmann::json scan_json(const fs::path& root, const std::string& format = "json") {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format " + format, false);
  EXPECT_TRUE(run.code == 0 || run.code == 1) << run.out;
  return nlohmann::json::parse(run.out, nullptr, false);
}

std::string verdict(const fs::path& root) {
  const nlohmann::json doc = scan_json(root);
  return doc.is_object() ? doc.value("verdict", "") : "";
}

struct Case {
  const char* name;
  const char* file;
  const char* content;
  const char* rule;
  const char* own_impact;  // the rule's own impact in its rule.json
  const char* expected;    // the verdict with no configuration
};

class RepeatedImpact : public ::testing::TestWithParam<Case> {};

TEST_P(RepeatedImpact, LeavesTheVerdictUnchanged) {
  const Case& c = GetParam();
  TempDir dir;
  dir.write(c.file, c.content);
  ASSERT_EQ(verdict(dir.path()), c.expected) << "without a configuration";
  dir.write(".mpsready.json", std::string(R"({"impact": {")") + c.rule + "\": \"" + c.own_impact + "\"}}");
  EXPECT_EQ(verdict(dir.path()), c.expected) << "a configuration that repeats " << c.rule << "'s own impact";
}

// The table record's impact (bitsandbytes: portable), the rule's guarded impact (info) and a
// requirement's platform marker (info) are the site's, not the rule's: repeating the rule's impact
// keeps them.
INSTANTIATE_TEST_SUITE_P(
    ProvenBugs, RepeatedImpact,
    ::testing::Values(
        Case{"TableRecord", "train.py", "import torch\nimport bitsandbytes as bnb\nx = bnb.nn.Linear8bitLt(4, 4)\n",
             "py-nvidia-only-import", "blocker", "partial"},
        Case{"GuardedImport", "train.py", "import torch\nif torch.cuda.is_available():\n    import apex\n",
             "py-nvidia-only-import", "blocker", "mps-ready"},
        Case{"PlatformMarker", "requirements.txt", "torch\nflash-attn; sys_platform == \"linux\"\n",
             "dep-nvidia-only-package", "blocker", "mps-ready"}),
    [](const auto& info) { return std::string(info.param.name); });

// A CUDA-only extension imported unguarded: the finding at the import comes from a repository
// pass, after the front ends; the configured impact reaches it all the same.
TEST(ConfiguredImpact, ReachesTheFindingsOfARepositoryPass) {
  TempDir dir;
  fs::copy(rules_dir() / "python" / "py-cuda-extension-import" / "fixture", dir.path(), fs::copy_options::recursive);
  const std::string rule = "py-cuda-extension-import";
  const auto count_of = [&](const nlohmann::json& doc, const std::string& impact) {
    size_t n = 0;
    for (const auto& f : doc["findings"])
      if (f["rule"] == rule && (impact.empty() || f["impact"] == impact)) ++n;
    return n;
  };
  const nlohmann::json plain = scan_json(dir.path());
  ASSERT_TRUE(plain.is_object());
  ASSERT_GT(count_of(plain, "blocker"), 0u) << "the fixture imports a CUDA-only extension unguarded";

  dir.write(".mpsready.json", R"({"impact": {"py-cuda-extension-import": "info"}})");
  const nlohmann::json doc = scan_json(dir.path());
  EXPECT_EQ(count_of(doc, ""), count_of(plain, "")) << "the same sites";
  EXPECT_EQ(count_of(doc, "info"), count_of(doc, "")) << "every one of them at info";

  const nlohmann::json sarif = scan_json(dir.path(), "sarif");
  ASSERT_TRUE(sarif.is_object());
  const auto& run = sarif["runs"][0];
  std::string rule_level;
  for (const auto& r : run["tool"]["driver"]["rules"])
    if (r["id"] == rule) rule_level = r["defaultConfiguration"]["level"];
  EXPECT_EQ(rule_level, "note");
  size_t results = 0;
  for (const auto& r : run["results"]) {
    if (r["ruleId"] != rule) continue;
    ++results;
    EXPECT_EQ(r["level"], rule_level) << "a result's level is its rule's configured level";
  }
  EXPECT_EQ(results, count_of(doc, ""));
}

// The configured impact replaces a table record's (bitsandbytes is portable in the table) and a
// guarded site stays as far below it as the rule's own guarded impact is below its own impact.
TEST(ConfiguredImpact, ReplacesRecordImpactsAndKeepsTheGuardDistance) {
  TempDir dir;
  dir.write("train.py", "import torch\nimport bitsandbytes as bnb\nif torch.cuda.is_available():\n    import apex\n");
  dir.write(".mpsready.json", R"({"impact": {"py-nvidia-only-import": "portable"}})");
  const nlohmann::json doc = scan_json(dir.path());
  ASSERT_TRUE(doc.is_object());
  std::map<int, std::string> by_line;
  for (const auto& f : doc["findings"])
    if (f["rule"] == "py-nvidia-only-import") by_line[f["line"].get<int>()] = f["impact"];
  EXPECT_EQ(by_line[2], "portable") << "the record's own impact gives way to the configured one";
  EXPECT_EQ(by_line[4], "info") << "blocker to info is two levels; portable less two is info";
}

// An import of the repository's own module that fails on a Mac because of an import further
// down (py-import-fails-on-mac) stands or falls with that import's finding: configured away or
// suppressed, it takes its carriers with it; with its rule not selected, they stand on their own.
TEST(CarriedImports, FollowTheFindingTheyCarry) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/kernels.py", "import triton\n\n\ndef fused(x):\n    return x\n");
  dir.write("pkg/layer.py", "from pkg.kernels import fused\n");
  dir.write("train.py", "import torch\nfrom pkg.layer import fused\n");
  const auto carriers = [](const nlohmann::json& doc) {
    std::vector<std::string> at;
    for (const auto& f : doc["findings"])
      if (f["rule"] == "py-import-fails-on-mac") at.push_back(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()));
    return at;
  };
  const nlohmann::json plain = scan_json(dir.path());
  ASSERT_TRUE(plain.is_object());
  EXPECT_EQ(carriers(plain), (std::vector<std::string>{"pkg/layer.py:1", "train.py:2"}));
  EXPECT_EQ(plain["verdict"], "stay-on-linux");

  dir.write(".mpsready.json", R"({"impact": {"py-nvidia-only-import": "info"}})");
  const nlohmann::json configured = scan_json(dir.path());
  EXPECT_TRUE(carriers(configured).empty()) << "the cause configured to info carries nothing";
  EXPECT_EQ(configured["verdict"], "mps-ready");
  fs::remove(dir.path() / ".mpsready.json");

  dir.write("pkg/kernels.py", "import triton  # mpsready: ignore[py-nvidia-only-import] optional kernels\n");
  const nlohmann::json suppressed = scan_json(dir.path());
  EXPECT_TRUE(carriers(suppressed).empty()) << "a suppressed cause carries nothing";
  EXPECT_EQ(suppressed["verdict"], "mps-ready");

  const CliRun only = mpsready("scan " + quote(dir.path().string()) + " --format json --select py-import-fails-on-mac", false);
  const nlohmann::json selected = nlohmann::json::parse(only.out, nullptr, false);
  ASSERT_TRUE(selected.is_object()) << only.out;
  EXPECT_EQ(carriers(selected), (std::vector<std::string>{"pkg/layer.py:1", "train.py:2"}))
      << "with the cause's rule not run, the carriers stand on their own";
}

}  // namespace
}  // namespace mpsready::testing
