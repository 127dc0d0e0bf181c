// Every rule's annotated fixture, scanned with only that rule enabled. Adding a rule folder adds
// a test here; nothing is listed by hand.
#include <gtest/gtest.h>

#include "fixtures/fixture_check.h"
#include "support/test_support.h"

namespace mpsready::testing {

class RuleFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleFixture, MatchesItsAnnotations) {
  const FixtureReport report = check_fixture(bundled_rules(), GetParam());
  std::string failures;
  for (const auto& f : report.failures) failures += "\n  " + f;
  RecordProperty("true_positives", report.true_positives);
  RecordProperty("false_positives", report.false_positives);
  RecordProperty("false_negatives", report.false_negatives);
  std::cout << GetParam() << ": TP " << report.true_positives << ", FP " << report.false_positives
            << ", FN " << report.false_negatives << ", known FP " << report.todo_false_positives
            << ", known FN " << report.todo_false_negatives << "\n";
  EXPECT_TRUE(report.passed()) << failures;
}

std::vector<std::string> all_rule_ids() {
  std::vector<std::string> ids;
  for (const auto& rule : bundled_rules().rules()) ids.push_back(rule.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleFixture, ::testing::ValuesIn(all_rule_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& c : name) if (c == '-') c = '_';
                           return name;
                         });

}  // namespace mpsready::testing
