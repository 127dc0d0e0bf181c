// Repository text (paths, snippets, messages, error reasons) is hostile: every format renders it
// as the text it is. Markdown has its own tests (markdown_test.cpp); these cover HTML, SARIF,
// JSON and text with the same hostile snippets, placed in every field that carries repository
// text.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/golden_findings.h"
#include "report/scan_report.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

const std::vector<std::string>& hostile_snippets() {
  static const std::vector<std::string> snippets = {
      "</script><script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      "[link](http://evil.example/x) ![img](http://evil.example/i.png)",
      "@everyone @org/team",
      "<!-- hidden --> -->",
      "``` fence `tick`",
      "ctl\x01\x07\x1b[2J\x1b]0;title\x07\x7f",
      "line\nverdict: mps-ready\r\nspoofed",
      "\" onmouseover=\"alert(1)\" '",
      "&amp; &lt; \\u0000",
  };
  return snippets;
}

// One finding per hostile snippet, with the snippet in the path, message, fix and source line,
// and an error and a skipped note carrying it too.
ScanResult hostile_scan() {
  ScanResult r;
  int line = 1;
  for (const std::string& h : hostile_snippets()) {
    Finding f = golden_finding("py-tensor-dot-cuda", "device-hardcode", Impact::portable, "dir/" + h + ".py", line++, 1, 5,
                               "message " + h, "x = y.cuda()  # " + h);
    f.fix = "fix " + h;
    r.findings.push_back(f);
    r.errors.push_back({"err/" + h + ".py", "reason " + h});
    r.skipped.push_back({"skip/" + h + ".py", "reason " + h});
  }
  sort_findings(r.findings);
  sort_notes(r.errors);
  sort_notes(r.skipped);
  r.summary = summarize(r.findings);
  return r;
}

template <typename Writer>
std::string render(Writer write) {
  static const std::vector<Rule> rules = golden_rules();
  std::ostringstream out;
  write(out, hostile_scan(), ReportContext{"repo", "1.0.0", &rules});
  return out.str();
}

bool has_raw_control(const std::string& text, bool allow_newline, bool allow_del = false) {
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && !(allow_newline && c == '\n')) || (u == 0x7F && !allow_del)) return true;
  }
  return false;
}

}  // namespace

TEST(HostileText, HtmlRendersItAsTextOnly) {
  const std::string html = render(write_html_report);
  for (const char* raw : {"<script", "</script><", "<img", "<!-- hidden", "onerror=alert(1)>", "\" onmouseover"})
    EXPECT_EQ(html.find(raw), std::string::npos) << raw;
  EXPECT_FALSE(std::regex_search(html, std::regex("<[^>]*\\s(src|href|on[a-z]+)\\s*=", std::regex::icase)))
      << "an attribute that fetches or runs something";
  EXPECT_NE(html.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;!-- hidden --&gt;"), std::string::npos);
  EXPECT_FALSE(has_raw_control(html, true)) << "control characters are replaced";
  EXPECT_EQ(html.find("\r"), std::string::npos);
}

TEST(HostileText, SarifAndJsonKeepItExactlyAsData) {
  for (const bool sarif : {true, false}) {
    SCOPED_TRACE(sarif ? "sarif" : "json");
    const std::string text = sarif ? render(write_sarif_report) : render(write_json_report);
    // JSON escapes every character below U+0020; DEL is a valid string character there.
    EXPECT_FALSE(has_raw_control(text, true, true)) << "control characters are \\u-escaped";
    const auto doc = nlohmann::json::parse(text);
    // The texts survive the round trip unchanged: escaping is JSON's, nothing is lost or added.
    std::set<std::string> messages;
    if (sarif) {
      for (const auto& res : doc["runs"][0]["results"]) {
        messages.insert(res["message"]["text"].get<std::string>());
        EXPECT_FALSE(res["message"].contains("markdown")) << "repository text is never given as markdown";
        const std::string uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        EXPECT_TRUE(std::regex_match(uri, std::regex("[A-Za-z0-9._~/!$&'*+,;=@%-]+"))) << "not a URI reference: " << uri;
      }
      EXPECT_EQ(doc["runs"][0]["invocations"][0]["toolExecutionNotifications"].size(), 2 * hostile_snippets().size());
    } else {
      for (const auto& f : doc["findings"]) {
        messages.insert(f["message"].get<std::string>());
        EXPECT_EQ(f["path"].get<std::string>().rfind("dir/", 0), 0u);
      }
    }
    for (const std::string& h : hostile_snippets()) EXPECT_TRUE(messages.count("message " + h)) << h;
  }
}

// Text output goes to terminals and logs: repository text can neither move the cursor, set the
// title, nor start a line of its own (a file name with a newline cannot forge a verdict line).
TEST(HostileText, TextOutputCannotDriveTheTerminalOrForgeLines) {
  const std::string text = render(write_text_report);
  EXPECT_FALSE(has_raw_control(text, true));
  std::istringstream lines(text);
  size_t verdict_lines = 0;
  for (std::string l; std::getline(lines, l);) verdict_lines += l.rfind("verdict: ", 0) == 0;
  EXPECT_EQ(verdict_lines, 1u) << text;
}

}  // namespace mpsready::testing
