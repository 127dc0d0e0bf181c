// Every rule that declares rewrites: `mpsready fix` on its fixture.py gives its fixture.fixed.py
// byte for byte, and the fix's invariants hold. Adding "autofix" to a rule adds a test here.
#include <gtest/gtest.h>

#include "fixtures/fix_fixture_check.h"
#include "support/test_support.h"

namespace mpsready::testing {

class FixFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(FixFixture, RewritesToFixedFixture) {
  const FixFixtureReport report = check_fix_fixture(bundled_rules(), GetParam());
  std::string failures;
  for (const auto& f : report.failures) failures += "\n  " + f;
  std::cout << GetParam() << ": " << report.sites_fixed << " sites fixed\n";
  EXPECT_GT(report.sites_fixed, 0u);
  EXPECT_TRUE(report.passed()) << failures;
}

std::vector<std::string> rules_with_rewrites() {
  std::vector<std::string> ids;
  for (const auto& rule : bundled_rules().rules())
    if (rule_has_rewrites(rule)) ids.push_back(rule.id);
  return ids;
}

TEST(FixFixtures, TheBundledRulesDeclareRewrites) {
  // The device-agnostic rewrites of issue 19: .cuda(), device strings, the cuda-else-cpu idiom,
  // pin_memory, amp, the NCCL backend, torch.cuda calls.
  EXPECT_GE(rules_with_rewrites().size(), 7u);
}

TEST(FixFixtures, OnlyRulesWithRewritesHaveFixedFixtures) {
  for (const auto& rule : bundled_rules().rules()) {
    if (rule.fixture.empty() || std::filesystem::is_directory(rule.fixture)) continue;
    EXPECT_EQ(std::filesystem::exists(fixed_fixture_path(rule.fixture)), rule_has_rewrites(rule)) << rule.id;
  }
}

INSTANTIATE_TEST_SUITE_P(AllRules, FixFixture, ::testing::ValuesIn(rules_with_rewrites()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& c : name) if (c == '-') c = '_';
                           return name;
                         });

}  // namespace mpsready::testing
