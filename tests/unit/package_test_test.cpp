// Reading a test of whether a package is installed from its text (core/package_test.h).
#include <gtest/gtest.h>

#include "core/package_test.h"

namespace mpsready::testing {
namespace {

TEST(PackageTest, ReadsAvailabilityCallsOnALiteralName) {
  auto t = read_package_test("RequirementCache(\"transformer_engine>=0.11.0\")");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->package, "transformer_engine");
  EXPECT_FALSE(t->negated);
  t = read_package_test("not module_available('Torch-TensorRT[all]')");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->package, "torch_tensorrt");
  EXPECT_TRUE(t->negated);
  t = read_package_test("importlib.util.find_spec(\"apex\") is not None");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->package, "apex");
  EXPECT_FALSE(t->negated);
  t = read_package_test("importlib.util.find_spec(\"apex\") is None");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->negated);
  t = read_package_test("RequirementCache(\"torch_xla>=1.13\", \"torch_xla\")");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->package, "torch_xla");
}

TEST(PackageTest, OtherCallsAndNamesAreNoTest) {
  // A call that does not ask about availability, a name that is no literal, more than one call.
  EXPECT_FALSE(read_package_test("logging.getLogger(\"deepspeed\")"));
  EXPECT_FALSE(read_package_test("RequirementCache(name)"));
  EXPECT_FALSE(read_package_test("module_available(\"apex\") and torch.cuda.is_available()"));
  EXPECT_FALSE(read_package_test("_TE_AVAILABLE"));
}

TEST(PackageTest, NormalizesAsPipDoes) {
  EXPECT_EQ(normalized_package("Transformer-Engine[pytorch]>=1"), "transformer_engine");
  EXPECT_EQ(normalized_package("nvidia.dali"), "nvidia_dali");
  EXPECT_EQ(normalized_package(" flash-attn ; sys_platform == 'linux'"), "flash_attn");
}

}  // namespace
}  // namespace mpsready::testing
