// The configuration's impacts over every rule and every sample and synthetic model repository
// (in process, like `mpsready scan` with a .mpsready.json that sets only `impact`):
// - repeating every rule's own impact leaves the JSON report byte-identical;
// - setting one rule to info leaves no finding of it above info, in JSON and in SARIF (the rule's
//   level and its results' levels agree).
// Each rule set to info rescans only the repositories where that rule reports above info (a
// configuration cannot add findings), so the whole property runs in seconds.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

std::vector<fs::path> corpus() {
  std::vector<fs::path> repos;
  for (const fs::path dir : {source_dir() / "sample_repos", source_dir() / "tests" / "model_repos"})
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_directory()) repos.push_back(entry.path());
  std::sort(repos.begin(), repos.end());
  return repos;
}

ScanResult scan_with(const Pipeline& pipeline, const fs::path& root) {
  ScanOptions options;
  options.jobs = 2;
  return pipeline.scan(root, options);
}

std::string report(const ScanResult& result, const RuleSet& rules, const fs::path& root, bool sarif) {
  std::ostringstream out;
  ReportContext ctx{root.string(), "test", &rules.rules()};
  if (sarif) write_sarif_report(out, result, ctx);
  else write_json_report(out, result, ctx);
  return out.str();
}

TEST(ConfiguredImpactProperty, RepeatingEveryRulesOwnImpactLeavesTheJsonByteIdentical) {
  const RuleSet& plain = bundled_rules();
  RuleSet repeated = plain;
  std::map<std::string, Impact> own;
  for (const Rule& r : plain.rules()) own[r.id] = r.impact;
  repeated.configure_impacts(own);
  const Pipeline a(plain), b(repeated);
  for (const fs::path& repo : corpus())
    EXPECT_EQ(report(scan_with(a, repo), plain, repo, false), report(scan_with(b, repo), repeated, repo, false))
        << repo.filename();
}

TEST(ConfiguredImpactProperty, ARuleSetToInfoReportsNothingAboveInfoInJsonAndSarif) {
  const RuleSet& plain = bundled_rules();
  const Pipeline pipeline(plain);
  const std::vector<fs::path> repos = corpus();
  std::map<std::string, std::vector<size_t>> above_info;  // rule -> repositories where it is
  for (size_t i = 0; i < repos.size(); ++i) {
    std::set<std::string> seen;
    for (const Finding& f : scan_with(pipeline, repos[i]).findings)
      if (f.impact > Impact::info && seen.insert(f.rule).second) above_info[f.rule].push_back(i);
  }
  ASSERT_GT(above_info.size(), 10u) << "the corpus exercises many rules above info";
  for (const auto& [id, where] : above_info) {
    RuleSet rules = plain;
    rules.configure_impacts({{id, Impact::info}});
    const Pipeline configured(rules);
    for (const size_t i : where) {
      const fs::path& repo = repos[i];
      const ScanResult result = scan_with(configured, repo);
      // (At info a site may give way to another rule's overlapping site: python_analyzer merges
      // overlapping findings, keeping the higher impact. None of the rule's may stay above info.)
      // (Parsed into a local: a range-for over a member of a temporary reads freed memory.)
      const auto json = nlohmann::json::parse(report(result, rules, repo, false));
      for (const auto& f : json["findings"])
        if (f["rule"] == id)
          EXPECT_EQ(f["impact"], "info") << id << " in " << repo.filename() << " line " << f["line"];
      const auto run = nlohmann::json::parse(report(result, rules, repo, true))["runs"][0];
      for (const auto& r : run["tool"]["driver"]["rules"])
        if (r["id"] == id) EXPECT_EQ(r["defaultConfiguration"]["level"], "note") << id;
      for (const auto& r : run["results"])
        if (r["ruleId"] == id) EXPECT_EQ(r["level"], "note") << id << " in " << repo.filename();
    }
  }
}

}  // namespace
}  // namespace mpsready::testing
