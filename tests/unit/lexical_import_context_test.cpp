// Import contexts read from indentation must agree with the syntax tree wherever they answer:
// hand-made shapes (each with the trap that must send the file to the parser), then every
// Python file of the bundled sample and model repositories (or of MPSREADY_LEXICAL_CORPUS).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <tuple>

#include "python/lexical_import_context.h"
#include "python/python_analyzer.h"
#include "python/python_frontend.h"
#include "python/python_program.h"
#include "python/ts_python.h"
#include "rules/rule_set.h"
#include "support/test_support.h"

namespace mpsready::testing {
namespace {

using Key = std::tuple<int, std::string, int>;  // line, module, level
struct Seen {
  bool lazy, in_main_block, guarded;
  std::string function, branch;
};

// The parse path's facts, by line, module and level.
std::map<Key, Seen> parsed_imports(const std::string& text) {
  static const RuleSet rules = RuleSet::load(rules_dir());
  static const PythonProgram program(rules);
  PythonParser parser;
  const SourceText source{std::string(text)};
  const std::vector<bool> none(program.rules().size(), false);
  const FileAnalysis a = analyze_python(source, "m.py", program, none, parser, AnalysisOptions{}, nullptr);
  std::map<Key, Seen> out;
  for (const ImportFact& f : a.imports)
    out[{f.line, f.module, f.level}] = {f.lazy, f.in_main_block, f.guarded, f.function, f.branch};
  return out;
}

// Empty when the lexical reading declines or agrees with the tree; else what differs.
std::string disagreement(const std::string& text) {
  std::vector<ImportFact> lexical = scan_imports_lexically("m.py", text);
  std::vector<bool> indented;
  for (const ImportFact& f : lexical) indented.push_back(f.guarded);
  if (!resolve_lexical_contexts(text, lexical)) return "";
  const auto parsed = parsed_imports(text);
  std::string out;
  for (size_t i = 0; i < lexical.size(); ++i) {
    if (!indented[i]) continue;
    const ImportFact& f = lexical[i];
    const auto it = parsed.find({f.line, f.module, f.level});
    const std::string where = "line " + std::to_string(f.line) + " `" + f.module + "`: ";
    if (it == parsed.end()) {
      out += where + "no such import in the tree\n";
      continue;
    }
    const Seen& p = it->second;
    if (p.lazy != f.lazy || p.function != f.function || p.in_main_block != f.in_main_block || p.guarded ||
        !p.branch.empty())
      out += where + "tree says lazy=" + std::to_string(p.lazy) + " function=" + p.function +
             " main=" + std::to_string(p.in_main_block) + " guarded=" + std::to_string(p.guarded) +
             " branch=" + p.branch + "; lexical says lazy=" + std::to_string(f.lazy) + " function=" + f.function +
             " main=" + std::to_string(f.in_main_block) + "\n";
  }
  return out;
}

bool resolves(const std::string& text) {
  std::vector<ImportFact> lexical = scan_imports_lexically("m.py", text);
  return resolve_lexical_contexts(text, lexical);
}

}  // namespace

TEST(LexicalImportContext, FunctionsMethodsAndMainBlockAgreeWithTheTree) {
  const std::string text =
      "import os\n"
      "class Engine:\n"
      "    '''Exports.'''\n"
      "    def export(self, fmt,\n"
      "               half=False):\n"
      "        \"\"\"Doc.\n"
      "        more\"\"\"\n"
      "        from .trt import build  # lazy\n"
      "        x = {'a': (1,\n"
      "                   2)}\n"
      "        import json\n"
      "        return build(x)\n"
      "    @staticmethod\n"
      "    async def load(path):\n"
      "        import pickle\n"
      "def helper():\n"
      "    def inner():\n"
      "        from . import util\n"
      "    return inner\n"
      "if __name__ == '__main__':\n"
      "    import argparse\n";
  EXPECT_TRUE(resolves(text));
  EXPECT_EQ(disagreement(text), "");
  std::vector<ImportFact> facts = scan_imports_lexically("m.py", text);
  ASSERT_TRUE(resolve_lexical_contexts(text, facts));
  std::map<std::string, std::string> function_of;
  for (const auto& f : facts) function_of[f.module] = f.function;
  EXPECT_EQ(function_of["trt"], "Engine.export");
  EXPECT_EQ(function_of["pickle"], "Engine.load");
  EXPECT_EQ(function_of["util"], "inner");
}

// Each of these may be guarded or on a feature branch: the reading must decline, so the file
// is parsed.
TEST(LexicalImportContext, DeclinesWhatOnlyTheTreeCanTell) {
  for (const std::string text : {
           "def f(use_trt=False):\n    if not use_trt:\n        return\n    import trt\n",  // opt-in early exit
           "def f(fmt):\n    if fmt == 'trt':\n        import trt\n",                        // feature branch
           "try:\n    import apex\nexcept ImportError:\n    apex = None\n",                 // fallback
           "def f():\n    with ctx():\n        import a\n",
           "@pytest.mark.skipif(not HAS_GPU, reason='gpu')\ndef test_a():\n    import kernels\n",
           "x = '''\n    import not_code\n'''\n",                                              // a string
           "def f():\n\timport tabbed\n",
           "if not HAS_GPU:\n    pytest.skip('gpu', allow_module_level=True)\ndef test_a():\n    import k\n",
           "pytestmark = pytest.mark.skipif(not HAS_GPU, reason='gpu')\ndef test_a():\n    import k\n",
           "@unittest.skipIf(not HAS_GPU, 'gpu')\nclass T:\n    def test_a(self):\n        import k\n",
           "if __name__ == '__main__':\n    pass\nelse:\n    import other\n"}) {
    EXPECT_FALSE(resolves(text)) << text;
  }
}

TEST(LexicalImportContext, AgreesWithTheTreeOnEveryBundledPythonFile) {
  std::vector<fs::path> roots{source_dir() / "sample_repos", source_dir() / "tests" / "model_repos"};
  if (const char* extra = std::getenv("MPSREADY_LEXICAL_CORPUS")) roots.emplace_back(extra);
  int files = 0, resolved = 0;
  for (const fs::path& root : roots) {
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
         it != fs::recursive_directory_iterator(); ++it) {
      if (it->is_symlink() || !it->is_regular_file() || it->path().extension() != ".py") continue;
      if (fs::file_size(it->path()) > 1'000'000) continue;
      const std::string text = read_text(it->path());
      ++files;
      resolved += resolves(text);
      EXPECT_EQ(disagreement(text), "") << it->path();
    }
  }
  EXPECT_GT(files, 10);
  std::cout << files << " files, " << resolved << " read without a parse\n";
}

}  // namespace mpsready::testing
