// Clang's per-file time limit: a limit of 0 s stops the parse at the first declaration, keeps the
// token-level findings and lists the file in `errors`; such a result is never cached.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace mpsready::testing {
namespace {

const char* kKernelFile =
    "#include <cublas_v2.h>\n"
    "__global__ void scale(float* x, int n) { x[0] *= 2; }\n"  // 2
    "void run(float* p) {\n"
    "  scale<<<1, 32>>>(p, 1);\n"                               // 4
    "  cudaDeviceSynchronize();\n"
    "}\n";

ScanResult scan_with_limit(const fs::path& root, double limit, const fs::path& cache = {}) {
  const Pipeline pipeline(bundled_rules(), "", limit);
  ScanOptions options;
  options.jobs = 1;
  if (!cache.empty()) {
    options.cache_dir = cache;
    options.cache_key = "k";
  }
  return pipeline.scan(root, options);
}

std::vector<std::string> lines_of(const ScanResult& r, const std::string& rule) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    if (f.rule == rule) out.push_back(std::to_string(f.location.line) + " " + f.mode);
  return out;
}

}  // namespace

TEST(ClangTimeLimit, ZeroStopsAtTheFirstDeclarationAndKeepsTokenFindings) {
  TempDir dir;
  dir.write("k.cu", kKernelFile);
  const ScanResult full = scan_with_limit(dir.path(), 10);
  EXPECT_EQ(lines_of(full, "cu-cuda-kernel"), (std::vector<std::string>{"2 tolerant"}));
  for (const auto& e : full.errors) EXPECT_EQ(e.reason.find("stopped"), std::string::npos) << e.reason;

  const ScanResult stopped = scan_with_limit(dir.path(), 0);
  // __global__ and <<< are found token by token.
  EXPECT_EQ(lines_of(stopped, "cu-cuda-kernel"), (std::vector<std::string>{"2 lexical"}));
  EXPECT_EQ(lines_of(stopped, "cu-kernel-launch"), (std::vector<std::string>{"4 lexical"}));
  bool listed = false;
  for (const auto& e : stopped.errors)
    if (e.path == "k.cu" && e.reason.find("Clang parse stopped after 0 s") != std::string::npos) listed = true;
  EXPECT_TRUE(listed);
}

TEST(ClangTimeLimit, AStoppedParseIsNotCached) {
  TempDir dir, cache;
  dir.write("k.cu", kKernelFile);
  dir.write("a.py", "import torch\nx = torch.zeros(1).cuda()\n");
  EXPECT_EQ(scan_with_limit(dir.path(), 0, cache.path()).cache_hits, 0u);
  // Only the Python file was kept; the CUDA file is parsed again.
  EXPECT_EQ(scan_with_limit(dir.path(), 0, cache.path()).cache_hits, 1u);
}

}  // namespace mpsready::testing
