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
  // (the ten deciding findings are listed in full; the eleventh is one line of its section)
  EXPECT_EQ(items, std::min(hostile.size(), size_t{10}));
}

// Code spans in a rule's message render as code: their text is shown as written, which GitHub
// renders inert (a span opened before any tag wins over it), and the prose around them is escaped.
// Backticks that do not pair as single ones escape the whole text, as before.
TEST(MarkdownEscape, CodeSpansStayCodeSpans) {
  EXPECT_EQ(markdown_prose("`x.cuda()` moves it (see `a|b`)"), "`x.cuda()` moves it \\(see `a|b`\\)");
  EXPECT_EQ(markdown_prose("a `<img src=x onerror=y>` @b"), "a `<img src=x onerror=y>` @\u2060b");
  EXPECT_EQ(markdown_prose("<img src=x> `y`"), "&lt;img src\\=x&gt; `y`");
  EXPECT_EQ(markdown_prose("`a\nb\x01`"), "`a b\uFFFD`");
  EXPECT_EQ(markdown_prose("odd ` count `x`"), markdown_escape("odd ` count `x`"));
  EXPECT_EQ(markdown_prose("``a`` `b`"), markdown_escape("``a`` `b`"));
  EXPECT_EQ(markdown_prose("no code"), markdown_escape("no code"));
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
  // The blocker decides the verdict: it comes first, in full, as a relative link to its line.
  const size_t top = md.find("### Findings that decide the verdict\n\n- **blocker** [k\\.cu:3](k.cu#L3) `cu-cuda-kernel`");
  EXPECT_NE(top, std::string::npos) << md;
  // The other sites of the core follow in full, up to ten in all; every other site is one line of
  // its impact's collapsed section, saying whether it is in the core.
  EXPECT_NE(md.find("### Other findings in the core\n\n- **portable** [a\\.py:1](a.py#L1)"), std::string::npos) << md;
  EXPECT_NE(md.find("<details><summary>portable: 5 sites besides those above (5 in the core)</summary>\n\n"
                    "- [a\\.py:10](a.py#L10) `py-tensor-dot-cuda`: in the core\n"),
            std::string::npos) << md;
  EXPECT_NE(md.find("- [a\\.py:14](a.py#L14) `py-tensor-dot-cuda`: in the core\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("<details><summary>blocker"), std::string::npos) << "the blocker is shown above, once";
}

// A repository whose verdict is mps-ready: nothing decides it, so no site is shown in full, and a
// blocker in the examples is one collapsed line that says why it does not count.
TEST(Markdown, FindingsThatDoNotCountAreCollapsedWithTheirReason) {
  Finding example = golden_finding("cu-cuda-kernel", "custom-extension", Impact::blocker, "examples/k.cu", 3, 1, 5, "k", "__global__");
  example.in_core = false;
  example.role = "examples";
  example.context = "examples: run by hand";
  const std::string md = markdown_of(with_findings({example}));
  EXPECT_EQ(md.rfind("**mpsready: mps-ready**", 0), 0u) << md;
  EXPECT_EQ(md.find("### Findings that decide"), std::string::npos) << md;
  EXPECT_EQ(md.find("- **blocker**"), std::string::npos) << md;
  EXPECT_NE(md.find("<details><summary>blocker: 1 site (0 in the core)</summary>\n\n"
                    "- [examples/k\\.cu:3](examples/k.cu#L3) `cu-cuda-kernel`: not counted (examples: run by hand)\n"),
            std::string::npos) << md;
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
  EXPECT_NE(md.find("<br>Fix: Use `.to(device)`"), std::string::npos) << md;
}

TEST(Markdown, ThousandsOfFindingsStayWithinGitHubsLimit) {
  std::vector<Finding> findings;
  for (int i = 1; i <= 3000; ++i)
    findings.push_back(golden_finding(i % 3 ? "py-tensor-dot-cuda" : "py-float64", "device-hardcode", Impact::portable,
                                      "pkg/module.py", i, 1, 5, "`x.cuda()` moves the tensor to a CUDA device", "x = x.cuda()"));
  const std::string md = markdown_of(with_findings(findings));
  EXPECT_LE(md.size(), 65536u);
  // Ten in full, the rest one line each in a collapsed section, cut between two lines and closed.
  EXPECT_NE(md.find("2990 more sites decide the verdict: listed below."), std::string::npos) << md.substr(0, 4000);
  EXPECT_NE(md.find("<details><summary>portable: 2990 sites besides those above (2990 in the core)"),
            std::string::npos);
  EXPECT_NE(md.find("**Truncated**"), std::string::npos);
  size_t open = 0, close = 0;
  for (size_t p = 0; (p = md.find("<details>", p)) != std::string::npos; ++p) ++open;
  for (size_t p = 0; (p = md.find("</details>", p)) != std::string::npos; ++p) ++close;
  EXPECT_EQ(open, close);
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
