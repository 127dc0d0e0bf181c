// Suppression comments: where the marker counts (a real comment on the line or alone on the line
// above), what it names, and what it cannot do.
#include <gtest/gtest.h>

#include "pipeline/suppressions.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

std::vector<std::string> patterns_on(const std::string& text, size_t line, CommentSyntax syntax) {
  const auto lines = suppression_comments(text, syntax);
  return line < lines.size() ? lines[line].patterns : std::vector<std::string>{};
}

std::vector<std::string> rules_of(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.rule + "@" + std::to_string(f.location.line));
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST(SuppressionComments, PythonMarkerOnlyInsideComments) {
  EXPECT_EQ(patterns_on("x.cuda()  # mpsready: ignore[py-a] reason\n", 0, CommentSyntax::python), V{"py-a"});
  EXPECT_EQ(patterns_on("x.cuda()  #mpsready:ignore[py-a, py-b,py-c*]\n", 0, CommentSyntax::python),
            (V{"py-a", "py-b", "py-c*"}));
  // In a string literal the marker is text, not a comment.
  EXPECT_TRUE(patterns_on("s = '# mpsready: ignore[*]'; x.cuda()\n", 0, CommentSyntax::python).empty());
  EXPECT_TRUE(patterns_on("s = \"it's # mpsready: ignore[*]\"\n", 0, CommentSyntax::python).empty());
  EXPECT_TRUE(patterns_on("s = 'a\\' # mpsready: ignore[*]'\n", 0, CommentSyntax::python).empty());
  // Inside a multi-line string, a line that looks like a comment is still the string.
  const std::string doc = "s = \"\"\"\n# mpsready: ignore[*]\n\"\"\"\nx.cuda()\n";
  EXPECT_TRUE(patterns_on(doc, 1, CommentSyntax::python).empty());
  // After the string closes, comments count again.
  EXPECT_EQ(patterns_on("s = '''a\nb'''  # mpsready: ignore[py-a]\n", 1, CommentSyntax::python), V{"py-a"});
  const auto lines = suppression_comments("# mpsready: ignore[py-a]\nx = 1  # mpsready: ignore[py-b]\n",
                                          CommentSyntax::python);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_TRUE(lines[0].alone);
  EXPECT_FALSE(lines[1].alone);
}

TEST(SuppressionComments, MalformedMarkersNameNothing) {
  for (const char* text : {"# mpsready: ignore[py-a\n", "# mpsready: ignore py-a\n", "# mpsready ignore[py-a]\n",
                           "# mpsready: ignore[]\n", "# mpsready: ignore[py a]\n", "# mpsready: ignore[*x]\n",
                           "# mpsready: ignore[py-a\x01]\n", "# mpsready: ignore[../../etc]\n"}) {
    EXPECT_TRUE(patterns_on(text, 0, CommentSyntax::python).empty()) << text;
  }
  // One bad id does not void the good ones beside it.
  EXPECT_EQ(patterns_on("# mpsready: ignore[py a, py-b]\n", 0, CommentSyntax::python), V{"py-b"});
  // A marker that names nothing is kept as written, so the scan can say it suppresses nothing; a
  // comment without the marker's words is no marker at all.
  // A bare marker is every rule on its line (ruff's bare `# noqa`), not a malformed one.
  const LineSuppression bare = suppression_comments("x = 1  # mpsready: ignore  because\n", CommentSyntax::python)[0];
  EXPECT_EQ(bare.patterns, V{"*"});
  EXPECT_TRUE(bare.bare);
  EXPECT_EQ(bare.malformed, "");
  EXPECT_EQ(suppression_comments("x = 1  # mpsready: ignored\n", CommentSyntax::python)[0].patterns, V{});
  EXPECT_EQ(suppression_comments("# mpsready: ignore[py a]\n", CommentSyntax::python)[0].malformed,
            "mpsready: ignore[py a]");
  EXPECT_EQ(suppression_comments("# mpsready: ignore[py a, py-b]\n", CommentSyntax::python)[0].malformed, "");
  EXPECT_EQ(suppression_comments("# mpsready ignore[py-a]\n", CommentSyntax::python)[0].malformed, "");
  EXPECT_EQ(suppression_comments("# mpsready: ignores nothing here\n", CommentSyntax::python)[0].malformed, "");
  EXPECT_EQ(suppression_comments("// mpsready: ignore-file\n", CommentSyntax::cpp)[0].malformed,
            "mpsready: ignore-file");
  // A long marker is cut on a character boundary: "ü" (two bytes) straddles byte 60 here.
  const std::string shown = suppression_comments(
      "# mpsready: ignore[" + std::string(42, 'x') + "\xC3\xBC tail\n", CommentSyntax::python)[0].malformed;
  EXPECT_EQ(shown, "mpsready: ignore[" + std::string(42, 'x') + "\xE2\x80\xA6");
  // A very long comment is handled (no marker beyond what is parsed).
  EXPECT_TRUE(patterns_on("# " + std::string(100000, '[') + "\n", 0, CommentSyntax::python).empty());
}

TEST(SuppressionComments, CppCommentsStringsAndRawStrings) {
  EXPECT_EQ(patterns_on("k<<<1, 1>>>();  // mpsready: ignore[cu-kernel-launch] ok\n", 0, CommentSyntax::cpp),
            V{"cu-kernel-launch"});
  EXPECT_TRUE(patterns_on("const char* s = \"// mpsready: ignore[*]\";\n", 0, CommentSyntax::cpp).empty());
  EXPECT_TRUE(patterns_on("auto s = R\"x(\n// mpsready: ignore[*]\n)x\";\n", 1, CommentSyntax::cpp).empty());
  EXPECT_TRUE(patterns_on("/* // mpsready: ignore[*] */ f();\n", 0, CommentSyntax::cpp).empty());
  EXPECT_TRUE(patterns_on("# mpsready: ignore[*]\n", 0, CommentSyntax::cpp).empty());
  // A digit separator is not the start of a character literal.
  EXPECT_EQ(patterns_on("int n = 1'000'000;  // mpsready: ignore[cu-a]\n", 0, CommentSyntax::cpp), V{"cu-a"});
  EXPECT_EQ(patterns_on("char c = '\"';  // mpsready: ignore[cu-a]\n", 0, CommentSyntax::cpp), V{"cu-a"});
}

TEST(SuppressionComments, PatternsMatchIdsPrefixesAndEverything) {
  EXPECT_TRUE(suppression_matches({"py-a"}, "py-a"));
  EXPECT_FALSE(suppression_matches({"py-a"}, "py-ab"));
  EXPECT_TRUE(suppression_matches({"py-cuda-*"}, "py-cuda-amp"));
  EXPECT_FALSE(suppression_matches({"py-cuda-*"}, "py-float64"));
  EXPECT_TRUE(suppression_matches({"*"}, "cu-cuda-kernel"));
  EXPECT_FALSE(suppression_matches({}, "py-a"));
}

TEST(Suppressions, SameLineAndLineAboveButNotTheWrongId) {
  TempDir dir;
  dir.write("train.py",
            "import torch\n"
            "a = a.cuda()  # mpsready: ignore[py-tensor-dot-cuda] evaluated on Linux only\n"  // 2: same line
            "# mpsready: ignore[py-tensor-dot-cuda] legacy path\n"
            "b = b.cuda()\n"                                                                  // 4: line above
            "c = c.cuda()  # mpsready: ignore[py-cuda-device-string] wrong id\n"              // 5: kept
            "d = d.cuda()\n"                                                                  // 6: kept (line 5 has code)
            "e = torch.zeros(1, device='cuda').cuda()  # mpsready: ignore[py-cuda-device-string, py-tensor-dot-cuda]\n"
            "# mpsready: ignore[py-tensor-dot-cuda]\n"
            "\n"
            "f = f.cuda()\n");                                                                // 10: a blank line between
  const ScanResult r = scan(dir.path(), {"py-tensor-dot-cuda", "py-cuda-device-string"});
  EXPECT_EQ(rules_of(r.findings), (V{"py-tensor-dot-cuda@5", "py-tensor-dot-cuda@6", "py-tensor-dot-cuda@10"}));
  EXPECT_EQ(rules_of(r.suppressed), (V{"py-tensor-dot-cuda@2", "py-tensor-dot-cuda@4", "py-tensor-dot-cuda@7",
                                       "py-cuda-device-string@7"}));
  // The summary counts what is left.
  EXPECT_EQ(r.summary.by_impact.at("portable"), 3u);
}

TEST(Suppressions, WildcardAndPrefix) {
  TempDir dir;
  dir.write("a.py", "import torch\nx = torch.zeros(1, device='cuda').cuda()  # mpsready: ignore[*]\n"
                    "y = y.cuda()  # mpsready: ignore[py-tensor-*]\n");
  const ScanResult r = scan(dir.path(), {"py-tensor-dot-cuda", "py-cuda-device-string"});
  EXPECT_TRUE(r.findings.empty()) << ::testing::PrintToString(rules_of(r.findings));
  EXPECT_EQ(r.suppressed.size(), 3u);
  EXPECT_EQ(r.summary.verdict, Verdict::mps_ready);
}

TEST(Suppressions, HostileCommentsSuppressNothing) {
  TempDir dir;
  dir.write("a.py",
            "import torch\n"
            "s = '# mpsready: ignore[*]'; a = a.cuda()\n"
            "t = \"\"\"\n# mpsready: ignore[*]\n\"\"\"\n"
            "b = b.cuda()\n"
            "c = c.cuda()  # mpsready: ignore[*x] ignore[py-tensor-dot-cuda\n"
            "d = d.cuda()  # mpsready: ignore[" + std::string(5000, 'a') + "]\n");
  const ScanResult r = scan(dir.path(), {"py-tensor-dot-cuda"});
  EXPECT_EQ(rules_of(r.findings), (V{"py-tensor-dot-cuda@2", "py-tensor-dot-cuda@6", "py-tensor-dot-cuda@7",
                                     "py-tensor-dot-cuda@8"}));
  EXPECT_TRUE(r.suppressed.empty());
}

TEST(Suppressions, NotebookCellsUseTheirOwnLines) {
  TempDir dir;
  dir.write("nb.ipynb", R"J({"cells": [
      {"cell_type": "markdown", "source": ["# mpsready: ignore[*]\n"]},
      {"cell_type": "code", "source": ["import torch\n", "# mpsready: ignore[py-tensor-dot-cuda] demo\n", "a = a.cuda()\n"]},
      {"cell_type": "code", "source": ["b = b.cuda()\n", "c = c.cuda()  # mpsready: ignore[py-tensor-dot-cuda]\n",
                                       "# mpsready: ignore[py-tensor-dot-cuda]"]},
      {"cell_type": "code", "source": ["d = d.cuda()\n"]}], "nbformat": 4, "nbformat_minor": 5, "metadata": {}})J");
  const ScanResult r = scan(dir.path(), {"py-tensor-dot-cuda"});
  std::vector<std::string> kept, gone;
  for (const auto& f : r.findings) kept.push_back(std::to_string(f.location.cell) + ":" + std::to_string(f.location.line));
  for (const auto& f : r.suppressed) gone.push_back(std::to_string(f.location.cell) + ":" + std::to_string(f.location.line));
  // The comment at the end of cell 3 does not reach into cell 4; cell 3's first line has none above.
  EXPECT_EQ(kept, (V{"3:1", "4:1"}));
  EXPECT_EQ(gone, (V{"2:3", "3:2"}));
}

TEST(Suppressions, CppFiles) {
  TempDir dir;
  dir.write("k.cu",
            "// mpsready: ignore[cu-cuda-kernel] reference implementation, never built on a Mac\n"
            "__global__ void ref(float* x) { x[0] = 1; }\n"
            "__global__ void real(float* x) { x[0] = 2; }\n");
  const ScanResult r = scan(dir.path(), {"cu-cuda-kernel"});
  ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(rules_of(r.findings));
  EXPECT_EQ(r.findings[0].location.line, 3);
  ASSERT_EQ(r.suppressed.size(), 1u);
  EXPECT_EQ(r.suppressed[0].location.line, 2);
}

TEST(Suppressions, DependencyFilesUseHashComments) {
  TempDir dir;
  dir.write("requirements.txt",
            "torch\n"
            "# mpsready: ignore[dep-nvidia-only-package] only installed on the cluster\n"
            "cupy-cuda12x==13.0\n"
            "nvidia-cudnn-cu12\n");
  const ScanResult r = scan(dir.path(), {"dep-nvidia-only-package", "dep-cuda-wheel-index"});
  EXPECT_EQ(rules_of(r.findings), (V{"dep-nvidia-only-package@4"}));
  EXPECT_EQ(rules_of(r.suppressed), (V{"dep-nvidia-only-package@3"}));
}

TEST(Suppressions, AFileSwappedForALinkSuppressesNothing) {
  TempDir dir;
  dir.write("a.py", "import torch\nx = x.cuda()  # mpsready: ignore[*]\n");
  ScanResult r = scan(dir.path(), {"py-tensor-dot-cuda"});
  EXPECT_EQ(r.suppressed.size(), 1u);
  // Re-apply on a result whose file is now a symbolic link: it is not followed.
  r.findings = r.suppressed;
  r.suppressed.clear();
  dir.write("target.py", "import torch\nx = x.cuda()  # mpsready: ignore[*]\n");
  fs::remove(dir.path() / "a.py");
  fs::create_symlink(dir.path() / "target.py", dir.path() / "a.py");
  apply_suppressions(dir.path(), r, 1 << 20);
  EXPECT_EQ(r.findings.size(), 1u);
  EXPECT_TRUE(r.suppressed.empty());
}

}  // namespace mpsready::testing
