// Every user-facing failure exits 2 and says, on stderr, what happened and what to do: a first
// line "mpsready: <what>" and a hint naming the option, command or file to fix.
#include <gtest/gtest.h>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

struct Expected {
  std::string args;
  std::string what;  // what happened
  std::string todo;  // what to do
};

void expect_failure(const Expected& e) {
  SCOPED_TRACE(e.args);
  const CliRun both = mpsready(e.args);
  EXPECT_EQ(both.code, 2) << both.out;
  EXPECT_EQ(both.out.rfind("mpsready: ", 0), 0u) << both.out;
  EXPECT_NE(both.out.find(e.what), std::string::npos) << both.out;
  EXPECT_NE(both.out.find(e.todo), std::string::npos) << both.out;
  EXPECT_EQ(mpsready(e.args, false).out, "") << "errors go to stderr, never into the report";
}

// A rules directory with one python rule, written from `rule_json` (and `query` when given).
fs::path rules_with(const TempDir& dir, const std::string& rule_json, const std::string& query = "") {
  dir.write("rules/python/py-bad/rule.json", rule_json);
  if (!query.empty()) dir.write("rules/python/py-bad/query.scm", query);
  return dir.path() / "rules";
}

const std::string kRule = R"({"id": "py-bad", "title": "t", "language": "python", "category": "cuda-api",
  "impact": "portable", "needles": ["cuda"], "matcher": {"kind": "python.query"}, "message": "m", "fix": "f",
  "status": "stable", "since": "0.1.0"})";

}  // namespace

TEST(ErrorMessages, BadFlagsAndValues) {
  expect_failure({"scan . --frobnicate", "--frobnicate", "run `mpsready --help` for usage"});
  expect_failure({"scan . --format yaml", "yaml", "run `mpsready --help` for usage"});
  expect_failure({"scan . --jobs many", "many", "run `mpsready --help` for usage"});
  // (`scan` alone scans the current directory, as a linter does; an option without its value fails)
  expect_failure({"scan . --exclude", "--exclude", "run `mpsready --help` for usage"});
}

TEST(ErrorMessages, MissingPathAndUnwritableOutputs) {
  TempDir dir;
  dir.write("a.py", "import torch\n");
  const std::string root = quote(dir.path().string());
  expect_failure({"scan /nonexistent/repo", "path not found: /nonexistent/repo",
                  "give the root directory of the repository to scan"});
  // A device is neither a repository nor a source file.
  expect_failure({"scan /dev/null", "not a directory or a regular file: /dev/null",
                  "give the root directory of the repository to scan"});
  expect_failure({"fix /dev/null", "not a directory or a regular file: /dev/null", "or one file in it"});
  expect_failure({"scan " + root + " -o /nonexistent/dir/report.json",
                  "cannot write the report to /nonexistent/dir/report.json: No such file or directory",
                  "check that its directory exists and is writable"});
  expect_failure({"scan " + root + " --baseline /nonexistent/b.json",
                  "cannot read baseline /nonexistent/b.json: No such file or directory",
                  "write a baseline first with --write-baseline FILE"});
  expect_failure({"scan " + root + " --write-baseline /nonexistent/dir/b.json",
                  "cannot write baseline /nonexistent/dir/b.json: No such file or directory",
                  "check that the directory of --write-baseline exists and is writable"});
}

TEST(ErrorMessages, UnreadableAndInvalidConfiguration) {
  TempDir dir;
  dir.write("a.py", "import torch\n");
  const std::string root = quote(dir.path().string());
  expect_failure({"scan " + root + " --config /nonexistent/cfg.json",
                  "cannot read config /nonexistent/cfg.json: No such file or directory",
                  "check the path given to --config"});
  expect_failure({"scan " + root + " --config " + quote(dir.path().string()), "it is a directory",
                  "check the path given to --config"});
  fs::create_directory(dir.path() / ".mpsready.json");
  expect_failure({"scan " + root, ".mpsready.json: not a regular file", "scan with --no-config to ignore it"});
  fs::remove(dir.path() / ".mpsready.json");
  dir.write(".mpsready.json", "{\"exclude\": [");
  expect_failure({"scan " + root, ".mpsready.json: not valid JSON", "scan with --no-config to ignore it"});
  // A number no double holds is refused by the JSON reader with its own exception type.
  dir.write(".mpsready.json", "{\"target_pytorch\": 1e999999}");
  expect_failure({"scan " + root, ".mpsready.json: not valid JSON: a number in it is out of range",
                  "scan with --no-config to ignore it"});
  EXPECT_EQ(mpsready("scan " + root + " --no-config").code, 0);
}

TEST(ErrorMessages, InvalidRuleFilesNameTheFileAndTheProblem) {
  TempDir dir;
  dir.write("repo/a.py", "import torch\n");
  const std::string scan = "scan " + quote((dir.path() / "repo").string()) + " --rules ";
  const std::string hint = "pass --rules DIR to use another rules directory";
  expect_failure({scan + "/nonexistent/rules", "/nonexistent/rules: rules directory not found", hint});
  std::string bad_impact = kRule;
  bad_impact.replace(bad_impact.find("\"portable\""), 10, "\"fatal\"");
  expect_failure({scan + quote(rules_with(dir, bad_impact).string()),
                  "py-bad/rule.json: \"impact\" must be blocker, portable or info, not \"fatal\"", hint});
  expect_failure({scan + quote(rules_with(dir, "{\"id\": ").string()), "py-bad/rule.json: not valid JSON", hint});
  expect_failure({scan + quote(rules_with(dir, "{\"id\": 1e999999}").string()),
                  "py-bad/rule.json: not valid JSON: a number in it is out of range", hint});
  expect_failure({scan + quote(rules_with(dir, kRule, "(call) @callee").string()),
                  "py-bad/query.scm: the query must capture @finding", hint});
  expect_failure({scan + quote(rules_with(dir, kRule, "(call (((").string()), "py-bad/query.scm:", hint});
  std::string slow_query = "(block";
  for (int i = 0; i < 40; ++i) slow_query += " (_)?";
  expect_failure({scan + quote(rules_with(dir, kRule, slow_query + ") @finding").string()),
                  "py-bad/query.scm: line 1: a pattern with more than 12 quantifiers", hint});
}

}  // namespace mpsready::testing
