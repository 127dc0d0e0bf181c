#include <gtest/gtest.h>

#include "engine/prefilter.h"
#include "support/rule_builder.h"

namespace mpsready::testing {

TEST(RuleLoading, ErrorsNameTheFileAndTheKey) {
  TempDir unknown_key;
  add_rule(unknown_key, "py-a", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J", R"J("colour": "red")J");
  EXPECT_NE(load_error(unknown_key).find("unknown key \"colour\""), std::string::npos);

  TempDir bad_category;
  bad_category.write("rules/python/py-a/rule.json", R"J({"id": "py-a"})J");
  EXPECT_NE(load_error(bad_category).find("missing required key \"title\""), std::string::npos);

  TempDir wrong_folder;
  add_rule(wrong_folder, "py-a", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  wrong_folder.write("rules/python/py-b/rule.json", read_text(wrong_folder.path() / "rules/python/py-a/rule.json"));
  EXPECT_NE(load_error(wrong_folder).find("differs from its folder name"), std::string::npos);

  TempDir bad_param;
  add_rule(bad_param, "py-a", R"J({"kind": "python.call", "params": {"methd": ["cuda"]}})J");
  EXPECT_NE(load_error(bad_param).find("unknown key \"methd\""), std::string::npos);

  TempDir bad_regex;
  add_rule(bad_regex, "py-a", R"J({"kind": "python.call", "params": {"method": ["to"], "arg": {"position": 0, "value": {"string": "(("}}}})J");
  EXPECT_NE(load_error(bad_regex).find("invalid regex"), std::string::npos);

  TempDir bad_kind;
  add_rule(bad_kind, "py-a", R"J({"kind": "python.magic"})J");
  EXPECT_NE(load_error(bad_kind).find("unknown matcher kind"), std::string::npos);

  TempDir bad_json;
  bad_json.write("rules/python/py-a/rule.json", "{ not json");
  EXPECT_NE(load_error(bad_json).find("not valid JSON"), std::string::npos);
}

TEST(RuleLoading, SelectAndIgnoreByIdOrPrefix) {
  TempDir dir;
  add_rule(dir, "py-cuda-a", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  add_rule(dir, "py-cuda-b", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  add_rule(dir, "py-other", R"J({"kind": "python.call", "params": {"method": ["cuda"]}})J");
  RuleSet rules = RuleSet::load(dir.path() / "rules");
  rules.restrict({"py-cuda-*"}, {"py-cuda-b"});
  ASSERT_EQ(rules.rules().size(), 1u);
  EXPECT_EQ(rules.rules()[0].id, "py-cuda-a");
  EXPECT_THROW(rules.restrict({"py-nope"}, {}), RuleError);
}

TEST(Prefilter, RulesRunOnlyWhereTheirNeedlesOccur) {
  const NeedleFilter filter({{"cuda"}, {"float64", "double"}, {"nccl"}});
  EXPECT_EQ(filter.active_rules("x = y.double()"), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(filter.active_rules("import torch\n"), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(filter.active_rules("cuda nccl"), (std::vector<bool>{true, false, true}));
}

}  // namespace mpsready::testing
