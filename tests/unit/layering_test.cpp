// The scanner's stages point one way (README "Architecture"): front ends and repository passes
// record sites and facts, the assessment alone gives them meaning, reporters render what it
// made. These tests read every source's `#include` lines, so an arrow pointing back fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace mpsready::testing {
namespace {

struct Include {
  std::string file;  // relative to the source tree
  std::string header;
};

// Every quoted include of the sources under `folder` (relative to the source tree).
std::vector<Include> includes_under(const std::string& folder) {
  std::vector<Include> out;
  static const std::regex kInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const auto& entry : fs::recursive_directory_iterator(source_dir() / folder)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, kInclude))
        out.push_back({fs::relative(entry.path(), source_dir()).generic_string(), m[1].str()});
    }
  }
  return out;
}

std::vector<std::string> offending(const std::vector<std::string>& folders, const std::vector<std::string>& banned) {
  std::vector<std::string> out;
  for (const std::string& folder : folders)
    for (const Include& i : includes_under(folder))
      for (const std::string& prefix : banned)
        if (i.header.rfind(prefix, 0) == 0) out.push_back(i.file + " includes " + i.header);
  return out;
}

TEST(Layering, FrontEndsAndPassesNeverIncludeTheAssessment) {
  // A front end or pass that includes assess/ could decide a finding's impact itself.
  const auto found = offending({"scanner/python", "scanner/cpp", "scanner/deps", "scanner/docs", "scanner/binary",
                                "scanner/cython", "scanner/engine", "scanner/model"},
                               {"assess/", "report/", "cli/"});
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
  // The passes beside the pipeline that runs them.
  std::vector<std::string> passes;
  for (const Include& i : includes_under("scanner/pipeline"))
    if (i.file.find("_pass.") != std::string::npos && i.header.rfind("assess/", 0) == 0)
      passes.push_back(i.file + " includes " + i.header);
  EXPECT_TRUE(passes.empty()) << ::testing::PrintToString(passes);
}

TEST(Layering, ReportersIncludeOnlyTheAssessedResult) {
  // A reporter renders the assessed result; one that reached the model or the front ends could
  // recount or redecide what the assessment decided.
  const auto found = offending({"scanner/report"}, {"assess/", "model/", "pipeline/", "python/", "cpp/", "deps/",
                                                     "binary/", "cython/", "docs/", "cli/"});
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
}

TEST(Layering, TheAssessmentDoesNotReachBackIntoFrontEndsOrReporters) {
  const auto found = offending({"scanner/assess"}, {"report/", "cli/", "python/", "cpp/", "binary/", "cython/"});
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
}

TEST(Layering, TheRuntimeNeverIncludesTheScannersCli) {
  // runtime/ builds on its own on a Mac (runtime_only.cmake); an include of scanner/cli/ would make
  // an arrow point from the runtime up to the scanner's commands. Both trees have a cli/ folder, so
  // a runtime include of cli/X is wrong whenever scanner/cli/X exists: it resolves there, or is
  // one search-path order away from doing so.
  std::vector<std::string> found;
  for (const Include& i : includes_under("runtime"))
    if (i.header.rfind("cli/", 0) == 0 && fs::exists(source_dir() / "scanner" / i.header))
      found.push_back(i.file + " includes " + i.header + ", a header of scanner/cli/");
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
}

TEST(Layering, TheReaderSeesIncludes) {
  // The check above is only as good as its reader: it must see the includes that are there.
  bool saw = false;
  for (const Include& i : includes_under("scanner/assess"))
    if (i.file == "scanner/assess/assess.cpp" && i.header == "assess/impact_resolution.h") saw = true;
  EXPECT_TRUE(saw);
  bool saw_runtime = false;
  for (const Include& i : includes_under("runtime"))
    if (i.file == "runtime/cli/audit_command.h" && i.header == "cli/smoke_command.h") saw_runtime = true;
  EXPECT_TRUE(saw_runtime);
}

}  // namespace
}  // namespace mpsready::testing
