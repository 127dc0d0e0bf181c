// Each bundled sample repository against its expected.json: the verdict and every finding (rule,
// path, cell, line, guarded). MPSREADY_UPDATE_GOLDEN=1 rewrites the files; review the diff.
#include <gtest/gtest.h>

#include <iostream>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace mpsready::testing {

namespace {

nlohmann::ordered_json actual_expectations(const ScanResult& result) {
  nlohmann::ordered_json doc;
  doc["verdict"] = to_string(result.summary.verdict);
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : result.findings) {
    nlohmann::ordered_json j;
    j["rule"] = f.rule;
    j["path"] = f.path;
    if (f.location.cell) j["cell"] = f.location.cell;
    j["line"] = f.location.line;
    j["impact"] = to_string(f.impact);
    j["guarded"] = f.guarded;
    findings.push_back(j);
  }
  doc["findings"] = findings;
  nlohmann::ordered_json errors = nlohmann::ordered_json::array();
  for (const auto& e : result.errors) errors.push_back(e.path);
  doc["errors"] = errors;
  return doc;
}

}  // namespace

class SampleRepo : public ::testing::TestWithParam<std::string> {};

TEST_P(SampleRepo, MatchesExpectedVerdictAndFindings) {
  const fs::path repo = source_dir() / "sample_repos" / GetParam();
  const fs::path expected_file = repo / "expected.json";
  const ScanResult result = scan(repo);
  const auto actual = actual_expectations(result);
  if (const char* update = std::getenv("MPSREADY_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    // Rewrite, then compare as usual (review the diff before committing it).
    std::ofstream(expected_file) << actual.dump(2) << "\n";
    std::cout << "rewrote " << expected_file << "\n";
  }
  ASSERT_TRUE(fs::exists(expected_file)) << "missing " << expected_file;
  const auto expected = nlohmann::ordered_json::parse(read_text(expected_file));
  EXPECT_EQ(expected["verdict"], actual["verdict"]);
  EXPECT_EQ(expected["findings"].dump(1), actual["findings"].dump(1));
  EXPECT_EQ(expected["errors"].dump(), actual["errors"].dump());
}

std::vector<std::string> sample_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(source_dir() / "sample_repos"))
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Bundled, SampleRepo, ::testing::ValuesIn(sample_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& c : name) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(SampleRepos, OneOfEachVerdict) {
  std::set<std::string> verdicts;
  for (const auto& name : sample_names()) {
    const auto expected = nlohmann::json::parse(read_text(source_dir() / "sample_repos" / name / "expected.json"));
    verdicts.insert(expected["verdict"].get<std::string>());
  }
  EXPECT_EQ(verdicts, (std::set<std::string>{"mps-ready", "partial", "stay-on-linux"}));
}

TEST(SampleRepos, OutputDoesNotDependOnThreadCount) {
  for (const auto& name : sample_names()) {
    const fs::path repo = source_dir() / "sample_repos" / name;
    const auto one = actual_expectations(scan(repo, {}, 1)).dump();
    const auto four = actual_expectations(scan(repo, {}, 4)).dump();
    EXPECT_EQ(one, four) << name;
  }
}

}  // namespace mpsready::testing
