#include <gtest/gtest.h>

#include "core/verdict.h"

namespace mpsready {
namespace {
Finding make(const std::string& rule, Impact impact, int line, bool mechanical = true) {
  Finding f;
  f.rule = rule;
  f.category = "device-hardcode";
  f.impact = impact;
  f.path = "a.py";
  f.location.line = line;
  f.message = rule + " message";
  f.mechanical = mechanical;
  return f;
}
}  // namespace

TEST(Verdict, BlockerBeatsPortableBeatsInfo) {
  EXPECT_EQ(summarize({}).verdict, Verdict::mps_ready);
  EXPECT_EQ(summarize({make("py-i", Impact::info, 1)}).verdict, Verdict::mps_ready);
  EXPECT_EQ(summarize({make("py-p", Impact::portable, 1), make("py-i", Impact::info, 2)}).verdict,
            Verdict::partial);
  EXPECT_EQ(summarize({make("py-p", Impact::portable, 1), make("py-b", Impact::blocker, 2)}).verdict,
            Verdict::stay_on_linux);
}

TEST(Verdict, ReasonsAreTheDecidingFindingsGroupedByRule) {
  const Summary s = summarize({make("py-b", Impact::blocker, 1, false), make("py-p", Impact::portable, 2),
                               make("py-b", Impact::blocker, 3, false)});
  ASSERT_EQ(s.reasons.size(), 1u);
  EXPECT_EQ(s.reasons[0].rule, "py-b");
  EXPECT_EQ(s.reasons[0].count, 2u);
  EXPECT_EQ(s.reasons[0].locations, (std::vector<std::string>{"a.py:1", "a.py:3"}));
  EXPECT_EQ(s.effort.sites, 3u);
  EXPECT_EQ(s.effort.mechanical, 1u);
  EXPECT_EQ(s.effort.manual, 2u);
  EXPECT_EQ(s.by_impact.at("blocker"), 2u);
  EXPECT_EQ(s.by_category.at("device-hardcode"), 3u);
}

TEST(Verdict, NotebookLocationsNameTheCell) {
  Finding f = make("py-p", Impact::portable, 4);
  f.path = "nb.ipynb";
  f.location.cell = 2;
  EXPECT_EQ(location_label(f), "nb.ipynb:cell 2:4");
}

}  // namespace mpsready
