// Every fuzz target on its committed regression inputs (tests/fuzz/regressions/<target>/: inputs
// that once crashed or hung a reader, kept small and textual) and on a few hostile shapes, in the
// ordinary suite: a fixed bug stays fixed in every build, not only in the fuzz build.
#include <gtest/gtest.h>

#include <set>

#include "fuzz/fuzz_targets.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

fs::path regressions_dir() { return source_dir() / "tests/fuzz/regressions"; }

}  // namespace

TEST(FuzzRegressions, EveryFolderNamesATarget) {
  ASSERT_TRUE(fs::is_directory(regressions_dir()));
  for (const auto& entry : fs::directory_iterator(regressions_dir())) {
    if (!entry.is_directory()) continue;
    EXPECT_NE(fuzz::find_fuzz_target(entry.path().filename().string()), nullptr)
        << entry.path().filename() << " is not a fuzz target (see tests/fuzz/fuzz_targets.cpp)";
  }
}

TEST(FuzzRegressions, EveryTargetRunsItsRegressionInputs) {
  size_t replayed = 0;
  for (const auto& target : fuzz::fuzz_targets()) {
    const fs::path dir = regressions_dir() / target.name;
    if (!fs::is_directory(dir)) continue;
    std::set<fs::path> files;  // a fixed order
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file()) files.insert(entry.path());
    for (const auto& file : files) {
      SCOPED_TRACE(file.string());
      target.run(read_text(file));
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 0u);
}

// Shapes every reader must survive, whatever it reads: nothing, one byte, a lone BOM, deep
// nesting of every bracket kind (closed, unclosed, closed by the wrong kind), a long line, and
// bytes that are not UTF-8.
TEST(FuzzRegressions, EveryTargetSurvivesHostileShapes) {
  const std::vector<std::string> inputs = {
      "",
      "\n",
      "\xEF\xBB\xBF",
      std::string(20000, '(') + std::string(20000, ')'),
      std::string(20000, '[') + "1",
      std::string(20000, '{'),
      "{\"cells\": " + std::string(20000, '[') + "]",
      std::string(200000, 'a'),
      "caf\xE9 \xFF\xFE \xC3\x28 \xED\xA0\x80\r\n\r",
      "\"\"\"unterminated\n'''\n#include <<<>>>\n",
      // tree-sitter's error recovery corrupted its heap past 65,535 open brackets.
      std::string(70000, '['),
      std::string(70000, '[') + std::string(70000, ')'),
      std::string(35000, '(') + std::string(35000, '{'),
  };
  for (const auto& target : fuzz::fuzz_targets()) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      SCOPED_TRACE(std::string(target.name) + " input " + std::to_string(i));
      target.run(inputs[i]);
    }
  }
}

}  // namespace mpsready::testing
