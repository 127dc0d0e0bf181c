// python.query rules share one compiled tree-sitter query: each rule still gets only its own
// matches and its own predicates, errors name the rule at fault, and queries that tree-sitter's
// compiler would spend seconds on are refused before compiling.
#include <gtest/gtest.h>

#include "python/matchers/query_limits.h"
#include "support/rule_builder.h"

namespace mpsready::testing {

namespace {

std::string repeated(const std::string& piece, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += piece;
  return out;
}

const std::string kQueryMatcher = R"J({"kind": "python.query"})J";

std::string method_call_query(const std::string& method) {
  return "((call function: (attribute attribute: (identifier) @m) @callee) @finding\n (#eq? @m \"" + method + "\"))\n";
}

}  // namespace

TEST(QueryLimits, BundledQueriesAreWithinThem) {
  for (const auto& entry : fs::recursive_directory_iterator(rules_dir()))
    if (entry.path().filename() == "query.scm")
      EXPECT_EQ(check_query_limits(read_text(entry.path())), "") << entry.path();
}

TEST(QueryLimits, CountQuantifiersDepthPatternsAndSize) {
  const std::string twelve = "(block " + repeated("(_)? ", 12) + ") @finding";
  EXPECT_EQ(check_query_limits(twelve), "");
  EXPECT_EQ(check_query_limits("; comment\n\n(block " + repeated("(_)? ", 13) + ") @finding"),
            "line 3: a pattern with more than 12 quantifiers (?, *, +)");
  // Predicate names, capture names, strings and comments are not quantifiers.
  EXPECT_EQ(check_query_limits("((identifier) @a.b? @finding (#match? @a.b? \"x?y*z+\") (#not-eq? @a.b? \"?\"))"
                               " ; ?*+?*+?*+?*+?*+\n" + twelve),
            "");
  EXPECT_EQ(check_query_limits(repeated("(call " + repeated("(_)? ", 8) + ") ", 8) + "(call (_)?)"),
            "line 1: the query has more than 64 quantifiers (?, *, +)");
  EXPECT_EQ(check_query_limits(repeated("(call ", 17) + repeated(")", 17)),
            "line 1: patterns nested more than 16 levels deep");
  EXPECT_EQ(check_query_limits(repeated("(identifier) @finding\n", 65)),
            "line 65: the query has more than 64 patterns");
  EXPECT_EQ(check_query_limits(std::string(16 * 1024 + 1, ' ')),
            "the query has 16385 bytes, more than the 16384 a rule's query may have");
}

TEST(CombinedQuery, EachRuleGetsOnlyItsOwnMatches) {
  TempDir dir;
  add_rule(dir, "py-a", kQueryMatcher, "", method_call_query("cuda"));
  add_rule(dir, "py-b", kQueryMatcher, "", method_call_query("half"));
  // A third rule of another kind between them in the rule order.
  add_rule(dir, "py-a2", R"J({"kind": "python.call", "params": {"method": ["double"]}})J");
  const auto sites = scan_with_rules(dir, "import torch\nx.cuda()\ny.half()\nz.double()\nw.cuda().half()\n");
  std::vector<std::pair<std::string, int>> got;
  for (const Site& s : sites) got.emplace_back(s.rule, s.line);
  std::sort(got.begin(), got.end());
  const std::vector<std::pair<std::string, int>> want = {
      {"py-a", 2}, {"py-a", 5}, {"py-a2", 4}, {"py-b", 3}, {"py-b", 5}};
  EXPECT_EQ(got, want);
}

TEST(CombinedQuery, CompileErrorsNameTheRuleAndLine) {
  TempDir dir;
  add_rule(dir, "py-a", kQueryMatcher, "", method_call_query("cuda"));
  add_rule(dir, "py-b", kQueryMatcher, "", "; fine so far\n(call) @finding\n(call (nonexistent_node)) @finding\n");
  add_rule(dir, "py-c", kQueryMatcher, "", method_call_query("half"));
  const std::string error = load_error(dir);
  EXPECT_NE(error.find("py-b/query.scm:3: query does not compile against tree-sitter-python (unknown node type)"),
            std::string::npos) << error;

  TempDir unbalanced;  // an unclosed pattern would shift the blame onto the next rule's text
  add_rule(unbalanced, "py-a", kQueryMatcher, "", "(call @finding\n");
  add_rule(unbalanced, "py-b", kQueryMatcher, "", method_call_query("half"));
  const std::string unclosed = load_error(unbalanced);
  EXPECT_NE(unclosed.find("py-a/query.scm:"), std::string::npos) << unclosed;

  TempDir no_finding;  // @finding in another rule's query does not count
  add_rule(no_finding, "py-a", kQueryMatcher, "", method_call_query("cuda"));
  add_rule(no_finding, "py-b", kQueryMatcher, "", "(call) @callee\n");
  EXPECT_NE(load_error(no_finding).find("py-b/query.scm: the query must capture @finding"), std::string::npos);

  TempDir bad_predicate;
  add_rule(bad_predicate, "py-a", kQueryMatcher, "", method_call_query("cuda"));
  add_rule(bad_predicate, "py-b", kQueryMatcher, "", "(call) @finding\n((identifier) @finding (#frob? @finding))\n");
  EXPECT_NE(load_error(bad_predicate).find("py-b/query.scm: pattern 1: unknown predicate #frob?"), std::string::npos)
      << load_error(bad_predicate);

  // Unknown fields are caught before tree-sitter compiles the query (its compiler leaks on
  // them); field-like text in comments, strings and predicates is not a field.
  TempDir bad_field;
  add_rule(bad_field, "py-a", kQueryMatcher, "", method_call_query("cuda"));
  add_rule(bad_field, "py-b", kQueryMatcher, "",
           "; function: comment\n((call function: (_) @f) @finding (#eq? @f \"x: y\"))\n(call\n  fUnction : (_)) @finding\n");
  EXPECT_NE(load_error(bad_field).find(
                "py-b/query.scm:4: query does not compile against tree-sitter-python (unknown field \"fUnction\")"),
            std::string::npos)
      << load_error(bad_field);
  TempDir good_fields;
  add_rule(good_fields, "py-b", kQueryMatcher, "",
           "; fUnction: in a comment\n((call function: (_) @f arguments: (argument_list)) @finding (#eq? @f \"fUnction: x\"))\n");
  EXPECT_EQ(load_error(good_fields), "");
}

TEST(CombinedQuery, PathologicalQueriesAreRefusedBeforeCompiling) {
  // 60 optional wildcards under one parent: about 10 s in tree-sitter 0.20's query analysis.
  TempDir dir;
  add_rule(dir, "py-a", kQueryMatcher, "", "(block " + repeated("(_)? ", 60) + ") @finding\n");
  const std::string error = load_error(dir);
  EXPECT_NE(error.find("py-a/query.scm: line 1: a pattern with more than 12 quantifiers (?, *, +); "
                       "tree-sitter's query compiler would take too long on it"),
            std::string::npos) << error;
}

}  // namespace mpsready::testing
