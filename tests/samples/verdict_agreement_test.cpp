// Every format renders the one summary of a scan: HTML, Markdown, text, JSON and SARIF of each
// sample repository state the same verdict and the same blocker count, and the HTML's decision
// table names as blockers only those that keep the repository on Linux.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

using Writer = void (*)(std::ostream&, const ScanResult&, const ReportContext&);

std::string render(Writer write, const ScanResult& result, const fs::path& root) {
  std::ostringstream out;
  const ReportContext ctx{root.string(), "test", &bundled_rules().rules()};
  write(out, result, ctx);
  return out.str();
}

// The first capture of `pattern` in `text`, or "(absent)".
std::string first(const std::string& text, const std::string& pattern) {
  std::smatch m;
  return std::regex_search(text, m, std::regex(pattern)) ? m[1].str() : "(absent)";
}

struct Stated {
  std::string verdict;
  std::string blockers;
};

std::map<std::string, Stated> stated_by_format(const ScanResult& result, const fs::path& root) {
  std::map<std::string, Stated> out;
  const std::string text = render(write_text_report, result, root);
  out["text"] = {first(text, "verdict: ([a-z-]+) \\("), first(text, "findings: \\d+ \\(blocker (\\d+),")};
  const std::string md = render(write_markdown_report, result, root);
  out["markdown"] = {first(md, "\\*\\*mpsready: ([a-z-]+)\\*\\*"), first(md, "findings? \\(blocker (\\d+),")};
  const std::string html = render(write_html_report, result, root);
  out["html"] = {first(html, "id=\"verdict\">([a-z-]+)<"), first(html, "scanned files? \\(blocker (\\d+),")};
  const auto json = nlohmann::json::parse(render(write_json_report, result, root));
  out["json"] = {json["verdict"], std::to_string(json["summary"]["by_impact"]["blocker"].get<size_t>())};
  const auto run = nlohmann::json::parse(render(write_sarif_report, result, root))["runs"][0];
  size_t errors = 0;
  for (const auto& r : run["results"])
    if (r["level"] == "error") ++errors;
  out["sarif"] = {run["properties"]["verdict"], std::to_string(errors)};
  return out;
}

// Every format states the scan's verdict and blocker count (SARIF's errors: the blockers that count).
TEST(VerdictAgreement, EveryFormatStatesTheSameVerdictAndBlockerCount) {
  for (const auto& entry : fs::directory_iterator(source_dir() / "sample_repos")) {
    const fs::path& repo = entry.path();
    const ScanResult result = scan(repo, {}, 2);
    const std::string verdict(to_string(result.summary.verdict));
    const std::string blockers = std::to_string(result.summary.by_impact.at("blocker"));
    // SARIF's errors are the blockers that count: one that does not is a note there.
    size_t counted = 0;
    for (const Finding& f : result.findings) counted += f.impact == Impact::blocker && counts_for_verdict(f);
    for (const auto& [format, stated] : stated_by_format(result, repo)) {
      EXPECT_EQ(stated.verdict, verdict) << format << " of " << repo.filename();
      EXPECT_EQ(stated.blockers, format == "sarif" ? std::to_string(counted) : blockers) << format << " of " << repo.filename();
    }
  }
}

// A blocker in tests/ keeps nothing on Linux: the repository is mps-ready, and the HTML's
// decision table says nothing blocks it, as the summary does.
TEST(VerdictAgreement, HtmlDecisionTableCountsOnlyTheBlockersThatCount) {
  TempDir dir;
  dir.write("model.py", "import torch\n\ndef forward(x):\n    return torch.relu(x)\n");
  dir.write("tests/test_model.py", "import flash_attn\nimport model\n");
  const ScanResult result = scan(dir.path(), {}, 1);
  ASSERT_EQ(result.summary.verdict, Verdict::mps_ready);
  ASSERT_EQ(result.summary.by_impact.at("blocker"), 1u) << "the import in tests/ is still reported";
  const std::string html = render(write_html_report, result, dir.path());
  const std::string mps_row = first(html, "(<tr><td><b>MPS</b>.*?</tr>)");
  EXPECT_NE(mps_row.find("</td><td>nothing</td>"), std::string::npos) << mps_row;
  EXPECT_EQ(mps_row.find("blocker"), std::string::npos) << mps_row;

  // With the same import in the core, it blocks and the table names it.
  dir.write("model.py", "import torch\nimport flash_attn\n\ndef forward(x):\n    return torch.relu(x)\n");
  const ScanResult blocked = scan(dir.path(), {}, 1);
  ASSERT_EQ(blocked.summary.verdict, Verdict::stay_on_linux);
  const std::string blocked_row = first(render(write_html_report, blocked, dir.path()), "(<tr><td><b>MPS</b>.*?</tr>)");
  EXPECT_NE(blocked_row.find("1 blocker: "), std::string::npos) << blocked_row;
  EXPECT_NE(blocked_row.find("py-nvidia-only-import"), std::string::npos) << blocked_row;
}

}  // namespace
}  // namespace mpsready::testing
