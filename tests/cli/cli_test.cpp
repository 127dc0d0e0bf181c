// The mpsready executable as a user runs it: exit codes, messages, and output on awkward inputs.
#include <gtest/gtest.h>

#include <set>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

nlohmann::json scan_json(const fs::path& root, const std::string& extra = "") {
  const CliRun run = mpsready("scan " + quote(root.string()) + " --format json " + extra, false);
  EXPECT_EQ(run.code, 0) << run.out;
  return nlohmann::json::parse(run.out);
}

}  // namespace

TEST(Cli, MissingPathIsAUsageErrorWithAMessage) {
  const CliRun run = mpsready("scan /nonexistent/repo");
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.out.find("path not found: /nonexistent/repo"), std::string::npos) << run.out;
}

TEST(Cli, BadFlagsAndMissingSubcommandAreUsageErrors) {
  EXPECT_EQ(mpsready("scan . --format yaml").code, 2);
  EXPECT_EQ(mpsready("scan . --fail-on maybe").code, 2);
  EXPECT_EQ(mpsready("frobnicate").code, 2);
  EXPECT_EQ(mpsready("").code, 2);
  const CliRun help = mpsready("scan --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--fail-on"), std::string::npos);
}

TEST(Cli, VersionAndRulesCommands) {
  const CliRun version = mpsready("--version");
  EXPECT_EQ(version.code, 0);
  EXPECT_NE(version.out.find("mpsready 0."), std::string::npos);
  const CliRun list = mpsready("rules list");
  EXPECT_EQ(list.code, 0);
  EXPECT_NE(list.out.find("py-tensor-dot-cuda"), std::string::npos);
  const auto list_json = nlohmann::json::parse(mpsready("rules list --format json", false).out);
  EXPECT_GE(list_json.size(), 15u);
  const CliRun explain = mpsready("rules explain py-tensor-dot-cuda");
  EXPECT_EQ(explain.code, 0);
  EXPECT_NE(explain.out.find("## Why it matters on MPS"), std::string::npos);
  const CliRun unknown = mpsready("rules explain py-no-such-rule");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.out.find("no rule \"py-no-such-rule\""), std::string::npos);
  const CliRun bad_rules = mpsready("--rules /nonexistent scan .");
  EXPECT_EQ(bad_rules.code, 2);
  EXPECT_NE(bad_rules.out.find("rules directory not found"), std::string::npos);
}

TEST(Cli, FailOnGatesByVerdict) {
  TempDir dir;
  dir.write("train.py", "import torch\nmodel = model.cuda()\n");
  const std::string root = quote(dir.path().string());
  EXPECT_EQ(mpsready("scan " + root).code, 0);
  EXPECT_EQ(mpsready("scan " + root + " --fail-on partial").code, 1);
  EXPECT_EQ(mpsready("scan " + root + " --fail-on stay-on-linux").code, 0);
  TempDir clean;
  clean.write("train.py", "import torch\nmodel = model.to(device)\n");
  EXPECT_EQ(mpsready("scan " + quote(clean.path().string()) + " --fail-on partial").code, 0);
}

// A scan that could not read a file says so beside the verdict in every report, and a gate does not
// pass on it unless --allow-incomplete accepts the verdict of the rest; a file read in part (a
// syntax error) is a warning, not an unread file.
TEST(Cli, AnIncompleteScanSaysSoAndDoesNotPassTheGate) {
  TempDir dir;
  dir.write("pkg/a.py", "import torch\nx = torch.zeros(2).to(\"mps\")\n");
  dir.write("pkg/explore.ipynb", "not json {\n");
  dir.write("pkg/broken.py", "def f(:\n  pass\nimport torch\n");
  const std::string root = quote(dir.path().string());
  const CliRun text = mpsready("scan " + root);
  EXPECT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("pkg/explore.ipynb: error: not a valid notebook"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("pkg/broken.py: warning: syntax error"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("verdict: mps-ready (" + dir.path().string() + ")\n  incomplete: 1 file could not be read"),
            std::string::npos) << text.out;
  const CliRun gate = mpsready("scan " + root + " --fail-on partial");
  EXPECT_EQ(gate.code, 1) << gate.out;
  EXPECT_NE(gate.out.find("--fail-on: incomplete: 1 file could not be read"), std::string::npos) << gate.out;
  EXPECT_EQ(mpsready("scan " + root + " --fail-on partial --allow-incomplete").code, 0);
  EXPECT_EQ(mpsready("scan " + root + " --fail-on partial --exit-zero").code, 0);
  const auto doc = nlohmann::json::parse(mpsready("scan " + root + " --format json", false).out);
  EXPECT_EQ(doc["summary"]["unread"], 1);
  EXPECT_EQ(doc["summary"]["errors"], 2);
  const CliRun md = mpsready("scan " + root + " --format markdown", false);
  EXPECT_NE(md.out.find("**incomplete: 1 file could not be read**"), std::string::npos) << md.out;
  const CliRun concise = mpsready("scan " + root + " --format concise", false);
  EXPECT_NE(concise.out.find("; incomplete: 1 file could not be read"), std::string::npos) << concise.out;
  const auto sarif = nlohmann::json::parse(mpsready("scan " + root + " --format sarif", false).out);
  EXPECT_EQ(sarif["runs"][0]["properties"]["unreadFiles"], 1);
  // Every file read: no such line.
  dir.write("pkg/explore.ipynb", "{\"cells\": [], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n");
  const CliRun whole = mpsready("scan " + root + " --fail-on partial");
  EXPECT_EQ(whole.code, 0) << whole.out;
  EXPECT_EQ(whole.out.find("incomplete"), std::string::npos) << whole.out;
}

// A shared report names an absolute root by its folder only: the scanning machine's directories
// are in no JSON, Markdown or HTML report; an HTML plan of "." is titled with the folder's name.
TEST(Cli, SharedReportsNameTheRootByItsFolder) {
  TempDir dir;
  dir.write("lab-model/train.py", "import torch\nmodel = model.cuda()\n");
  const std::string root = quote((dir.path() / "lab-model").string());
  const auto doc = nlohmann::json::parse(mpsready("scan " + root + " --format json", false).out);
  EXPECT_EQ(doc["root"], "lab-model");
  for (const char* format : {"json", "markdown", "html", "sarif"}) {
    const CliRun run = mpsready("scan " + root + " --format " + format, false);
    EXPECT_EQ(run.out.find(dir.path().string()), std::string::npos) << format;
  }
  const CliRun cd = mpsready("scan . --format html", false, "cd " + root + " && ");
  EXPECT_NE(cd.out.find("<title>mpsready migration plan: lab-model</title>"), std::string::npos) << cd.out.substr(0, 400);
}

// In GitHub Actions a scan of a subfolder names files as the checkout does: the annotations' and
// the SARIF log's paths start with the folder's path in the workspace. Outside the workspace, or
// outside GitHub Actions, they are relative to the scanned folder.
TEST(Cli, GithubAndSarifPathsAreRelativeToTheWorkspace) {
  TempDir dir;
  dir.write("sub/train.py", "import torch\nmodel = model.cuda()\n");
  const std::string root = quote((dir.path() / "sub").string());
  const std::string in_actions = "GITHUB_WORKSPACE=" + quote(dir.path().string()) + " ";
  const CliRun github = mpsready("scan " + root + " --format github", false, in_actions);
  EXPECT_NE(github.out.find("file=sub/train.py,line=2"), std::string::npos) << github.out;
  const auto sarif = nlohmann::json::parse(mpsready("scan " + root + " --format sarif", false, in_actions).out);
  EXPECT_EQ(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "sub/train.py");
  const CliRun plain = mpsready("scan " + root + " --format github", false);
  EXPECT_NE(plain.out.find("file=train.py,line=2"), std::string::npos) << plain.out;
  const CliRun elsewhere = mpsready("scan " + root + " --format github", false, "GITHUB_WORKSPACE=/nonexistent/ws ");
  EXPECT_NE(elsewhere.out.find("file=train.py,line=2"), std::string::npos) << elsewhere.out;
}

// A method call that ends a chain over several lines is cited at the method the message names (its
// line, column and source line), not at the chain's first line; a suppression on that line covers it.
TEST(Cli, AChainedCallIsCitedAtItsMethod) {
  TempDir dir;
  dir.write("a.py", "import torch\n\ndef f(model):\n    model = (\n        model\n        .eval()\n        .half()\n"
                    "        .cuda()\n    )\n    return model\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format concise --select py-tensor-dot-cuda", false);
  EXPECT_NE(run.out.find("a.py:8:10: portable:"), std::string::npos) << run.out;
  const auto doc = nlohmann::json::parse(mpsready("scan " + quote(dir.path().string()) + " --format json --select py-tensor-dot-cuda", false).out);
  ASSERT_EQ(doc["findings"].size(), 1u);
  EXPECT_EQ(doc["findings"][0]["snippet"], "        .cuda()");
  dir.write("a.py", "import torch\n\ndef f(model):\n    model = (\n        model\n        .eval()\n        .half()\n"
                    "        .cuda()  # mpsready: ignore[py-tensor-dot-cuda] reviewed\n    )\n    return model\n");
  const auto quiet = nlohmann::json::parse(mpsready("scan " + quote(dir.path().string()) + " --format json --select py-tensor-dot-cuda", false).out);
  EXPECT_EQ(quiet["findings"].size(), 0u);
}

// Habits from ruff: `--exit-zero` keeps the exit code 0 whatever gates it (the option and the
// configuration's fail_on), `--output-format` names --format, and choices are read in any case.
TEST(Cli, ExitZeroOutputFormatAndChoicesInAnyCase) {
  TempDir dir;
  dir.write("train.py", "import torch\nmodel = model.cuda()\n");
  dir.write(".mpsready.json", "{\"fail_on\": \"partial\"}\n");
  const std::string root = quote(dir.path().string());
  EXPECT_EQ(mpsready("scan " + root).code, 1);
  const CliRun zero = mpsready("scan " + root + " --fail-on partial --exit-zero");
  EXPECT_EQ(zero.code, 0) << zero.out;
  EXPECT_NE(zero.out.find("verdict: partial"), std::string::npos) << zero.out;
  EXPECT_EQ(mpsready("scan " + root + " --exit-zero").code, 0);
  const CliRun sarif = mpsready("scan " + root + " --format=SARIF --exit-zero");
  EXPECT_EQ(sarif.code, 0) << sarif.out;
  EXPECT_EQ(nlohmann::json::parse(sarif.out)["version"], "2.1.0");
  const CliRun json = mpsready("scan " + root + " --output-format Json --fail-on Stay-On-Linux");
  EXPECT_EQ(json.code, 0) << json.out;
  EXPECT_EQ(nlohmann::json::parse(json.out)["verdict"], "partial");
  EXPECT_EQ(mpsready("scan " + root + " --format yaml").code, 2);
}

// Rule selection as ruff users type it: ALL, --extend-select on top of the configuration's
// select, --extend-ignore, and a typo answered with the option it came from and the id it meant.
TEST(Cli, SelectAllExtendSelectAndDidYouMean) {
  TempDir dir;
  dir.write("train.py", "import torch\nimport apex\nmodel = model.cuda()\n");
  dir.write(".mpsready.json", "{\"select\": [\"py-tensor-dot-cuda\"]}\n");
  const std::string root = quote(dir.path().string());
  const auto rules_of = [&](const std::string& args) {
    const CliRun run = mpsready("scan " + root + " --format json " + args, false);
    std::set<std::string> rules;
    const auto doc = nlohmann::json::parse(run.out, nullptr, false);
    if (doc.is_object())
      for (const auto& f : doc["findings"]) rules.insert(f["rule"].get<std::string>());
    return rules;
  };
  using S = std::set<std::string>;
  EXPECT_EQ(rules_of(""), S{"py-tensor-dot-cuda"}) << "the configuration's select";
  EXPECT_EQ(rules_of("--extend-select py-nvidia-only-import"), (S{"py-nvidia-only-import", "py-tensor-dot-cuda"}));
  EXPECT_EQ(rules_of("--select ALL"), (S{"py-nvidia-only-import", "py-tensor-dot-cuda"}));
  EXPECT_EQ(rules_of("--select ALL --extend-ignore py-tensor-dot-cuda"), S{"py-nvidia-only-import"});

  const CliRun typo = mpsready("scan " + root + " --select py-nvidia-only-imprt");
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.out.find("mpsready: --select: no rule matches \"py-nvidia-only-imprt\"; did you mean "
                          "py-nvidia-only-import?"), std::string::npos) << typo.out;
  EXPECT_EQ(typo.out.find("rule file"), std::string::npos) << "a typo is not a broken rule file: " << typo.out;
  const CliRun prefix = mpsready("scan " + root + " --ignore py-cdua-*");
  EXPECT_EQ(prefix.code, 2);
  EXPECT_NE(prefix.out.find("--ignore: no rule matches \"py-cdua-*\"; did you mean py-cuda-*?"), std::string::npos)
      << prefix.out;
  const CliRun far = mpsready("scan " + root + " --extend-select zzz");
  EXPECT_EQ(far.code, 2);
  EXPECT_NE(far.out.find("no rule matches \"zzz\" (see `mpsready rules list`)"), std::string::npos) << far.out;
}

// An exclude that leaves nothing out says so (on stderr, not with -q); one that matches is quiet.
TEST(Cli, AnExcludeThatMatchesNothingSaysSo) {
  TempDir dir;
  dir.write("train.py", "import torch\nmodel = model.cuda()\n");
  dir.write("legacy/old.py", "import torch\nx = y.cuda()\n");
  const std::string root = quote(dir.path().string());
  const CliRun wrong = mpsready("scan " + root + " --exclude ./train.py --exclude 'legacy/**'");
  EXPECT_EQ(wrong.code, 0) << wrong.out;
  EXPECT_NE(wrong.out.find("mpsready: exclude \"./train.py\" left out nothing"), std::string::npos) << wrong.out;
  EXPECT_EQ(wrong.out.find("exclude \"legacy/**\" left out nothing"), std::string::npos) << wrong.out;
  EXPECT_NE(wrong.out.find("train.py:2"), std::string::npos) << "the file is still scanned: " << wrong.out;
  const CliRun right = mpsready("scan " + root + " --exclude train.py");
  EXPECT_EQ(right.out.find("left out nothing"), std::string::npos) << right.out;
  EXPECT_EQ(right.out.find("train.py:2"), std::string::npos) << right.out;
  EXPECT_EQ(mpsready("scan " + root + " -q --exclude ./train.py").out.find("left out nothing"), std::string::npos);
}

TEST(Cli, TextOutputIsCompilerStyle) {
  TempDir dir;
  dir.write("pkg/train.py", "import torch\n\nx = y.cuda()\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()));
  EXPECT_EQ(run.code, 0);
  EXPECT_NE(run.out.find("pkg/train.py:3:5: portable: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("[py-tensor-dot-cuda]"), std::string::npos);
  EXPECT_NE(run.out.find("    fix: "), std::string::npos);
  EXPECT_NE(run.out.find("verdict: partial"), std::string::npos);
}

TEST(Cli, JsonFollowsTheContract) {
  TempDir dir;
  dir.write("a.py", "import torch\nx = torch.zeros(2, device='cuda:0')\n");
  const auto doc = scan_json(dir.path());
  for (const char* key : {"schema_version", "tool", "root", "verdict", "reasons", "summary", "findings", "errors", "skipped"})
    EXPECT_TRUE(doc.contains(key)) << key;
  EXPECT_EQ(doc["tool"]["name"], "mpsready");
  ASSERT_EQ(doc["findings"].size(), 1u);
  const auto& f = doc["findings"][0];
  EXPECT_EQ(f["rule"], "py-cuda-device-string");
  EXPECT_EQ(f["path"], "a.py");
  EXPECT_EQ(f["line"], 2);
  EXPECT_EQ(f["column"], 27);
  EXPECT_EQ(f["end_column"], 35);
  for (const char* key : {"category", "impact", "end_line", "message", "fix", "snippet", "guarded"})
    EXPECT_TRUE(f.contains(key)) << key;
  EXPECT_EQ(doc["verdict"], "partial");
  EXPECT_EQ(doc["reasons"][0]["rule"], "py-cuda-device-string");
}

TEST(Cli, AwkwardFilesAreReportedAndTheScanGoesOn) {
  TempDir dir;
  dir.write("binary.py", std::string("import torch\0\x01\x02x.cuda()", 21));
  dir.write("latin1.py", "# caf\xE9\nimport torch\nx = y.cuda()\n");
  dir.write("broken.py", "import torch\ndef f(:\n    pass\nz = w.cuda()\n");
  dir.write("bad.ipynb", "{\"cells\": [");
  dir.write("ok.py", "import torch\nm = m.cuda()\n");
  const auto doc = scan_json(dir.path());
  std::map<std::string, std::string> errors, skipped;
  for (const auto& e : doc["errors"]) errors[e["path"]] = e["reason"];
  for (const auto& s : doc["skipped"]) skipped[s["path"]] = s["reason"];
  EXPECT_NE(skipped["binary.py"].find("binary"), std::string::npos);
  EXPECT_NE(errors["latin1.py"].find("not valid UTF-8"), std::string::npos);
  EXPECT_NE(errors["broken.py"].find("syntax error at line 2"), std::string::npos);
  EXPECT_NE(errors["bad.ipynb"].find("not a valid notebook"), std::string::npos);
  std::set<std::string> flagged;
  for (const auto& f : doc["findings"]) flagged.insert(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()));
  EXPECT_TRUE(flagged.count("latin1.py:3"));
  EXPECT_TRUE(flagged.count("broken.py:4")) << "findings after a syntax error are still reported";
  EXPECT_TRUE(flagged.count("ok.py:2"));
  EXPECT_EQ(doc["summary"]["files_scanned"], 3);  // binary skipped, notebook unreadable
}

TEST(Cli, NotebookFindingsNameTheCell) {
  TempDir dir;
  dir.write("explore.ipynb", R"J({"cells": [
    {"cell_type": "markdown", "source": ["CliRun `model.cuda()` first"]},
    {"cell_type": "code", "source": ["!nvidia-smi\n", "%load_ext autoreload\n", "import torch\n"]},
    {"cell_type": "code", "source": ["model = Net()\n", "model.cuda()"]}], "nbformat": 4, "nbformat_minor": 5})J");
  const auto doc = scan_json(dir.path());
  ASSERT_EQ(doc["findings"].size(), 1u) << doc.dump(2);
  EXPECT_EQ(doc["findings"][0]["cell"], 3);
  EXPECT_EQ(doc["findings"][0]["line"], 2);
  EXPECT_TRUE(doc["errors"].empty());
  const CliRun text = mpsready("scan " + quote(dir.path().string()));
  EXPECT_NE(text.out.find("explore.ipynb:cell 3:2:1: portable"), std::string::npos) << text.out;
}

TEST(Cli, WalkHonoursGitignoreExcludesAndNeverFollowsLinks) {
  TempDir dir;
  dir.write("repo/.gitignore", "generated/\n*.tmp.py\n");
  dir.write("repo/generated/a.py", "x.cuda()\n");
  dir.write("repo/scratch.tmp.py", "x.cuda()\n");
  dir.write("repo/.venv/lib/site.py", "x.cuda()\n");
  dir.write("repo/env2/pyvenv.cfg", "home = /usr\n");
  dir.write("repo/env2/lib.py", "x.cuda()\n");
  dir.write("repo/vendor/third.py", "x.cuda()\n");
  dir.write("repo/src/model.py", "x.cuda()\n");
  dir.write("outside/secret.py", "x.cuda()\n");
  fs::create_directory_symlink(dir.path() / "outside", dir.path() / "repo/link");
  fs::create_symlink(dir.path() / "outside/secret.py", dir.path() / "repo/src/alias.py");
  fs::create_directory_symlink(dir.path() / "repo", dir.path() / "repo/src/loop");
  const auto doc = scan_json(dir.path() / "repo", "--exclude vendor");
  std::set<std::string> paths;
  for (const auto& f : doc["findings"]) paths.insert(f["path"]);
  EXPECT_EQ(paths, (std::set<std::string>{"src/model.py"}));
  std::set<std::string> skipped;
  for (const auto& s : doc["skipped"]) skipped.insert(s["path"]);
  EXPECT_TRUE(skipped.count("link"));
  EXPECT_TRUE(skipped.count("src/alias.py"));
  EXPECT_TRUE(skipped.count("src/loop"));
  EXPECT_EQ(doc.dump().find("secret"), std::string::npos);
}

TEST(Cli, SpecialFilesAreSkippedNotOpened) {
  TempDir dir;
  dir.write("ok.py", "x.cuda()\n");
  // A FIFO named like source: opening it for reading would block a naive scanner forever.
  ASSERT_EQ(mkfifo((dir.path() / "pipe.py").c_str(), 0600), 0);
  const auto doc = scan_json(dir.path());
  ASSERT_EQ(doc["skipped"].size(), 1u);
  EXPECT_EQ(doc["skipped"][0]["path"], "pipe.py");
  EXPECT_EQ(doc["skipped"][0]["reason"], "not a regular file");
  EXPECT_EQ(doc["findings"].size(), 1u);
}

TEST(Cli, DeepNestingAndManyFindingsFinish) {
  TempDir dir;
  // 100,000 nested parentheses: nothing may recurse on input depth.
  dir.write("deep.py", "import torch\nx = " + std::string(100000, '(') + "y.cuda()" + std::string(100000, ')') + "\n");
  std::string many = "import torch\n";
  for (int i = 0; i < 20000; ++i) many += "x.cuda()\n";
  dir.write("many.py", many);
  const auto doc = scan_json(dir.path());
  EXPECT_EQ(doc["summary"]["findings"], 20001);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["path"], "deep.py");
  EXPECT_NE(doc["errors"][0]["reason"].get<std::string>().find("levels deep"), std::string::npos);
}

TEST(Cli, OutputFileAndSingleFileScan) {
  TempDir dir;
  const fs::path file = dir.write("one.py", "import torch\ntorch.cuda.synchronize()\n");
  const fs::path out = dir.path() / "report.json";
  const CliRun run = mpsready("scan " + quote(file.string()) + " --format json -o " + quote(out.string()));
  EXPECT_EQ(run.code, 0);
  EXPECT_TRUE(run.out.empty()) << run.out;
  const auto doc = nlohmann::json::parse(read_text(out));
  ASSERT_EQ(doc["findings"].size(), 1u);
  EXPECT_EQ(doc["findings"][0]["path"], "one.py");
}

TEST(Cli, JsonIsByteIdenticalAcrossRunsAndThreadCounts) {
  const fs::path repo = source_dir() / "sample_repos";
  const std::string a = mpsready("scan " + quote(repo.string()) + " --format json -j 1", false).out;
  const std::string b = mpsready("scan " + quote(repo.string()) + " --format json -j 2", false).out;
  const std::string c = mpsready("scan " + quote(repo.string()) + " --format json -j 8", false).out;
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
}

}  // namespace mpsready::testing

namespace mpsready::testing {

TEST(Cli, SarifFormatIsOneRunWithTheRulesThatRan) {
  TempDir dir;
  dir.write("pkg/train.py", "import torch\nx = y.cuda()\nz = w.cuda()  # mpsready: ignore[py-tensor-dot-cuda] ok\n");
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format sarif --select py-tensor-dot-cuda", false);
  EXPECT_EQ(run.code, 0) << run.out;
  const auto log = nlohmann::json::parse(run.out);
  const auto& sarif_run = log["runs"][0];
  ASSERT_EQ(sarif_run["tool"]["driver"]["rules"].size(), 1u);
  const auto& rule = sarif_run["tool"]["driver"]["rules"][0];
  EXPECT_EQ(rule["id"], "py-tensor-dot-cuda");
  EXPECT_NE(rule["help"]["markdown"].get<std::string>().find("## Why it matters on MPS"), std::string::npos);
  ASSERT_EQ(sarif_run["results"].size(), 1u);  // the suppressed one is left out
  const auto& res = sarif_run["results"][0];
  EXPECT_EQ(res["level"], "warning");
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "pkg/train.py");
  EXPECT_EQ(res["locations"][0]["physicalLocation"]["region"]["startLine"], 2);
  EXPECT_EQ(sarif_run["properties"]["suppressed"], 1);
  EXPECT_EQ(run.out.find(dir.path().string()), std::string::npos) << "no absolute path in SARIF";
  EXPECT_EQ(sarif_run["properties"]["rulesRun"], 1);
  // Only the rules with a result are described (each embeds its whole doc); a rule's fix template
  // shows its placeholders as <name>, not {name}.
  dir.write("csrc/k.cu", "__global__ void scale(float* x) { x[0] *= 2; }\n");
  const auto all = nlohmann::json::parse(mpsready("scan " + quote(dir.path().string()) + " --format sarif", false).out);
  EXPECT_GT(all["runs"][0]["properties"]["rulesRun"].get<size_t>(), all["runs"][0]["tool"]["driver"]["rules"].size());
  bool saw_kernel = false;
  for (const auto& r : all["runs"][0]["tool"]["driver"]["rules"]) {
    if (r["id"] != "cu-cuda-kernel") continue;
    saw_kernel = true;
    EXPECT_NE(r["help"]["text"].get<std::string>().find("`<name>`"), std::string::npos) << r["help"]["text"];
  }
  EXPECT_TRUE(saw_kernel);
}

TEST(Cli, SuppressedFindingsAreCountedNotDropped) {
  TempDir dir;
  dir.write("a.py", "import torch\n# mpsready: ignore[py-tensor-dot-cuda] evaluated on Linux only\nx = y.cuda()\n");
  const auto doc = scan_json(dir.path());
  EXPECT_EQ(doc["summary"]["suppressed"], 1);
  EXPECT_EQ(doc["summary"]["findings"], 0);
  EXPECT_EQ(doc["verdict"], "mps-ready");
  const CliRun text = mpsready("scan " + quote(dir.path().string()));
  EXPECT_NE(text.out.find("  suppressed: 1 "), std::string::npos) << text.out;
}

}  // namespace mpsready::testing

namespace mpsready::testing {

namespace {

CliRun scan_with_config(const TempDir& dir, const std::string& config, const std::string& extra = "") {
  dir.write(".mpsready.json", config);
  return mpsready("scan " + quote(dir.path().string()) + " " + extra);
}

}  // namespace

TEST(Config, ExcludesRulesImpactsTargetAndThreshold) {
  TempDir dir;
  dir.write("train.py", "import torch\nm = m.cuda()\nx = torch.zeros(1, device='cuda')\ny = z.double()\n");
  dir.write("legacy/old.py", "import torch\nm = m.cuda()\n");
  dir.write(".mpsready.json", R"({"exclude": ["legacy/**"], "ignore": ["py-cuda-device-string"],
      "impact": {"py-tensor-dot-cuda": "info"}, "target_pytorch": "2.5.1", "fail_on": "partial"})");
  const CliRun json_run = mpsready("scan " + quote(dir.path().string()) + " --format json", false);
  EXPECT_EQ(json_run.code, 1) << "fail_on from the file (z.double() is portable)";
  const auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc["verdict"], "partial");
  EXPECT_EQ(doc["target_pytorch"], "2.5.1");
  std::set<std::string> seen;
  for (const auto& f : doc["findings"]) {
    seen.insert(f["rule"].get<std::string>() + "@" + f["path"].get<std::string>());
    if (f["rule"] == "py-tensor-dot-cuda") EXPECT_EQ(f["impact"], "info");
  }
  EXPECT_TRUE(seen.count("py-tensor-dot-cuda@train.py"));
  EXPECT_FALSE(seen.count("py-tensor-dot-cuda@legacy/old.py"));
  EXPECT_FALSE(seen.count("py-cuda-device-string@train.py"));
  const std::string root = quote(dir.path().string());
  const CliRun text = mpsready("scan " + root);
  EXPECT_NE(text.out.find("  target PyTorch: 2.5.1"), std::string::npos) << text.out;
  // fail_on from the file gates; --fail-on on the command line replaces it.
  EXPECT_EQ(text.code, 1);
  EXPECT_EQ(mpsready("scan " + root + " --fail-on stay-on-linux").code, 0);
  // --no-config ignores the file; --config names another one.
  EXPECT_EQ(nlohmann::json::parse(mpsready("scan " + root + " --no-config --format json", false).out).count("target_pytorch"), 0u);
  TempDir other;
  other.write("cfg.json", R"({"target_pytorch": "2.4"})");
  const auto with_other = nlohmann::json::parse(
      mpsready("scan " + root + " --format json --config " + quote((other.path() / "cfg.json").string()), false).out);
  EXPECT_EQ(with_other["target_pytorch"], "2.4");
  // One name for the target PyTorch: `target-pytorch` in the file, --target-pytorch on the command
  // line (which replaces it); the older spellings still work and say so on stderr.
  other.write("kebab.json", R"({"target-pytorch": "2.3"})");
  const CliRun kebab = mpsready("scan " + root + " --format json --config " + quote((other.path() / "kebab.json").string()));
  EXPECT_EQ(kebab.out.find("is now spelled"), std::string::npos) << kebab.out;
  const CliRun old_key = mpsready("scan " + root + " --config " + quote((other.path() / "cfg.json").string()));
  EXPECT_NE(old_key.out.find("\"target_pytorch\" is now spelled \"target-pytorch\""), std::string::npos) << old_key.out;
  const auto flag = nlohmann::json::parse(mpsready("scan " + root + " --format json --target-pytorch 2.2", false).out);
  EXPECT_EQ(flag["target_pytorch"], "2.2");
  const CliRun old_flag = mpsready("scan " + root + " --format json --torch-version 2.1");
  EXPECT_NE(old_flag.out.find("--torch-version is now --target-pytorch"), std::string::npos) << old_flag.out;
  // The SARIF rule's default level follows the override.
  const auto sarif = nlohmann::json::parse(mpsready("scan " + root + " --format sarif --select py-tensor-dot-cuda", false).out);
  EXPECT_EQ(sarif["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"], "note");
  EXPECT_EQ(sarif["runs"][0]["properties"]["targetPytorch"], "2.5.1");
}

TEST(Config, ErrorsNameTheKeyAndExitTwo) {
  TempDir dir;
  dir.write("a.py", "import torch\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"excludes": []})", "unknown key \"excludes\""},
      {R"({"exclude": "legacy"})", "\"exclude\" must be an array of strings"},
      {R"({"exclude": ["a", 3]})", "\"exclude\"[1] must be a string"},
      {R"({"exclude": ["../outside"]})", "\"exclude[0]\": \"../outside\" points outside the scanned root"},
      {R"({"exclude": ["a/../../b"]})", "points outside the scanned root"},
      {R"({"exclude": ["//etc/passwd"]})", "is an absolute path"},
      {R"({"exclude": ["~/x"]})", "is an absolute path"},
      {R"({"exclude": ["C:/x"]})", "is an absolute path"},
      {R"({"exclude": ["a\\b"]})", "contains a backslash"},
      {R"({"impact": {"py-tensor-dot-cuda": "fatal"}})", "\"impact.py-tensor-dot-cuda\": \"fatal\" is not an impact"},
      {R"({"impact": {"py-no-such-rule": "info"}})", "\"impact.py-no-such-rule\": no such rule"},
      {R"({"impact": ["x"]})", "\"impact\" must be an object"},
      {R"({"select": ["py-nope-*"]})", "\"select\"[0]: no rule matches \"py-nope-*\""},
      {R"({"ignore": [true]})", "\"ignore\"[0] must be a string"},
      {R"({"target_pytorch": 2.5})", "\"target_pytorch\" must be a string"},
      {R"({"target_pytorch": "latest"})", "\"target_pytorch\": \"latest\" is not a version"},
      {R"({"fail_on": "always"})", "\"fail_on\": \"always\" is not partial or stay-on-linux"},
      {R"({"roles": {"scripts": "main"}})", "\"roles.scripts\" must be a role"},
      {R"({"roles": ["scripts"]})", "\"roles\" must be an object"},
      {R"({"roles": {"../x": "core"}})", "points outside the scanned root"},
      {R"({"components": ["a", 1]})", "\"components\"[1] must be a string"},
      {R"({"components": ["../abs"]})", "points outside the scanned root"},
      {R"([1, 2])", "must be a JSON object"},
      {R"({"exclude": [)", "not valid JSON"},
  };
  for (const auto& [config, message] : cases) {
    const CliRun run = scan_with_config(dir, config);
    EXPECT_EQ(run.code, 2) << config << "\n" << run.out;
    EXPECT_NE(run.out.find(message), std::string::npos) << config << "\n" << run.out;
    EXPECT_NE(run.out.find(".mpsready.json"), std::string::npos) << "names the file: " << run.out;
  }
  // An anchored exclude ("/build") is relative to the root and allowed.
  EXPECT_EQ(scan_with_config(dir, R"({"exclude": ["/build", "!keep.py"]})").code, 0);
}

TEST(Config, TheRootsFileIsNotReadThroughALink) {
  TempDir dir, elsewhere;
  dir.write("a.py", "import torch\n");
  elsewhere.write("cfg.json", R"({"exclude": ["a.py"]})");
  fs::create_symlink(elsewhere.path() / "cfg.json", dir.path() / ".mpsready.json");
  const CliRun run = mpsready("scan " + quote(dir.path().string()));
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.out.find("is a symbolic link; not followed"), std::string::npos) << run.out;
  EXPECT_EQ(mpsready("scan " + quote(dir.path().string()) + " --no-config").code, 0);
}

}  // namespace mpsready::testing

namespace mpsready::testing {

namespace {

int sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

// A git repository in `dir` with everything committed; returns false when git is missing.
bool git_commit_all(const TempDir& dir, const std::string& message) {
  const std::string git = "git -C " + quote(dir.path().string()) +
                          " -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false";
  if (!fs::exists(dir.path() / ".git") && sh(git + " init -q") != 0) return false;
  return sh(git + " add -A") == 0 && sh(git + " commit -q --no-verify -m " + quote(message)) == 0;
}

}  // namespace

TEST(Baseline, OnlyNewFindingsAreReportedAndMovedLinesStayKnown) {
  TempDir dir, out;
  dir.write("train.py", "import torch\nm = m.cuda()\nx = x.cuda()\n");
  const std::string root = quote(dir.path().string());
  const std::string baseline = quote((out.path() / "baseline.json").string());
  EXPECT_EQ(mpsready("scan " + root + " --write-baseline " + baseline).code, 0);
  const auto written = nlohmann::json::parse(read_text(out.path() / "baseline.json"));
  ASSERT_EQ(written["findings"].size(), 2u);
  EXPECT_EQ(written["findings"][0]["fingerprint"].get<std::string>().size(), 16u);
  // The known lines move down (and change indentation); one new site is added.
  dir.write("train.py", "import torch\n\n\ndef f():\n    pass\n\nm = m.cuda()\nx  =  x.cuda()\ny = y.cuda()\n");
  const CliRun run = mpsready("scan " + root + " --format json --baseline " + baseline, false);
  EXPECT_EQ(run.code, 0) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  ASSERT_EQ(doc["findings"].size(), 1u) << doc.dump(1);
  EXPECT_EQ(doc["findings"][0]["line"], 9);
  EXPECT_EQ(doc["summary"]["baselined"], 2);
  EXPECT_EQ(doc["tree_verdict"], "partial");
  // A baseline that hides every finding says what the verdict is with them.
  dir.write("train.py", "import torch\nm = m.cuda()\nx = x.cuda()\n");
  const CliRun hidden = mpsready("scan " + root + " --baseline " + baseline);
  EXPECT_NE(hidden.out.find("verdict: mps-ready"), std::string::npos) << hidden.out;
  EXPECT_NE(hidden.out.find("baseline: 2 known findings left out; with them the verdict is partial"), std::string::npos)
      << hidden.out;
  // The fingerprints are the SARIF ones.
  const auto sarif = nlohmann::json::parse(mpsready("scan " + root + " --format sarif", false).out);
  std::set<std::string> sarif_prints, baseline_prints;
  for (const auto& r : sarif["runs"][0]["results"]) sarif_prints.insert(r["partialFingerprints"]["mpsready/v1"]);
  for (const auto& f : written["findings"]) baseline_prints.insert(f["fingerprint"]);
  for (const auto& p : baseline_prints) EXPECT_TRUE(sarif_prints.count(p)) << p;
  // A bad baseline is a usage error with a message.
  out.write("bad.json", R"({"schema_version": 1, "findings": [{"fp": 1}]})");
  const CliRun bad = mpsready("scan " + root + " --baseline " + quote((out.path() / "bad.json").string()));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("not an mpsready baseline"), std::string::npos) << bad.out;
  EXPECT_EQ(mpsready("scan " + root + " --baseline /nonexistent/b.json").code, 2);
}

TEST(Diff, ReportsOnlyWhatTheChangeAddedAndTheVerdictBeforeAndAfter) {
  TempDir dir;
  dir.write("model.py", "import torch\nm = m.cuda()\n");
  dir.write("notebooks/nb.ipynb", R"J({"cells": [{"cell_type": "code", "source": ["import torch\n", "a = a.cuda()\n"]}],
      "metadata": {}, "nbformat": 4, "nbformat_minor": 5})J");
  ASSERT_TRUE(git_commit_all(dir, "first")) << "git is needed (scripts/bootstrap installs it)";
  // Second commit: a CUDA kernel, one more .cuda() in model.py, a new notebook cell.
  dir.write("csrc/kernel.cu", "__global__ void k(float* x) { x[0] = 1; }\n");
  dir.write("model.py", "import torch\n# a comment\nm = m.cuda()\nn = n.cuda()\n");
  dir.write("notebooks/nb.ipynb", R"J({"cells": [{"cell_type": "code", "source": ["import torch\n", "a = a.cuda()\n"]},
      {"cell_type": "code", "source": ["b = b.cuda()\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})J");
  ASSERT_TRUE(git_commit_all(dir, "second"));
  const std::string root = quote(dir.path().string());
  const CliRun run = mpsready("scan " + root + " --format json --diff HEAD~1", false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  std::vector<std::string> sites;
  for (const auto& f : doc["findings"]) {
    sites.push_back(f["path"].get<std::string>() + ":" + (f.contains("cell") ? std::to_string(f["cell"].get<int>()) + ":" : "") +
                    std::to_string(f["line"].get<int>()) + ":" + f["rule"].get<std::string>());
  }
  EXPECT_EQ(sites, (std::vector<std::string>{"csrc/kernel.cu:1:cu-cuda-kernel", "model.py:4:py-tensor-dot-cuda",
                                             "notebooks/nb.ipynb:2:1:py-tensor-dot-cuda"}))
      << doc.dump(1);
  EXPECT_EQ(doc["diff"]["base"], "HEAD~1");
  EXPECT_EQ(doc["diff"]["verdict_before"], "partial");
  EXPECT_EQ(doc["diff"]["verdict_after"], "stay-on-linux");
  EXPECT_NE(doc["diff"]["change"].get<std::string>().find(
                "this change moves the repository from partial to stay-on-linux: csrc/kernel.cu:1 adds cu-cuda-kernel"),
            std::string::npos)
      << doc["diff"]["change"];
  // The PR comment says it on its first line.
  const CliRun md = mpsready("scan " + root + " --format markdown --diff HEAD~1", false);
  EXPECT_EQ(md.out.rfind("**mpsready: partial \u2192 stay-on-linux**: this change moves the repository", 0), 0u) << md.out;
  // Against HEAD nothing changed: no findings, the verdict kept.
  const auto same = nlohmann::json::parse(mpsready("scan " + root + " --format json --diff HEAD", false).out);
  EXPECT_TRUE(same["findings"].empty());
  EXPECT_EQ(same["diff"]["change"], "this change keeps the repository at stay-on-linux; it adds no finding");
  // --fail-on gates on what the change adds.
  EXPECT_EQ(mpsready("scan " + root + " --diff HEAD~1 --fail-on stay-on-linux").code, 1);
  EXPECT_EQ(mpsready("scan " + root + " --diff HEAD --fail-on partial").code, 0);
}

TEST(Config, RepeatingARulesDefaultImpactChangesNothing) {
  // The extension in this sample has a Python fallback: its kernels are guarded. A configuration
  // that merely repeats cu-cuda-kernel's default impact must leave the verdict and every finding.
  const std::string repo = quote((source_dir() / "sample_repos" / "rmsnorm-extension-partial").string());
  TempDir dir;
  dir.write("repeat.json", R"({"impact": {"cu-cuda-kernel": "blocker"}})");
  const auto plain = nlohmann::json::parse(mpsready("scan " + repo + " --format json", false).out);
  const auto repeated = nlohmann::json::parse(
      mpsready("scan " + repo + " --format json --config " + quote((dir.path() / "repeat.json").string()), false).out);
  EXPECT_EQ(repeated["verdict"], "partial");
  EXPECT_EQ(plain["findings"].dump(), repeated["findings"].dump());
  EXPECT_EQ(plain["reasons"].dump(), repeated["reasons"].dump());
}

TEST(Diff, ADecoyHeaderInsideAHunkCannotHideABlocker) {
  TempDir dir;
  dir.write("model.py", "import torch\n\n\ndef f():\n    return 1\n");
  ASSERT_TRUE(git_commit_all(dir, "first")) << "git is needed (scripts/bootstrap installs it)";
  // An added line `++ b/decoy.py` is printed `+++ b/decoy.py` in the diff; a later hunk of the
  // same file adds a blocker.
  dir.write("model.py", "import torch\n++ b/decoy.py\n\n\ndef f():\n    return 1\n\n\n\n\n\n\nimport flash_attn\n");
  ASSERT_TRUE(git_commit_all(dir, "second"));
  const std::string root = quote(dir.path().string());
  const auto doc = nlohmann::json::parse(mpsready("scan " + root + " --format json --diff HEAD~1", false).out);
  bool blocker = false;
  for (const auto& f : doc["findings"]) blocker = blocker || (f["path"] == "model.py" && f["impact"] == "blocker");
  EXPECT_TRUE(blocker) << doc.dump(1);
  EXPECT_EQ(doc["verdict"], "stay-on-linux");
  EXPECT_EQ(mpsready("scan " + root + " --diff HEAD~1 --fail-on stay-on-linux").code, 1);
}

TEST(Diff, AChangeThatWorsensTheTreeTripsTheGateWithoutAFindingOnItsLines) {
  TempDir dir;
  // The check that made a CUDA-only import optional is deleted: the import line is unchanged and
  // the change adds no line at all, yet the import is now a blocker.
  dir.write("model.py", "import torch\ntry:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n"
                        "def f(x):\n    if flash_attn is None:\n        return x\n    return flash_attn.f(x)\n");
  ASSERT_TRUE(git_commit_all(dir, "first")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("model.py", "import torch\ntry:\n    import flash_attn\nexcept ImportError:\n    flash_attn = None\n\n"
                        "def f(x):\n    return flash_attn.f(x)\n");
  ASSERT_TRUE(git_commit_all(dir, "second"));
  const std::string root = quote(dir.path().string());
  const auto doc = nlohmann::json::parse(mpsready("scan " + root + " --format json --diff HEAD~1", false).out);
  // The import it made a blocker is listed although its line did not change.
  ASSERT_EQ(doc["findings"].size(), 1u) << doc.dump(1);
  EXPECT_EQ(doc["findings"][0]["line"], 3);
  EXPECT_EQ(doc["findings"][0]["impact"], "blocker");
  EXPECT_EQ(doc["diff"]["verdict_after"], "stay-on-linux");
  EXPECT_EQ(doc["verdict"], "stay-on-linux");
  EXPECT_EQ(mpsready("scan " + root + " --diff HEAD~1 --fail-on stay-on-linux").code, 1);
}

TEST(Diff, BadRevisionsAndNonRepositoriesAreUsageErrors) {
  TempDir plain;
  plain.write("a.py", "import torch\n");
  const CliRun outside = mpsready("scan " + quote(plain.path().string()) + " --diff HEAD");
  EXPECT_EQ(outside.code, 2);
  EXPECT_NE(outside.out.find("not inside a git work tree"), std::string::npos) << outside.out;
  TempDir repo;
  repo.write("a.py", "import torch\n");
  ASSERT_TRUE(git_commit_all(repo, "first")) << "git is needed (scripts/bootstrap installs it)";
  const std::string root = quote(repo.path().string());
  const CliRun unknown = mpsready("scan " + root + " --diff no-such-branch");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.out.find("unknown revision \"no-such-branch\""), std::string::npos) << unknown.out;
  const CliRun option = mpsready("scan " + root + " --diff=--output=/tmp/x");
  EXPECT_EQ(option.code, 2);
  EXPECT_NE(option.out.find("is not a git revision"), std::string::npos) << option.out;
}

}  // namespace mpsready::testing

namespace mpsready::testing {

// A branch made before main gained a kernel: `--diff main` compares with the merge base (what the
// branch adds), not with main's tip; `main..` compares with the tip; a range must end at HEAD.
TEST(Diff, ComparesWithTheMergeBaseAndAcceptsRanges) {
  TempDir dir;
  dir.write("pkg/a.py", "import torch\n");
  ASSERT_TRUE(git_commit_all(dir, "first")) << "git is needed (scripts/bootstrap installs it)";
  const std::string git = "git -C " + quote(dir.path().string()) +
                          " -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false";
  ASSERT_EQ(sh(git + " branch -M main"), 0);
  ASSERT_EQ(sh(git + " branch feature"), 0);
  dir.write("csrc/k.cu", "__global__ void k(float* x) { x[0] = 1; }\n");
  ASSERT_TRUE(git_commit_all(dir, "main gains a kernel"));
  ASSERT_EQ(sh(git + " checkout -q feature"), 0);
  dir.write("pkg/b.py", "import torch\ny = y.cuda()\n");
  ASSERT_TRUE(git_commit_all(dir, "the branch's change"));
  const std::string root = quote(dir.path().string());
  const auto diff_of = [&](const std::string& base) {
    return nlohmann::json::parse(mpsready("scan " + root + " --format json --diff " + base, false).out)["diff"];
  };
  for (const char* base : {"main", "main...HEAD", "main..."}) {
    const auto d = diff_of(base);
    EXPECT_EQ(d["verdict_before"], "mps-ready") << base;
    EXPECT_EQ(d["verdict_after"], "partial") << base;
  }
  for (const char* base : {"main..", "main..HEAD"}) EXPECT_EQ(diff_of(base)["verdict_before"], "stay-on-linux") << base;
  const CliRun elsewhere = mpsready("scan " + root + " --diff feature...main");
  EXPECT_EQ(elsewhere.code, 2);
  EXPECT_NE(elsewhere.out.find("is not the commit checked out"), std::string::npos) << elsewhere.out;
}

TEST(Diff, ASubdirectoryOfTheWorkTreeAndUnusualFileNames) {
  TempDir dir;
  dir.write("pkg/old model.py", "import torch\nm = m.cuda()\n");
  dir.write("other/x.py", "import torch\nq = q.cuda()\n");
  ASSERT_TRUE(git_commit_all(dir, "first")) << "git is needed (scripts/bootstrap installs it)";
  dir.write("pkg/old model.py", "import torch\nm = m.cuda()\nn = n.cuda()\n");
  dir.write("pkg/caf\xC3\xA9\t\"q\".py", "import torch\np = p.cuda()\n");
  dir.write("other/x.py", "import torch\nq = q.cuda()\nr = r.cuda()\n");
  ASSERT_TRUE(git_commit_all(dir, "second"));
  // Uncommitted edits in the working tree count too.
  dir.write("pkg/old model.py", "import torch\nm = m.cuda()\nn = n.cuda()\no = o.cuda()\n");
  const CliRun run = mpsready("scan " + quote((dir.path() / "pkg").string()) + " --format json --diff HEAD~1", false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  std::vector<std::string> sites;
  for (const auto& f : doc["findings"]) sites.push_back(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()));
  EXPECT_EQ(sites, (std::vector<std::string>{"caf\xC3\xA9\t\"q\".py:2", "old model.py:3", "old model.py:4"})) << doc.dump(1);
  EXPECT_EQ(doc["diff"]["verdict_before"], "partial");
}

TEST(Suppressions, WorkWhenOneFileIsScanned) {
  TempDir dir;
  dir.write("a.py", "import torch\nx = x.cuda()  # mpsready: ignore[py-tensor-dot-cuda]\ny = y.cuda()\n");
  const auto doc = scan_json(dir.path() / "a.py");
  EXPECT_EQ(doc["summary"]["suppressed"], 1);
  EXPECT_EQ(doc["findings"].size(), 1u);
}

}  // namespace mpsready::testing

namespace mpsready::testing {

TEST(Cli, EveryFormatIsByteIdenticalAcrossThreadCounts) {
  const std::string repo = quote((source_dir() / "sample_repos/unet-segmentation-partial").string());
  for (const char* format : {"text", "json", "sarif", "markdown", "html"}) {
    const CliRun one = mpsready("scan " + repo + " -j 1 --format " + format, false);
    const CliRun four = mpsready("scan " + repo + " -j 4 --format " + format, false);
    EXPECT_EQ(one.code, 0) << format;
    EXPECT_FALSE(one.out.empty()) << format;
    EXPECT_EQ(one.out, four.out) << format;
  }
}

}  // namespace mpsready::testing

namespace mpsready::testing {

TEST(Diff, TheBaseTreeIsReadWholeWithoutLinks) {
  TempDir dir, outside;
  // A large file (many pipe reads) whose blocker is on its last line, an empty file, and a
  // symbolic link that must not be written out.
  std::string big = "import torch\n";
  for (int i = 0; i < 20000; ++i) big += "# padding line " + std::to_string(i) + "\n";
  big += "import apex\n";
  dir.write("big.py", big);
  dir.write("empty.py", "");
  outside.write("secret.py", "import apex\n");
  fs::create_symlink(outside.path() / "secret.py", dir.path() / "link.py");
  ASSERT_TRUE(git_commit_all(dir, "first")) << "git is needed (scripts/bootstrap installs it)";
  fs::remove(dir.path() / "big.py");
  ASSERT_TRUE(git_commit_all(dir, "second: the blocker goes"));
  const CliRun run = mpsready("scan " + quote(dir.path().string()) + " --format json --diff HEAD~1", false);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["diff"]["verdict_before"], "stay-on-linux");
  EXPECT_EQ(doc["diff"]["verdict_after"], "mps-ready");
  EXPECT_EQ(doc["diff"]["change"], "this change moves the repository from stay-on-linux to mps-ready; it adds no finding");
}

}  // namespace mpsready::testing
