// The HTML migration plan: self-contained (no request of any kind), escaped, and holding every
// section a reader needs.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "report/golden_findings.h"
#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

std::string html_of(const ScanResult& result, const std::string& root = "repo <b>") {
  static const std::vector<Rule> rules = golden_rules();
  std::ostringstream out;
  write_html_report(out, result, ReportContext{root, "1.0.0", &rules});
  return out.str();
}

}  // namespace

TEST(Html, SelfContainedAndEscaped) {
  const std::string html = html_of(golden_scan());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  for (const char* request : {"<script", "<link", "<img", "<iframe", "<object", "<embed", "url(", "@import"})
    EXPECT_EQ(html.find(request), std::string::npos) << request;
  // No tag has an attribute that could fetch or navigate (repository text is escaped, so a URL
  // in it is only text).
  EXPECT_FALSE(std::regex_search(html, std::regex("<[^>]*\\s(src|href|action|srcset|poster|xlink:href)\\s*=")));
  EXPECT_NE(html.find("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(html.find("repo &lt;b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("\x1b"), std::string::npos);
}

TEST(Html, MarkdownCodeSpansRuleIdsOnOneLineAndNoAbsolutePath) {
  ScanResult result = golden_scan();
  ASSERT_FALSE(result.findings.empty());
  result.findings[0].message = "`model.cuda()` moves <it> to `cuda`; a lone ` stays";
  const std::string html = html_of(result, "/abs/checkouts/lab-repo/");
  EXPECT_NE(html.find("<code>model.cuda()</code> moves &lt;it&gt; to <code>cuda</code>; a lone ` stays"), std::string::npos);
  EXPECT_EQ(html.find("`model.cuda()`"), std::string::npos);
  EXPECT_NE(html.find("<code class=\"rule\">" + result.findings[0].rule + "</code>"), std::string::npos);
  EXPECT_NE(html.find("code.rule{white-space:nowrap"), std::string::npos);
  EXPECT_EQ(html.find("/abs/checkouts"), std::string::npos);
  EXPECT_NE(html.find("Migration plan for <code>lab-repo</code>"), std::string::npos);
}

TEST(Html, VerdictDecisionTableBreakdownEffortAndChecklist) {
  const std::string html = html_of(golden_scan());
  EXPECT_NE(html.find("id=\"verdict\">stay-on-linux<"), std::string::npos);
  for (const char* target : {"<b>MPS</b>", "<b>CPU</b>", "<b>MLX</b>", "<b>Remote Linux GPU</b>"})
    EXPECT_NE(html.find(target), std::string::npos) << target;
  EXPECT_NE(html.find("<svg id=\"by-directory\""), std::string::npos);
  EXPECT_NE(html.find("<code>src/my model/train.py</code></td><td class=\"n\">0</td><td class=\"n\">2</td><td class=\"n\">1</td>"),
            std::string::npos);
  // The notebook's site does not count; the CUDA file is one rewrite, not a site per kernel.
  EXPECT_NE(html.find("id=\"effort\">2 sites to change: 2 mechanical, 0 needing a rewrite or a replacement, and 1 C++/CUDA file to rewrite"),
            std::string::npos);
  EXPECT_NE(html.find("<table id=\"components\">"), std::string::npos);
  EXPECT_NE(html.find("<td><code>notebooks</code></td><td>notebooks</td><td>partial"), std::string::npos);
  // Mechanical fixes come first, then the blocker with its alternative.
  const size_t mechanical = html.find("(mechanical) <code class=\"rule\">py-cuda-device-string</code>");
  const size_t blocker = html.find("<span class=\"blocker\">blocker</span> <code class=\"rule\">cu-cuda-kernel</code>");
  ASSERT_NE(mechanical, std::string::npos) << html;
  ASSERT_NE(blocker, std::string::npos);
  EXPECT_LT(mechanical, blocker);
}

}  // namespace mpsready::testing
