// SARIF specifics: levels, rule indexes, relative URIs, notebook locations, suppressed findings,
// and fingerprints that survive lines moving.
#include <gtest/gtest.h>

#include <map>

#include <sstream>

#include <nlohmann/json.hpp>

#include "report/fingerprint.h"
#include "report/golden_findings.h"
#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

nlohmann::json sarif_of(const ScanResult& result) {
  static const std::vector<Rule> rules = golden_rules();
  std::ostringstream out;
  write_sarif_report(out, result, ReportContext{"/home/someone/repo", "1.2.3", &rules});
  return nlohmann::json::parse(out.str());
}

}  // namespace

TEST(Sarif, RulesResultsAndLocations) {
  const auto log = sarif_of(golden_scan());
  EXPECT_EQ(log["version"], "2.1.0");
  const auto& run = log["runs"][0];
  const auto& driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"], "mpsready");
  EXPECT_EQ(driver["version"], "1.2.3");
  ASSERT_EQ(driver["rules"].size(), 5u);
  EXPECT_EQ(driver["rules"][0]["id"], "cu-cuda-kernel");
  EXPECT_EQ(driver["rules"][0]["name"], "CuCudaKernel");
  EXPECT_EQ(driver["rules"][0]["defaultConfiguration"]["level"], "error");
  EXPECT_EQ(driver["rules"][0]["fullDescription"]["text"], "Sites of cu-cuda-kernel. On two lines.");
  EXPECT_EQ(driver["rules"][0]["help"]["text"], "Fix for cu-cuda-kernel.");
  EXPECT_NE(driver["rules"][0]["help"]["markdown"].get<std::string>().find("## What it flags"), std::string::npos);
  ASSERT_EQ(run["results"].size(), 6u);  // the suppressed finding is left out
  std::map<std::string, std::string> levels;
  for (const auto& res : run["results"]) {
    const size_t index = res["ruleIndex"];
    EXPECT_EQ(driver["rules"][index]["id"], res["ruleId"]);
    levels[res["ruleId"]] = res["level"];
    EXPECT_EQ(res["partialFingerprints"]["mpsready/v1"].get<std::string>().size(), 16u);
    const auto& loc = res["locations"][0]["physicalLocation"];
    EXPECT_EQ(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  }
  EXPECT_EQ(levels["cu-cuda-kernel"], "error");
  EXPECT_EQ(levels["py-tensor-dot-cuda"], "warning");
  EXPECT_EQ(levels["py-float64"], "note");
  EXPECT_EQ(levels["py-cuda-amp"], "note");  // guarded: lowered to info
  // Spaces are percent-encoded; the path stays relative.
  bool saw_space = false, saw_notebook = false;
  for (const auto& res : run["results"]) {
    const auto& loc = res["locations"][0]["physicalLocation"];
    const std::string uri = loc["artifactLocation"]["uri"];
    EXPECT_NE(uri, "src/legacy.py");  // suppressed
    if (uri == "src/my%20model/train.py") saw_space = true;
    if (uri == "notebooks/explore.ipynb") {
      saw_notebook = true;
      // Cell lines are not lines of the .ipynb file: the region is where the line's JSON string
      // starts in it, so code scanning can place the alert.
      EXPECT_EQ(loc["region"]["startLine"], 41);
      EXPECT_EQ(loc["region"]["startColumn"], 6);
      EXPECT_FALSE(loc["region"].contains("endLine"));
      EXPECT_EQ(res["properties"]["cell"], 3);
      EXPECT_NE(res["message"]["text"].get<std::string>().find("(cell 3, line 2)"), std::string::npos);
    }
    if (uri == "csrc/kernel.cu") {
      EXPECT_EQ(loc["region"]["startLine"], 12);
      EXPECT_EQ(loc["region"]["startColumn"], 1);
      EXPECT_EQ(loc["region"]["endLine"], 12);
      EXPECT_EQ(loc["region"]["endColumn"], 16);
      EXPECT_EQ(res["properties"]["mode"], "tolerant");
    }
  }
  EXPECT_TRUE(saw_space);
  EXPECT_TRUE(saw_notebook);
  EXPECT_EQ(run["properties"]["suppressed"], 1);
  EXPECT_TRUE(run["invocations"][0]["executionSuccessful"]);
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 2u);
  // Nothing machine-specific: the absolute root is not written.
  EXPECT_EQ(log.dump().find("/home/someone"), std::string::npos);
}

TEST(Fingerprints, SurviveLinesMovingAndWhitespaceButNotOtherEdits) {
  ScanResult before = golden_scan();
  ScanResult after = golden_scan();
  for (Finding& f : after.findings) {
    f.location.line += 40;
    f.location.end_line += 40;
    f.snippet = "  " + f.snippet + "   ";
  }
  EXPECT_EQ(finding_fingerprints(before.findings), finding_fingerprints(after.findings));
  after.findings[0].snippet += " + 1";
  EXPECT_NE(finding_fingerprints(before.findings)[0], finding_fingerprints(after.findings)[0]);
  EXPECT_EQ(normalized_snippet("  a \t b\r\n"), "a b");
}

TEST(Fingerprints, IdenticalSitesInOneFileAreTellApartByOrder) {
  Finding f = golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "a.py", 1, 1, 5, "m", "x.cuda()");
  Finding g = f;
  g.location.line = 9;
  Finding h = f;
  h.path = "b.py";
  const auto prints = finding_fingerprints({f, g, h});
  EXPECT_NE(prints[0], prints[1]);
  EXPECT_NE(prints[0], prints[2]);
  // Deleting an unrelated earlier site of another rule changes nothing.
  Finding other = f;
  other.rule = "py-float64";
  EXPECT_EQ(finding_fingerprints({other, f, g, h})[2], prints[1]);
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
}

}  // namespace mpsready::testing

namespace mpsready::testing {

// A rule's helpUri and the tool's informationUri are written only when the build names where mpsready
// is published (MPSREADY_HOMEPAGE): then every helpUri names the rule's doc.md, which exists here;
// otherwise neither is written (no link to a page that may not exist), and the doc is in `help`.
TEST(Sarif, HelpUrisOnlyWhereTheBuildNamesAHomepage) {
  const RuleSet rules = RuleSet::load(source_dir() / "rules");
  ScanResult result;
  for (const Rule& r : rules.rules())
    result.findings.push_back(golden_finding(r.id, r.category, r.impact, "a.py", 1, 1, 2, "m", "x"));
  ReportContext ctx{"repo", "0.0.0", &rules.rules()};
  std::ostringstream out;
  write_sarif_report(out, result, ctx);
  const auto log = nlohmann::json::parse(out.str());
  const auto& driver = log["runs"][0]["tool"]["driver"];
  ASSERT_EQ(driver["rules"].size(), rules.rules().size());
  const bool published = driver.contains("informationUri");
  for (const auto& r : driver["rules"]) {
    EXPECT_EQ(r.contains("helpUri"), published) << r["id"];
    EXPECT_FALSE(r["help"]["markdown"].get<std::string>().empty()) << r["id"];
    if (!published) continue;
    const std::string home = driver["informationUri"];
    const std::string uri = r["helpUri"];
    const std::string prefix = home + "/blob/main/";
    ASSERT_EQ(uri.rfind(prefix, 0), 0u) << uri;
    EXPECT_TRUE(fs::exists(source_dir() / uri.substr(prefix.size()))) << uri;
    EXPECT_NE(uri.find("/" + r["id"].get<std::string>() + "/doc.md"), std::string::npos) << uri;
  }
}

// A result's level is what the site means for this repository: a finding that does not count for
// the verdict is a note whatever its impact, so code scanning shows no error for an mps-ready
// repository; the ones that decide say so. Only rules with a result are described.
TEST(Sarif, LevelsFollowWhatCountsForTheVerdict) {
  Finding deciding = golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "pkg/a.py", 2, 1, 5, "m", "x");
  Finding example = golden_finding("cu-cuda-kernel", "custom-extension", Impact::blocker, "examples/k.cu", 3, 1, 5, "k", "y");
  example.in_core = false;
  Finding gap = golden_finding("py-float64", "dtype", Impact::portable, "pkg/b.py", 4, 1, 5, "g", "z");
  gap.in_core = false;
  gap.gap = true;
  ScanResult result;
  result.findings = {deciding, example, gap};
  sort_findings(result.findings);
  result.summary = summarize(result.findings);
  const std::vector<Rule> rules = golden_rules();
  ReportContext ctx{"repo", "1.0.0", &rules};
  ctx.commit = "abc123";
  ctx.rules_hash = "feed";
  std::ostringstream out;
  write_sarif_report(out, result, ctx);
  const auto log = nlohmann::json::parse(out.str());
  const auto& run = log["runs"][0];
  std::map<std::string, std::pair<std::string, bool>> level;
  for (const auto& r : run["results"]) level[r["ruleId"]] = {r["level"], r["properties"]["decides"]};
  EXPECT_EQ(level["py-tensor-dot-cuda"], std::make_pair(std::string("warning"), true));
  EXPECT_EQ(level["cu-cuda-kernel"], std::make_pair(std::string("note"), false));
  EXPECT_EQ(level["py-float64"], std::make_pair(std::string("note"), false));
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), 3u) << "only the rules with a result";
  EXPECT_EQ(run["properties"]["rulesRun"], rules.size());
  EXPECT_EQ(run["tool"]["driver"]["properties"]["commit"], "abc123");
  EXPECT_EQ(run["tool"]["driver"]["properties"]["rulesHash"], "feed");
}

}  // namespace mpsready::testing

namespace mpsready::testing {

// A rule's doc is read where the user is (SARIF help, `rules explain`, the HTML plan): its
// sources are links, never a file of this repository's authors.
TEST(RuleDocs, CiteSourcesByUrl) {
  const RuleSet rules = RuleSet::load(source_dir() / "rules");
  for (const Rule& r : rules.rules()) {
    EXPECT_EQ(r.doc.find("MPS_FACTS"), std::string::npos) << r.id;
    const size_t refs = r.doc.find("## References");
    ASSERT_NE(refs, std::string::npos) << r.id;
    const size_t next = r.doc.find("\n## ", refs + 1);
    EXPECT_NE(r.doc.substr(refs, next == std::string::npos ? std::string::npos : next - refs).find("https://"),
              std::string::npos)
        << r.id << ": no link under References";
  }
}

}  // namespace mpsready::testing
