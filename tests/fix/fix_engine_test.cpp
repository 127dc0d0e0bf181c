// The fix engine's parts on small inputs: overlap resolution, the diff writer, the parse check,
// guarded sites, writing only inside the root.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "fix/apply_edits.h"
#include "fix/device_in_scope.h"
#include "fix/edit_collection.h"
#include "fix/fix_engine.h"
#include "fix/notebook_rewrite.h"
#include "fix/overlap_resolution.h"
#include "fix/syntax_check.h"
#include "fix/template_expansion.h"
#include "fix/unified_diff.h"
#include "fix/fix_summary.h"
#include "python/notebook_reader.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

Edit edit(uint32_t start, uint32_t end, std::string replacement, int line = 1) {
  Edit e;
  e.path = "m.py";
  e.rule = "r";
  e.start = start;
  e.end = end;
  e.replacement = std::move(replacement);
  e.location.line = line;
  return e;
}

// Every site (`--all`): these tests are of the rewriting, not of which sites decide the verdict.
FixOutcome fix_tree(const fs::path& root, bool include_guarded = false, const std::string& target = "",
                    bool all = true) {
  const Pipeline pipeline(bundled_rules());
  FixOptions options;
  options.scan.jobs = 1;
  options.edits.all = all;
  options.edits.include_guarded = include_guarded;
  options.edits.target_pytorch = target;
  return run_fix(pipeline, bundled_rules(), root, options);
}

}  // namespace

TEST(FixEngine, OverlappingEditsAreDroppedAndReported) {
  std::vector<Edit> edits = {edit(10, 20, "b"), edit(0, 30, "a"), edit(40, 45, "c"), edit(40, 45, "c")};
  std::vector<LeftSite> dropped;
  resolve_overlaps(edits, dropped);
  ASSERT_EQ(edits.size(), 1u);  // the duplicate of c merged; a and b overlap
  EXPECT_EQ(edits[0].replacement, "c");
  EXPECT_EQ(dropped.size(), 2u);
}

TEST(FixEngine, AppliesEditsInOrder) {
  const std::string text = "x.cuda()\ny.cuda()\n";
  EXPECT_EQ(apply_edits(text, {edit(0, 8, "x.to(d)"), edit(9, 17, "y.to(d)")}), "x.to(d)\ny.to(d)\n");
}

TEST(FixEngine, UnifiedDiffHasHunksWithContext) {
  std::string text;
  for (int i = 1; i <= 12; ++i) text += "line" + std::to_string(i) + "\n";
  // line2 -> LINE2 and line11 -> LINE11: two hunks, 3 lines of context each.
  const uint32_t l2 = text.find("line2\n"), l11 = text.find("line11\n");
  const std::string diff = unified_diff("m.py", text, {edit(l2, l2 + 5, "LINE2"), edit(l11, l11 + 6, "LINE11")});
  EXPECT_EQ(diff,
            "--- a/m.py\n+++ b/m.py\n"
            "@@ -1,5 +1,5 @@\n line1\n-line2\n+LINE2\n line3\n line4\n line5\n"
            "@@ -8,5 +8,5 @@\n line8\n line9\n line10\n-line11\n+LINE11\n line12\n");
}

TEST(FixEngine, UnifiedDiffMarksAMissingFinalNewline) {
  const std::string diff = unified_diff("m.py", "a\nb", {edit(2, 3, "c")});
  EXPECT_EQ(diff, "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
}

TEST(FixEngine, ParseCheckRejectsBrokenPython) {
  EXPECT_TRUE(python_parses("x = f(1)\n"));
  EXPECT_FALSE(python_parses("x = f(1\n"));
}

TEST(FixEngine, RewritesExpandCaptures) {
  AutofixSpec spec;
  spec.mode = AutofixMode::rewrite;
  spec.rewrites = {{R"(^(.+)\.cuda\(\)$)", R"(\1.to(device))"}};
  EXPECT_EQ(expand_rewrites(spec, "model.cuda()").value_or(Expansion{}).text, "model.to(device)");
  EXPECT_FALSE(expand_rewrites(spec, "model.cuda(device=3)"));
}

TEST(FixEngine, RuleLoadRejectsABadAutofix) {
  std::ifstream in(rules_dir() / "python" / "py-pin-memory" / "rule.json");
  const nlohmann::json rule = nlohmann::json::parse(in);
  EXPECT_NO_THROW(parse_rule(rule, "rule.json"));
  nlohmann::json bad_regex = rule;
  bad_regex["autofix"]["rewrites"][0]["match"] = "(";
  EXPECT_THROW(parse_rule(bad_regex, "rule.json"), RuleError);
  nlohmann::json missing_capture = rule;
  missing_capture["autofix"]["rewrites"][0]["replace"] = "\\3";
  EXPECT_THROW(parse_rule(missing_capture, "rule.json"), RuleError);
  nlohmann::json bad_mode = rule;
  bad_mode["autofix"]["mode"] = "maybe";
  EXPECT_THROW(parse_rule(bad_mode, "rule.json"), RuleError);
}

TEST(FixEngine, VersionsCompareNumberByNumber) {
  EXPECT_TRUE(version_at_least("2.10", "2.5"));
  EXPECT_FALSE(version_at_least("1.13", "2.5"));
  EXPECT_TRUE(version_at_least("2.5.1", "2.5"));
}

TEST(FixEngine, GuardedSitesAreLeftAloneUnlessAsked) {
  TempDir dir;
  dir.write("m.py",
            "import torch\n\n"
            "def f(model):\n"
            "    if torch.cuda.is_available():\n"
            "        model = model.cuda()\n"
            "    return model.cuda()\n");
  const FixOutcome plain = fix_tree(dir.path());
  ASSERT_EQ(plain.files.size(), 1u);
  ASSERT_EQ(plain.sites_fixed(), 1u);
  EXPECT_EQ(plain.files[0].edits.back().location.line, 6);
  // The guarded site is listed, with what would rewrite it.
  ASSERT_EQ(plain.left.size(), 1u);
  EXPECT_EQ(plain.left[0].location.line, 5);
  EXPECT_NE(plain.left[0].reason.find("--include-guarded"), std::string::npos);
  const FixOutcome all = fix_tree(dir.path(), /*include_guarded=*/true);
  ASSERT_EQ(all.files.size(), 1u);
  EXPECT_EQ(all.sites_fixed(), 2u);
}

TEST(FixEngine, FixTargetsTheConfiguredPyTorch) {
  TempDir dir;
  dir.write("m.py", "import torch\n\nwith torch.cuda.amp.autocast():\n    pass\n");
  const FixOutcome old_target = fix_tree(dir.path(), false, "1.13");
  EXPECT_TRUE(old_target.files.empty());
  ASSERT_FALSE(old_target.left.empty());
  EXPECT_NE(old_target.left[0].reason.find("needs PyTorch 2.5"), std::string::npos);
  const FixOutcome new_target = fix_tree(dir.path(), false, "2.5");
  EXPECT_EQ(new_target.sites_fixed(), 1u);
}

TEST(FixEngine, AFileWithoutImportTorchIsLeftForAHuman) {
  TempDir dir;
  dir.write("m.py", "def f(x):\n    return x.cuda()\n");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_TRUE(outcome.files.empty());
  ASSERT_EQ(outcome.left.size(), 1u);
  EXPECT_NE(outcome.left[0].reason.find("import torch"), std::string::npos);
}

TEST(FixEngine, WriteChangesOnlyTheFixedFilesAndConverges) {
  TempDir dir;
  const std::string untouched = "import torch\nx = 1\n";
  dir.write("a.py", "import torch\nDEVICE = \"cuda\"\nmodel = torch.nn.Linear(2, 2).cuda()\n");
  dir.write("b.py", untouched);
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_EQ(outcome.before, Verdict::partial);
  EXPECT_EQ(outcome.after, Verdict::mps_ready);
  std::string error;
  ASSERT_TRUE(write_fixes(dir.path(), outcome, error)) << error;
  EXPECT_EQ(read_text(dir.path() / "b.py"), untouched);
  EXPECT_EQ(read_text(dir.path() / "a.py"), outcome.files.at(0).after);
  EXPECT_EQ(fix_tree(dir.path()).sites_fixed(), 0u);
}

TEST(FixEngine, NeverWritesThroughALinkOutOfTheRoot) {
  TempDir outside, root;
  const fs::path target = outside.write("victim.py", "import torch\nx = torch.zeros(1).cuda()\n");
  fs::create_symlink(target, root.path() / "link.py");
  FixOutcome outcome;
  FileFix fix;
  fix.path = "link.py";
  fix.after = "changed\n";
  outcome.files.push_back(fix);
  std::string error;
  EXPECT_FALSE(write_fixes(root.path(), outcome, error));
  EXPECT_EQ(read_text(target), "import torch\nx = torch.zeros(1).cuda()\n");
}

TEST(FixEngine, ADeviceNameIsReusedOnlyWhereItHoldsADevice) {
  const auto at = [](const std::string& text) {
    return device_bound_in_scope(text, static_cast<uint32_t>(text.find("x.cuda()")), "device");
  };
  EXPECT_TRUE(at("def f(x, device):\n    return x.cuda()\n"));
  EXPECT_TRUE(at("def f(x, device: torch.device = None):\n    return x.cuda()\n"));
  EXPECT_TRUE(at("import torch\ndevice = torch.device('cuda')\ndef f(x):\n    return x.cuda()\n"));
  EXPECT_TRUE(at("device = 'cuda' if ok else 'cpu'\nx.cuda()\n"));
  // Assigned after the site, to something not known to be a device, or shadowed by a local.
  EXPECT_FALSE(at("x.cuda()\ndevice = 'cuda'\n"));
  EXPECT_FALSE(at("device = pick()\nx.cuda()\n"));
  EXPECT_FALSE(at("device = 'cuda'\ndef f(x):\n    device = x.device\n    return x.cuda()\n"));
  EXPECT_FALSE(at("device = 'cuda'\ndef f(x):\n    for device in range(2):\n        x.cuda()\n"));
  EXPECT_FALSE(at("def f(x):\n    return x.cuda()\n"));
  // A nested function sees its enclosing function's parameter.
  EXPECT_TRUE(at("def f(device):\n    def g(x):\n        return x.cuda()\n    return g\n"));
}

TEST(FixEngine, AFunctionThatRunsAModelItWasGivenTakesTheModelsDevice) {
  TempDir dir;
  dir.write("lib.py",
            "import torch\n\n"
            "def validate(model, loader):\n"
            "    model.eval()\n"
            "    for x in loader:\n"
            "        model(x.cuda())\n\n"
            "def prepare(model, x):\n"
            "    model = model.cuda()\n"
            "    return model(x.cuda())\n");
  const FixOutcome outcome = fix_tree(dir.path());
  ASSERT_EQ(outcome.files.size(), 1u);
  const std::string& after = outcome.files[0].after;
  // Where the caller put the model, `--device cpu` included: no second choice of device.
  EXPECT_NE(after.find("def validate(model, loader):\n    device = next(model.parameters()).device\n"), std::string::npos)
      << after;
  // The trap: a function that moves the model itself chooses the device, as before.
  EXPECT_NE(after.find("def prepare(model, x):\n    if torch.cuda.is_available():\n        device = torch.device(\"cuda\")"),
            std::string::npos)
      << after;
  EXPECT_EQ(after.find("next(model.parameters())", after.find("def prepare")), std::string::npos) << after;
}

TEST(FixEngine, AScriptChoosesTheDeviceOnceAfterItsImports) {
  const std::string functions =
      "import torch\n\n\n"
      "def load():\n"
      "    return torch.nn.Linear(2, 2).cuda()\n\n\n"
      "def batch():\n"
      "    return torch.zeros(2).cuda()\n";
  TempDir script;
  script.write("run.py", functions + "\n\nif __name__ == \"__main__\":\n    load()(batch())\n");
  const FixOutcome once = fix_tree(script.path());
  ASSERT_EQ(once.files.size(), 1u);
  const std::string& after = once.files[0].after;
  EXPECT_NE(after.find("import torch\n\nif torch.cuda.is_available():\n    device = torch.device(\"cuda\")"), std::string::npos)
      << after;
  size_t choices = 0;
  for (size_t at = after.find("torch.cuda.is_available()"); at != std::string::npos;
       at = after.find("torch.cuda.is_available()", at + 1))
    ++choices;
  EXPECT_EQ(choices, 1u) << after;
  // The trap: a library module (no `__main__` block) keeps a binding per function; importing it
  // chooses nothing.
  TempDir library;
  library.write("lib.py", functions);
  const FixOutcome per_function = fix_tree(library.path());
  ASSERT_EQ(per_function.files.size(), 1u);
  EXPECT_NE(per_function.files[0].after.find("def load():\n    if torch.cuda.is_available():"), std::string::npos)
      << per_function.files[0].after;
  EXPECT_NE(per_function.files[0].after.find("def batch():\n    if torch.cuda.is_available():"), std::string::npos)
      << per_function.files[0].after;
}

TEST(FixEngine, JsonEscapeKeepsTheNotebookStyle) {
  EXPECT_EQ(json_escape("x.to(\"cuda\")\n\t\\", false), "x.to(\\\"cuda\\\")\\n\\t\\\\");
  EXPECT_EQ(json_escape("\x01", false), "\\u0001");
  EXPECT_EQ(json_escape("\xc3\xa9", false), "\xc3\xa9");
  EXPECT_EQ(json_escape("\xc3\xa9", true), "\\u00e9");
  EXPECT_EQ(json_escape("\xf0\x9f\x98\x80", true), "\\ud83d\\ude00");
}

// A notebook with outputs, metadata, odd indentation, an escaped non-ASCII text before a site,
// a shell line, a %%bash cell and no final newline: only the fixed lines' JSON strings change.
TEST(FixEngine, NotebooksAreRewrittenCellByCell) {
  const fs::path data = source_dir() / "tests" / "fix" / "notebook";
  const std::string before = read_text(data / "train.ipynb");
  const std::string expected = read_text(data / "train.fixed.ipynb");
  TempDir dir;
  dir.write("train.ipynb", before);
  const FixOutcome outcome = fix_tree(dir.path());
  ASSERT_TRUE(outcome.ok) << outcome.error;
  ASSERT_EQ(outcome.files.size(), 1u);
  const FileFix& fix = outcome.files[0];
  EXPECT_EQ(fix.after, expected);
  EXPECT_EQ(fix.edits.size(), 4u);
  std::set<int> cells;
  for (const Edit& e : fix.edits) {
    cells.insert(e.location.cell);
    EXPECT_EQ(before.substr(e.start, e.end - e.start), e.original);
  }
  EXPECT_EQ(cells, (std::set<int>{2, 3}));
  for (const LeftSite& s : outcome.left) ADD_FAILURE() << s.path << ":" << s.location.line << " " << s.reason;
  // Only the sources of cells 2 and 3 differ once parsed; the result reads back as a notebook.
  nlohmann::json a = nlohmann::json::parse(before), b = nlohmann::json::parse(fix.after);
  for (size_t k : {1u, 2u}) {
    EXPECT_NE(a["cells"][k]["source"], b["cells"][k]["source"]);
    a["cells"][k].erase("source");
    b["cells"][k].erase("source");
  }
  EXPECT_EQ(a, b);
  EXPECT_TRUE(read_notebook(fix.after).ok);
  // The diff applies to the JSON bytes and names the notebook.
  EXPECT_NE(fix_diff(outcome).find("+++ b/train.ipynb"), std::string::npos);
  std::string error;
  ASSERT_TRUE(write_fixes(dir.path(), outcome, error)) << error;
  EXPECT_EQ(read_text(dir.path() / "train.ipynb"), expected);
  EXPECT_EQ(fix_tree(dir.path()).sites_fixed(), 0u);
}

TEST(FixEngine, ANotebookSiteAcrossTwoSourceStringsIsLeftForAHuman) {
  TempDir dir;
  dir.write("n.ipynb",
            R"({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,)"
            R"( "source": ["import torch\n", "device = torch.device(\"cpu\")\n", "x = torch.ones(1).cu", "da()\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})");
  const FixOutcome outcome = fix_tree(dir.path());
  EXPECT_TRUE(outcome.files.empty());
  ASSERT_EQ(outcome.left.size(), 1u);
  EXPECT_NE(outcome.left[0].reason.find("two strings"), std::string::npos);
}

}  // namespace mpsready::testing
