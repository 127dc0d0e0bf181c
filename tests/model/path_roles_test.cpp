// The roles paths get by convention, before any manifest or configuration is read.
#include "model/path_roles.h"

#include <gtest/gtest.h>

namespace mpsready {
namespace {

TEST(PathRoles, FoldersNameTheirRole) {
  EXPECT_EQ(conventional_role("tests/test_model.py"), Role::tests);
  EXPECT_EQ(conventional_role("examples/tests/x.py"), Role::examples);  // the first folder decides
  EXPECT_EQ(conventional_role("third_party/cutlass/x.h"), Role::vendored);
  EXPECT_EQ(conventional_role("pkg/model.py"), Role::core);
}

// Experimental code a package ships beside its stable API, at any depth; names that only contain
// the words are core.
TEST(PathRoles, ExperimentalSubpackagesAreResearch) {
  EXPECT_EQ(conventional_role("pkg/dev/rl/workers.py"), Role::research);
  EXPECT_EQ(conventional_role("pkg/experimental/fused.py"), Role::research);
  EXPECT_EQ(conventional_role("src/pkg/prototype/quant.py"), Role::research);
  EXPECT_EQ(conventional_role("pkg/device.py"), Role::core);
  EXPECT_EQ(conventional_role("pkg/devices/cuda.py"), Role::core);
  EXPECT_EQ(conventional_role("pkg/experimental.py"), Role::core);
}

TEST(PathRoles, TestFilesAreTestsWherever) {
  EXPECT_EQ(conventional_role("test_model.py"), Role::tests);
  EXPECT_EQ(conventional_role("pkg/model_test.py"), Role::tests);
  EXPECT_EQ(conventional_role("conftest.py"), Role::tests);
  EXPECT_EQ(conventional_role("pkg/testament.py"), Role::core);
}

TEST(PathRoles, BenchmarkScriptsAtTheTopAreBenchmarks) {
  EXPECT_EQ(conventional_role("bench.py"), Role::benchmarks);
  EXPECT_EQ(conventional_role("benchmarks.py"), Role::benchmarks);
  EXPECT_EQ(conventional_role("bench_attention.py"), Role::benchmarks);
  EXPECT_EQ(conventional_role("attention_benchmark.py"), Role::benchmarks);
  // Names that only contain the word, and a package's own module of that name, are no benchmark.
  EXPECT_EQ(conventional_role("benchmarking_utils.py"), Role::core);
  EXPECT_EQ(conventional_role("workbench.py"), Role::core);
  EXPECT_EQ(conventional_role("pkg/benchmark.py"), Role::core);
  EXPECT_EQ(conventional_role("pkg/bench_utils.py"), Role::core);
}

}  // namespace
}  // namespace mpsready
