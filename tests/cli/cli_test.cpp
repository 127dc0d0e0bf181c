// The mpsready executable as a user runs it: exit codes, messages, and output on awkward inputs.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace mpsready::testing {

namespace {

struct CliRun {
  int code = -1;
  std::string out;  // stdout and stderr together
};

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CliRun mpsready(const std::string& args, bool with_stderr = true) {
  const char* bin = std::getenv("MPSREADY_BIN");
  std::string cmd = quote(bin ? bin : "mpsready") + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  CliRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  const int status = pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

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
