// Checks each rule's data beyond what the loader enforces: docs have the fixed headings, the
// doc's Example triggers the rule and its Fix does not, tables are used, ids are well formed.
#include <gtest/gtest.h>

#include <map>

#include <re2/re2.h>

#include "support/minimal_elf.h"
#include "support/test_support.h"

namespace mpsready::testing {

namespace {

const std::vector<std::string> kHeadings = {"## What it flags", "## Why it matters on MPS", "## Example",
                                            "## Fix", "## When it is fine", "## References"};

struct CodeBlock {
  std::string file;  // where the block is written to be scanned
  std::string code;
};

// The fenced blocks after `heading`, before the next one: the first block, whose info string
// names the language (python, cuda, cpp) or, for files recognised by name, the file itself
// (```requirements.txt, ```Dockerfile); then every further block whose info string is a Python
// file's path (```pkg/kernels.py): an example about several files together names each of them.
std::vector<CodeBlock> code_blocks(const std::string& doc, const std::string& heading) {
  std::vector<CodeBlock> out;
  const size_t at = doc.find("\n" + heading + "\n");
  if (at == std::string::npos) return out;
  const size_t next_heading = doc.find("\n## ", at + heading.size() + 2);
  size_t from = at + 1;
  for (;;) {
    const size_t open = doc.find("\n```", from);
    if (open == std::string::npos || (next_heading != std::string::npos && open > next_heading)) return out;
    const size_t info_end = doc.find('\n', open + 4);
    if (info_end == std::string::npos) return out;
    const std::string info = doc.substr(open + 4, info_end - open - 4);
    const size_t close = doc.find("\n```", info_end);
    if (info.empty() || close == std::string::npos) return out;
    const std::string code = doc.substr(info_end + 1, close - info_end);
    from = close + 4;
    if (!out.empty()) {
      if (info.ends_with(".py")) out.push_back({info, code});
      continue;
    }
    const std::map<std::string, std::string> by_language = {
        {"python", "example.py"}, {"cuda", "example.cu"}, {"cu", "example.cu"}, {"cpp", "example.cpp"}};
    const auto it = by_language.find(info);
    out.push_back({it != by_language.end() ? it->second : info, code});
  }
}

// An extension binary's block is its dynamic section as `readelf -d` prints it; the library of
// each `(NEEDED)` line goes into a minimal shared object written in its place.
std::string block_bytes(const CodeBlock& block) {
  if (!block.file.ends_with(".so")) return block.code;
  std::vector<std::string> needed;
  std::string library;
  static const RE2 needed_line(R"(\(NEEDED\).*\[([^\]]+)\])");
  for (re2::StringPiece rest(block.code); RE2::FindAndConsume(&rest, needed_line, &library);) needed.push_back(library);
  return minimal_shared_object(needed);
}

size_t findings_of(const std::string& rule_id, const std::vector<CodeBlock>& blocks) {
  TempDir dir;
  for (const CodeBlock& block : blocks) dir.write(block.file, block_bytes(block));
  size_t count = 0;
  for (const auto& f : scan(dir.path(), {rule_id}).findings) count += f.rule == rule_id;
  return count;
}

}  // namespace

class RuleMetadata : public ::testing::TestWithParam<std::string> {
 protected:
  const Rule& rule() const { return *bundled_rules().find(GetParam()); }
};

TEST_P(RuleMetadata, IdIsKebabCaseWithLanguagePrefix) {
  EXPECT_TRUE(RE2::FullMatch(rule().id, "(py|cu|dep|bin|cy)-[a-z0-9]+(-[a-z0-9]+)*")) << rule().id;
  const std::map<std::string, std::string> prefix = {
      {"python", "py-"}, {"cpp", "cu-"}, {"deps", "dep-"}, {"binary", "bin-"}, {"cython", "cy-"}};
  ASSERT_TRUE(prefix.count(rule().language)) << rule().language;
  EXPECT_EQ(rule().id.rfind(prefix.at(rule().language), 0), 0u) << rule().id;
}

TEST_P(RuleMetadata, DocHasTheFixedHeadingsInOrder) {
  const std::string& doc = rule().doc;
  ASSERT_FALSE(doc.empty()) << "missing doc.md";
  EXPECT_EQ(doc.rfind("# " + rule().id, 0), 0u) << "doc.md must start with '# " << rule().id << "'";
  size_t last = 0;
  for (const auto& heading : kHeadings) {
    const size_t at = doc.find("\n" + heading + "\n");
    ASSERT_NE(at, std::string::npos) << "doc.md lacks " << heading;
    EXPECT_GT(at, last) << heading << " is out of order";
    last = at;
  }
}

TEST_P(RuleMetadata, DocExampleTriggersTheRuleAndFixDoesNot) {
  const std::vector<CodeBlock> example = code_blocks(rule().doc, "## Example");
  const std::vector<CodeBlock> fix = code_blocks(rule().doc, "## Fix");
  ASSERT_FALSE(example.empty() || example.front().code.empty()) << "no fenced block under ## Example";
  ASSERT_FALSE(fix.empty() || fix.front().code.empty()) << "no fenced block under ## Fix";
  EXPECT_GT(findings_of(rule().id, example), 0u) << "the Example does not trigger the rule:\n" << example.front().code;
  EXPECT_EQ(findings_of(rule().id, fix), 0u) << "the Fix still triggers the rule:\n" << fix.front().code;
}

// The prefilter skips a rule on a file that holds none of its needles, so a callee whose text
// holds no needle is missed wherever nothing else in the file happens to. Each part of a
// resolved name appears in the file (in the call or in the import that binds it), so one part
// holding a needle is enough. Matchers that test an argument may carry the needle there instead.
TEST_P(RuleMetadata, EveryNamedCalleeHoldsANeedle) {
  const Rule& r = rule();
  if (r.needles.empty()) return;  // parsed whenever its language is
  for (const MatcherSpec& m : r.matchers) {
    if ((m.kind != "python.call" && m.kind != "python.name") || m.params.contains("arg")) continue;
    std::vector<std::string> names;
    for (const char* key : {"callee", "names"}) {
      if (!m.params.contains(key)) continue;
      const auto& v = m.params[key];
      if (v.is_string()) names.push_back(v.get<std::string>());
      if (v.is_array())
        for (const auto& x : v)
          if (x.is_string()) names.push_back(x.get<std::string>());
    }
    for (const std::string& name : names) {
      bool covered = false;
      size_t start = 0;
      while (start <= name.size() && !covered) {
        size_t end = name.find('.', start);
        if (end == std::string::npos) end = name.size();
        const std::string part = name.substr(start, end - start);
        if (part.find('*') == std::string::npos)
          for (const std::string& needle : r.needles) covered = covered || part.find(needle) != std::string::npos;
        start = end + 1;
      }
      EXPECT_TRUE(covered) << m.kind << " `" << name << "`: no part of it holds a needle of " << r.id;
    }
  }
}

TEST_P(RuleMetadata, HasFixtureMessageAndFix) {
  EXPECT_FALSE(rule().fixture.empty()) << "missing fixture";
  EXPECT_GE(rule().message.size(), 20u);
  EXPECT_GE(rule().fix.size(), 20u);
}

std::vector<std::string> rule_ids() {
  std::vector<std::string> ids;
  for (const auto& r : bundled_rules().rules()) ids.push_back(r.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleMetadata, ::testing::ValuesIn(rule_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& c : name) if (c == '-') c = '_';
                           return name;
                         });

TEST(RuleSetMetadata, EveryTableIsUsedAndEveryRecordIsReachable) {
  const RuleSet& rules = bundled_rules();
  const auto tables_dir = rules_dir() / "tables";
  for (const auto& entry : fs::directory_iterator(tables_dir)) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().stem().string();
    bool used = false;
    for (const auto& r : rules.rules())
      for (const auto& m : r.matchers)
        used = used || (m.params.contains("table") && m.params["table"] == name);
    EXPECT_TRUE(used) << "table " << name << " is used by no rule";
    const Table* table = rules.table(name);
    ASSERT_NE(table, nullptr);
    EXPECT_FALSE(table->records.empty());
  }
}

TEST(RuleSetMetadata, CoversEveryCategoryTheScannerNeedsForPython) {
  std::set<std::string> categories;
  for (const auto& r : bundled_rules().rules()) categories.insert(r.category);
  for (const char* c : {"device-hardcode", "cuda-api", "amp", "stream", "distributed", "custom-extension",
                        "nvidia-library", "dtype", "compile", "memory", "environment"})
    EXPECT_TRUE(categories.count(c)) << "no rule in category " << c;
}

}  // namespace mpsready::testing
