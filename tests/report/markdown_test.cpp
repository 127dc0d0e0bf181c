// Markdown PR comments: escaping of hostile repository text, collapsible sections, truncation.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "report/golden_findings.h"
#include "report/report_text.h"
#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

std::string markdown_of(const ScanResult& result) {
  std::ostringstream out;
  write_markdown_report(out, result, ReportContext{"repo", "1.0.0", nullptr});
  return out.str();
}

ScanResult with_findings(std::vector<Finding> findings) {
  ScanResult r;
  r.findings = std::move(findings);
  sort_findings(r.findings);
  r.summary = summarize(r.findings);
  return r;
}

// What GitHub would turn into markup: a raw tag, a link or image, an autolink, a mention.
void expect_inert(const std::string& md, const std::string& hostile) {
  EXPECT_EQ(md.find(hostile), std::string::npos) << "verbatim: " << hostile;
}

}  // namespace

TEST(MarkdownEscape, HostileTextRendersAsText) {
  EXPECT_EQ(markdown_escape("</script>"), "&lt;/script&gt;");
  EXPECT_EQ(markdown_escape("<img src=x onerror=alert(1)>"), "&lt;img src\\=x onerror\\=alert\\(1\\)&gt;");
  EXPECT_EQ(markdown_escape("[x](http://evil)"), "\\[x\\]\\(http:\u2060//evil\\)");
  EXPECT_EQ(markdown_escape("![i](http://x)"), "\\!\\[i\\]\\(http:\u2060//x\\)");
  EXPECT_EQ(markdown_escape("@everyone"), "@\u2060everyone");
  EXPECT_EQ(markdown_escape("<!-- -->"), "&lt;\\!\\-\\- \\-\\-&gt;");
  EXPECT_EQ(markdown_escape("``a``"), "\\`\\`a\\`\\`");
  EXPECT_EQ(markdown_escape("a|b\nc\r\x01\x1b"), "a\\|b c \uFFFD\uFFFD");
  EXPECT_EQ(markdown_escape("&#64;x &lt;"), "&amp;\\#64;x &amp;lt;");
  EXPECT_EQ(markdown_escape("# h"), "\\# h");
  EXPECT_EQ(markdown_escape("www.evil.com"), "www\u2060\\.evil\\.com");
  EXPECT_EQ(markdown_escape("$x$ \\"), "\\$x\\$ \\\\");
  EXPECT_EQ(markdown_escape("caf\xC3\xA9"), "caf\xC3\xA9");  // UTF-8 kept
}

TEST(Markdown, HostileSnippetsPathsAndMessagesCannotAddMarkup) {
  const std::vector<std::string> hostile = {
      "</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](http://evil)",
      "![i](http://x/i.png)", "@everyone", "<!-- hidden -->", "``` code", "<details>", "| a | b |",
      "line\nbreak", "ctl\x01\x1b[31m"};
  std::vector<Finding> findings;
  int line = 1;
  for (const std::string& h : hostile) {
    findings.push_back(golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable,
                                      "dir/" + h.substr(0, 8) + ".py", line, 1, 2, "msg " + h, "x = " + h));
    ++line;
  }
  const std::string md = markdown_of(with_findings(findings));
  for (const std::string& h : hostile) {
    if (h != "<details>") expect_inert(md, h);
  }
  EXPECT_NE(md.find("&lt;details&gt;"), std::string::npos);
  for (const char* raw : {"<script", "<img", "](http", "![", "<!--", "@everyone", "\x01", "\x1b", "http://"})
    EXPECT_EQ(md.find(raw), std::string::npos) << raw;
  // The only HTML tags are the report's own.
  std::smatch m;
  std::string rest = md;
  while (std::regex_search(rest, m, std::regex("<(/?[a-zA-Z]+)"))) {
    const std::string tag = m[1];
    EXPECT_TRUE(tag == "details" || tag == "/details" || tag == "summary" || tag == "/summary" || tag == "br" ||
                tag == "code" || tag == "/code" || tag == "sub" || tag == "/sub")
        << tag;
    rest = m.suffix();
  }
  // Every item stays on one line: a newline in repository text cannot start a new block.
  size_t items = 0;
  std::istringstream lines(md);
  for (std::string l; std::getline(lines, l);) items += l.rfind("- **portable** [", 0) == 0;
  // (the ten top findings are listed; the eleventh is summarised by its rule)
  EXPECT_EQ(items, std::min(hostile.size(), size_t{10}));
}

TEST(Markdown, VerdictFirstThenTableTopFindingsAndDetails) {
  std::vector<Finding> findings;
  for (int i = 1; i <= 14; ++i)
    findings.push_back(golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "a.py", i, 1, 5, "m", "x.cuda()"));
  findings.push_back(golden_finding("cu-cuda-kernel", "custom-extension", Impact::blocker, "k.cu", 3, 1, 5, "k", "__global__"));
  const std::string md = markdown_of(with_findings(findings));
  EXPECT_EQ(md.rfind("**mpsready: stay-on-linux**", 0), 0u) << md;
  EXPECT_NE(md.find("| custom-extension | 1 | 0 | 0 |"), std::string::npos);
  EXPECT_NE(md.find("| device-hardcode | 0 | 14 | 0 |"), std::string::npos);
  // The blocker comes first among the top findings, as a relative link to its line.
  const size_t top = md.find("### Top findings\n\n- **blocker** [k\\.cu:3](k.cu#L3) `cu-cuda-kernel`");
  EXPECT_NE(top, std::string::npos) << md;
  // The rest is summarised by rule, not listed.
  EXPECT_NE(md.find("<details><summary>5 more findings</summary>\n\n- `py-tensor-dot-cuda`: 5 sites (portable)\n"),
            std::string::npos) << md;
  EXPECT_EQ(md.find("[a\\.py:14]"), std::string::npos) << md;
}

TEST(Markdown, TopFindingsArePermalinksWithTheirFix) {
  Finding f = golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "src/a b.py", 7, 1, 5, "m", "x.cuda()");
  f.fix = "Use `.to(device)`";
  Finding nb = golden_finding("py-cuda-device-string", "device-hardcode", Impact::portable, "nb.ipynb", 2, 1, 5, "s", "\"cuda\"");
  nb.location.cell = 4;
  ReportContext ctx{"repo", "1.0.0", nullptr};
  ctx.link_base = "https://github.com/o/r/blob/0123abc/";
  std::ostringstream out;
  write_markdown_report(out, with_findings({f, nb}), ctx);
  const std::string md = out.str();
  EXPECT_NE(md.find("[src/a b\\.py:7](https://github.com/o/r/blob/0123abc/src/a%20b.py#L7)"), std::string::npos) << md;
  EXPECT_NE(md.find("[nb\\.ipynb:cell 4:2](https://github.com/o/r/blob/0123abc/nb.ipynb)"), std::string::npos) << md;
  EXPECT_NE(md.find("<br>Fix: Use \\`\\.to\\(device\\)\\`"), std::string::npos) << md;
}

TEST(Markdown, ThousandsOfFindingsStayAShortComment) {
  std::vector<Finding> findings;
  for (int i = 1; i <= 3000; ++i)
    findings.push_back(golden_finding(i % 3 ? "py-tensor-dot-cuda" : "py-float64", "device-hardcode", Impact::portable,
                                      "pkg/module.py", i, 1, 5, "`x.cuda()` moves the tensor to a CUDA device", "x = x.cuda()"));
  const std::string md = markdown_of(with_findings(findings));
  EXPECT_LT(md.size(), 8000u) << md.size();
  EXPECT_NE(md.find("2990 more findings"), std::string::npos);
  EXPECT_EQ(md.find("Truncated"), std::string::npos);
}

TEST(Markdown, HugeFindingTextIsTruncatedBelowGitHubsLimit) {
  // Ten top findings whose messages are 10,000 characters each: the limit still holds.
  std::vector<Finding> findings;
  for (int i = 1; i <= 12; ++i)
    findings.push_back(golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "pkg/module.py", i, 1, 5,
                                      std::string(10000, 'm'), "x = x.cuda()"));
  const std::string md = markdown_of(with_findings(findings));
  EXPECT_LE(md.size(), 65536u);
  EXPECT_NE(md.find("**Truncated**"), std::string::npos);
  size_t open = 0, close = 0;
  for (size_t p = 0; (p = md.find("<details>", p)) != std::string::npos; ++p) ++open;
  for (size_t p = 0; (p = md.find("</details>", p)) != std::string::npos; ++p) ++close;
  EXPECT_EQ(open, close);
  // A short report is not truncated.
  EXPECT_EQ(markdown_of(with_findings({findings[0]})).find("Truncated"), std::string::npos);
}

TEST(Markdown, CleanRepository) {
  const std::string md = markdown_of(with_findings({}));
  EXPECT_EQ(md.rfind("**mpsready: mps-ready**: nothing keeps this code on CUDA", 0), 0u) << md;
  EXPECT_EQ(md.find("| category"), std::string::npos);
}

}  // namespace mpsready::testing
