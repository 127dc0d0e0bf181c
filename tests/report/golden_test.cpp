// Every report format rendered from one fixed set of findings (golden_findings.h), compared byte
// for byte with tests/report/golden/. MPSREADY_UPDATE_GOLDEN=1 rewrites them; review the diff.
#include <gtest/gtest.h>

#include <iostream>

#include <sstream>

#include "report/golden_findings.h"
#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

using Writer = void (*)(std::ostream&, const ScanResult&, const ReportContext&);

std::string render(Writer writer, const ScanResult& result) {
  static const std::vector<Rule> rules = golden_rules();
  ReportContext ctx{"repo", "0.0.0-golden", &rules};
  ctx.target_pytorch = "2.5";
  std::ostringstream out;
  writer(out, result, ctx);
  return out.str();
}

void check_golden(const std::string& name, const std::string& actual) {
  const fs::path file = source_dir() / "tests/report/golden" / name;
  if (const char* update = std::getenv("MPSREADY_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    // Rewrite, then check the rewritten file like any other: it must read back identical.
    std::ofstream(file, std::ios::binary) << actual;
    std::cout << "rewrote " << file << "\n";
  }
  ASSERT_TRUE(fs::exists(file)) << "missing " << file << " (MPSREADY_UPDATE_GOLDEN=1 writes it)";
  EXPECT_EQ(read_text(file), actual) << "golden file " << file << " differs";
}

}  // namespace

TEST(GoldenReport, Text) { check_golden("report.txt", render(write_text_report, golden_scan())); }
TEST(GoldenReport, Json) { check_golden("report.json", render(write_json_report, golden_scan())); }
TEST(GoldenReport, Sarif) { check_golden("report.sarif", render(write_sarif_report, golden_scan())); }
TEST(GoldenReport, Markdown) { check_golden("report.md", render(write_markdown_report, golden_scan())); }
TEST(GoldenReport, Html) { check_golden("report.html", render(write_html_report, golden_scan())); }

// The linter formats, with a suppression problem and a message that needs escaping in a GitHub
// workflow command (a '%', a newline, and ':' ',' in the file property).
ScanResult golden_lint_scan() {
  ScanResult r = golden_scan();
  r.suppression_notes.push_back({"train.py", 0, 9, "unused suppression ignore[py-float64]: no finding of it on this line; remove it"});
  r.suppression_notes.push_back({"notebooks/explore.ipynb", 2, 1, "suppression ignore[py-no-such] names no rule (see `mpsready rules list`)"});
  Finding odd = r.findings.front();
  odd.path = "odd:dir,x/100%.py";
  odd.message = "50% of\nthe time";
  r.findings.push_back(odd);
  return r;
}

TEST(GoldenReport, Github) { check_golden("report.github", render(write_github_report, golden_lint_scan())); }
TEST(GoldenReport, Concise) { check_golden("report.concise", render(write_concise_report, golden_lint_scan())); }
TEST(GoldenReport, Statistics) { check_golden("report.statistics", render(write_statistics_report, golden_lint_scan())); }

TEST(GoldenReport, ColourOnlyWhenAsked) {
  ReportContext ctx{"repo", "0.0.0-golden", nullptr};
  std::ostringstream plain, coloured;
  write_concise_report(plain, golden_lint_scan(), ctx);
  ctx.color = true;
  write_concise_report(coloured, golden_lint_scan(), ctx);
  EXPECT_EQ(plain.str().find('\033'), std::string::npos);
  EXPECT_NE(coloured.str().find("\033[33mportable\033[0m"), std::string::npos) << coloured.str();
}

TEST(GoldenReport, OutputDoesNotDependOnAnythingButTheFindings) {
  for (Writer w : {Writer(write_text_report), Writer(write_json_report), Writer(write_sarif_report),
                   Writer(write_markdown_report), Writer(write_html_report)}) {
    EXPECT_EQ(render(w, golden_scan()), render(w, golden_scan()));
  }
}

}  // namespace mpsready::testing

namespace mpsready::testing {

// A large result lists in full only the findings that decide the verdict, and counts the rest per
// rule with whether it is in the core and the option that lists it; `--all` lists every one.
TEST(TextReport, ALargeResultListsTheDecidingFindingsAndCountsTheRest) {
  ScanResult r;
  r.findings.push_back(golden_finding("cu-cuda-kernel", "custom-extension", Impact::blocker, "csrc/k.cu", 3, 1, 9, "kernel", "__global__"));
  for (int i = 1; i <= 60; ++i) {
    Finding f = golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable,
                               i <= 20 ? "pkg/train.py" : "examples/demo.py", i, 1, 5, "m", "x.cuda()");
    if (i > 20) {
      f.in_core = false;
      f.context = "examples: run by hand";
    }
    r.findings.push_back(f);
  }
  sort_findings(r.findings);
  r.summary = summarize(r.findings);
  static const std::vector<Rule> rules = golden_rules();
  ReportContext ctx{"repo", "0.0.0", &rules};
  std::ostringstream abridged;
  write_text_report(abridged, r, ctx);
  const std::string text = abridged.str();
  EXPECT_EQ(text.rfind("csrc/k.cu:3:1: blocker: kernel [cu-cuda-kernel]", 0), 0u) << text;
  EXPECT_EQ(text.find("pkg/train.py:1:1"), std::string::npos) << text;
  EXPECT_NE(text.find("60 more findings that do not decide the verdict (`mpsready scan --all` lists them"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    60  py-tensor-dot-cuda (20 in the core, 40 not counted)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nverdict: stay-on-linux (repo)\n"), std::string::npos) << text;
  ctx.all_findings = true;
  std::ostringstream whole;
  write_text_report(whole, r, ctx);
  EXPECT_NE(whole.str().find("pkg/train.py:1:1"), std::string::npos);
  EXPECT_NE(whole.str().find("examples/demo.py:60:1"), std::string::npos);
  EXPECT_EQ(whole.str().find("more findings that do not decide"), std::string::npos);
}

}  // namespace mpsready::testing
