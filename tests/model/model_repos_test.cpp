// Synthetic repositories, one per mechanism of the repository model and the assessment, each
// paired with a trap of the same shape (tests/model_repos/README.md lists them). Each is scanned
// by the real executable, with its own .mpsready.json where it has one, and compared with its
// expected.json: the verdict, the components with their roles and verdicts, the evidence kinds,
// and every finding with its effective impact and whether it counts for the repository.
// MPSREADY_UPDATE_GOLDEN=1 rewrites the files; review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

nlohmann::ordered_json expectations_of(const nlohmann::json& report) {
  nlohmann::ordered_json doc;
  doc["verdict"] = report["verdict"];
  doc["collection"] = report["collection"];
  nlohmann::ordered_json components = nlohmann::ordered_json::array();
  for (const auto& c : report["components"]) {
    nlohmann::ordered_json j;
    j["name"] = c["name"];
    j["role"] = c["role"];
    j["verdict"] = c["verdict"];
    if (c.value("outside_core", 0) > 0) j["optional_paths"] = c["outside_core_verdict"];
    components.push_back(j);
  }
  doc["components"] = components;
  std::set<std::string> kinds;
  for (const auto& e : report["mps_evidence"]) kinds.insert(e["kind"].get<std::string>());
  doc["evidence"] = kinds;
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : report["findings"]) {
    nlohmann::ordered_json j;
    j["rule"] = f["rule"];
    j["path"] = f["path"];
    j["line"] = f["line"];
    j["impact"] = f["impact"];
    j["in_core"] = f["in_core"];
    findings.push_back(j);
  }
  doc["findings"] = findings;
  return doc;
}

std::vector<std::string> repo_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(source_dir() / "tests" / "model_repos"))
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

class ModelRepo : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelRepo, VerdictComponentsAndFindings) {
  const fs::path repo = source_dir() / "tests" / "model_repos" / GetParam();
  const CliRun run = mpsready("scan " + quote(repo.string()) + " --format json -q", false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto actual = expectations_of(nlohmann::json::parse(run.out));
  const fs::path expected_file = repo / "expected.json";
  if (const char* update = std::getenv("MPSREADY_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(expected_file) << actual.dump(2) << "\n";
    std::cout << "rewrote " << expected_file << "\n";
  }
  ASSERT_TRUE(fs::exists(expected_file)) << "missing " << expected_file;
  const auto expected = nlohmann::ordered_json::parse(read_text(expected_file));
  // The name says the verdict: a repository cannot drift from what it was made to show.
  const std::string name = GetParam();
  const std::string verdict = expected["verdict"].get<std::string>();
  EXPECT_EQ(name.substr(name.size() - verdict.size()), verdict);
  EXPECT_EQ(expected["verdict"], actual["verdict"]);
  EXPECT_EQ(expected["collection"], actual["collection"]);
  EXPECT_EQ(expected["components"].dump(1), actual["components"].dump(1));
  EXPECT_EQ(expected["evidence"].dump(), actual["evidence"].dump());
  EXPECT_EQ(expected["findings"].dump(1), actual["findings"].dump(1));
}

// The gaps of a core that selects MPS are listed beside the verdict they did not decide, in the
// machine-readable report and in the text a person reads; the traps list none.
TEST(ModelRepoGaps, ListedInJsonAndTextOnlyWhereTheyDoNotDecide) {
  const fs::path repos = source_dir() / "tests" / "model_repos";
  const fs::path gap = repos / "mps-supported-core-gap-mps-ready";
  const CliRun json = mpsready("scan " + quote(gap.string()) + " --format json -q", false);
  ASSERT_EQ(json.code, 0) << json.out;
  const auto doc = nlohmann::json::parse(json.out);
  ASSERT_EQ(doc["gaps"].size(), 1u) << json.out;
  EXPECT_EQ(doc["gaps"][0]["rule"], "py-float64");
  EXPECT_EQ(doc["gaps"][0]["locations"], nlohmann::json::array({"tunekit/methods/spectral.py:21"}));
  EXPECT_NE(doc["gaps"][0]["context"].get<std::string>().find("tunekit/device.py:8"), std::string::npos);
  EXPECT_TRUE(doc["reasons"].empty());
  const CliRun sarif = mpsready("scan " + quote(gap.string()) + " --format sarif -q", false);
  const auto run = nlohmann::json::parse(sarif.out)["runs"][0];
  EXPECT_EQ(run["properties"]["verdict"], "mps-ready");
  EXPECT_EQ(run["properties"]["gaps"][0]["rule"], "py-float64") << sarif.out;
  const CliRun text = mpsready("scan " + quote(gap.string()) + " -q", false);
  EXPECT_NE(text.out.find("gaps in corners of a core that selects MPS"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("at tunekit/methods/spectral.py:21"), std::string::npos) << text.out;
  for (const char* trap : {"mps-supported-core-many-gaps-partial", "mps-selected-in-tests-only-partial"}) {
    const CliRun run = mpsready("scan " + quote((repos / trap).string()) + " --format json -q", false);
    const auto report = nlohmann::json::parse(run.out);
    EXPECT_TRUE(report["gaps"].empty()) << trap;
    EXPECT_EQ(report["reasons"][0]["rule"], "py-float64") << trap;
  }
}

// Why an extension is required is said as the facts read: a CPU build that lacks most operators
// names them (the import itself works on a Mac); none at all, the import fails; the CPU build
// that covers most of them is named at the declaring site. MPS registrations are evidence.
TEST(ModelRepoExtensions, TheImportSaysWhichOperatorsLackCpuCode) {
  const fs::path repos = source_dir() / "tests" / "model_repos";
  const auto message_of = [&](const char* repo, const char* rule) {
    const CliRun run = mpsready("scan " + quote((repos / repo).string()) + " --format json -q --all", false);
    const auto doc = nlohmann::json::parse(run.out);
    for (const auto& f : doc["findings"])
      if (f["rule"] == rule) return f["message"].get<std::string>();
    return std::string();
  };
  const std::string lacking = message_of("device-registry-cuda-only-stay-on-linux", "py-cuda-extension-import");
  EXPECT_NE(lacking.find("its CPU build implements 1 of the 3 operators the CUDA build exports (no CPU code for "
                         "box_iou, roi_align), so on a Mac most of its operators fail when called"),
            std::string::npos)
      << lacking;
  EXPECT_EQ(lacking.find("the import fails"), std::string::npos) << lacking;
  const std::string covered = message_of("device-registry-cpu-impls-partial", "py-cuda-extension");
  EXPECT_NE(covered.find("its CPU build implements 2 of the 3 operators the CUDA build exports (no CPU code for roi_align)"),
            std::string::npos)
      << covered;
  EXPECT_EQ(message_of("device-registry-cpu-impls-partial", "py-cuda-extension-import"), "");
  const CliRun json = mpsready("scan " + quote((repos / "device-registry-cpu-impls-partial").string()) + " --format json -q", false);
  const auto report = nlohmann::json::parse(json.out);
  const auto& evidence = report["mps_evidence"];
  ASSERT_EQ(evidence.size(), 1u) << json.out;
  EXPECT_EQ(evidence[0]["kind"], "mps-kernel");
  EXPECT_EQ(evidence[0]["path"], "boxops/csrc/mps/nms_mps.mm");
  EXPECT_EQ(evidence[0]["text"], "nms_impl registered for MPS (nms_mps)");
}

INSTANTIATE_TEST_SUITE_P(Synthetic, ModelRepo, ::testing::ValuesIn(repo_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace mpsready::testing
