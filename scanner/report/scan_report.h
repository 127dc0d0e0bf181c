#pragma once
// Reporters for a scan: one function per output format.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "engine/scanner.h"
#include "rules/rule.h"

namespace mpsready {

// Diff mode (--diff BASE): the findings are those on lines added or changed since BASE; the
// verdicts are those of the whole tree before and after.
struct DiffContext {
  std::string base;         // as given
  std::string base_commit;  // the commit it names
  Verdict before = Verdict::mps_ready;
  Verdict after = Verdict::mps_ready;
  std::string change;       // one sentence: "this change moves the repository from ... to ...: ..."
  // Inputs of the scan the change edits (BASE's were used): file and what it is ("configuration",
  // "baseline", "no longer scanned").
  std::vector<std::pair<std::string, std::string>> config_changes;
  // Suppression comments the change adds.
  struct Suppression {
    std::string path;
    int cell = 0;  // notebooks: 1-based cell; 0 otherwise
    int line = 0;
    std::vector<std::string> rules;
    bool file_level = false;
    bool every_rule = false;  // `*`
  };
  std::vector<Suppression> suppressions_added;
};

// The diff's warnings in one sentence ("" when none): the scan inputs the change edits and the
// suppressions it adds. The Markdown comment's and the text report's first diff line carry it.
std::string diff_warning(const DiffContext& diff);

// What `mpsready fix` computed for the scanned tree, for the Markdown comment and the HTML plan:
// the verdicts before and after the fixes, and the sites left for a person. Data only: the fix
// engine decides; reporters print.
struct FixDigestSite {
  std::string path;
  int cell = 0;  // notebooks: 1-based cell; 0 otherwise
  int line = 0;
  std::string rule;
  std::string reason;
};

struct FixDigest {
  Verdict before = Verdict::mps_ready;
  Verdict after = Verdict::mps_ready;
  size_t sites_fixed = 0;
  size_t files = 0;
  std::string needs_pytorch;  // "" = any
  std::vector<FixDigestSite> need_a_human;
};

struct ReportContext {
  std::string root;     // the path as the user gave it
  std::string version;  // tool version
  const std::vector<Rule>* rules = nullptr;  // the rules that ran (SARIF's tool.driver.rules)
  std::string target_pytorch;                // from the configuration; "" = not set
  std::optional<size_t> baselined;           // --baseline: findings left out as known
  std::optional<DiffContext> diff;           // --diff
  std::optional<FixDigest> fix;              // `mpsready fix --report`: the fix's outcome
  bool color = false;                        // ANSI colours in text, concise and statistics output
  std::string link_base;  // Markdown links: prefix of a path ("https://github.com/o/r/blob/SHA/"); "" = relative
  // What reproduces the result, as `--version` prints it: the build's commit and the rules' hash
  // ("" = not given; the JSON `tool` and SARIF driver carry them when set).
  std::string commit;
  std::string rules_hash;
  // Prepended to every path of the GitHub annotations and the SARIF log: the root's folder in the
  // GitHub Actions workspace ("sub/"), so that they name files as the checkout does; "" = none.
  std::string path_prefix;
  bool all_findings = false;  // --all: the text report lists every finding however many there are
  std::string name;  // the root folder's own name (an HTML plan of "." is titled with it); "" = unknown
};

// Compiler-style lines, then the verdict and its reasons. More than 50 findings: only those that
// decide the verdict are listed, the rest counted per rule (all_findings lists every one).
void write_text_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// One line per finding (`path:line:col: impact: message [rule]`), then the verdict line.
void write_concise_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=rule::message`), one per
// finding and per suppression problem, then the verdict as plain text.
void write_github_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// Findings per rule, most first (ruff's --statistics), then the verdict line.
void write_statistics_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// One JSON document (schema: docs/json-output.md); keys in a fixed order.
void write_json_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// SARIF 2.1.0 (docs/sarif-output.md): suppressed findings are left out; every result carries
// partialFingerprints.
void write_sarif_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// A pull-request comment in GitHub Markdown (at most 65,536 characters); repository text is
// escaped so it cannot add links, images, HTML or mentions.
void write_markdown_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);
// The migration plan: one self-contained HTML page (no script, no request of any kind).
void write_html_report(std::ostream& out, const ScanResult& result, const ReportContext& ctx);

}  // namespace mpsready
