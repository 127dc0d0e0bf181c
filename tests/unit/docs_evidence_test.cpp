// What the README and docs say about CUDA, Linux and MPS, line by line: each shape with lines that
// must be read as evidence and lines of the same look that must not.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "docs/docs_frontend.h"

namespace mpsready::testing {
namespace {

// (line, kind) for every evidence entry of `text` read as README.rst.
std::vector<std::pair<int, std::string>> evidence(const std::string& text) {
  std::vector<std::pair<int, std::string>> out;
  for (const EvidenceFact& e : scan_docs_evidence("README.rst", text)) out.emplace_back(e.line, e.kind);
  return out;
}

}  // namespace

TEST(DocsEvidence, RequirementEntriesNameCudaAndLinux) {
  const std::string text =
      "* **OS:** Linux (official), WSL2 (limited support)\n"        // 1 linux only
      "  * CUDA: 12.1+ (Hopper/Ada/Ampere), 12.8+ (Blackwell)\n"    // 2 requires CUDA
      "- CUDA >= 11.8\n"                                            // 3 requires CUDA
      "CUDA 11.8 or newer\n"                                        // 4 requires CUDA
      "Operating system: Linux\n"                                   // 5 linux only
      "* **OS:** Linux, macOS (Apple Silicon)\n"                    // 6 names a Mac: no Linux-only entry (MPS prose)
      "Platform: linux or darwin\n"                                 // 7 names a Mac: nothing
      "We tested with CUDA 11.8 and on Apple M2 chips.\n"           // 8 no entry: prose about a test (MPS prose)
      "OS-level caching on Linux speeds this up.\n"                 // 9 no entry
      "cuda: 0.5 of the memory\n";                                  // 10 no version entry
  EXPECT_EQ(evidence(text), (std::vector<std::pair<int, std::string>>{{1, "docs-linux-only"},
                                                                       {2, "docs-requires-cuda"},
                                                                       {3, "docs-requires-cuda"},
                                                                       {4, "docs-requires-cuda"},
                                                                       {5, "docs-linux-only"},
                                                                       {6, "docs-mps"},
                                                                       {8, "docs-mps"}}));
}

TEST(DocsEvidence, ProseRequirementStillReads) {
  EXPECT_EQ(evidence("This package requires an NVIDIA GPU with CUDA.\n"),
            (std::vector<std::pair<int, std::string>>{{1, "docs-requires-cuda"}}));
  EXPECT_EQ(evidence("Runs on Apple Silicon through MPS.\n"), (std::vector<std::pair<int, std::string>>{{1, "docs-mps"}}));
}

}  // namespace mpsready::testing
