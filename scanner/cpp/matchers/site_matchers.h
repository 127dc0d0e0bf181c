#pragma once
// Helpers shared by the matcher kinds that report Clang sites.
#include <re2/re2.h>

#include "cpp_file.h"
#include "matchers/whole_match_regex.h"
#include "rules/param_reader.h"

namespace mpsready {

inline CppRawMatch match_at(const CppFile& file, const ClangSite& site) {
  CppRawMatch m;
  m.start = file.offset(site.line, site.byte_column);
  m.end = std::max(m.start, file.offset(site.end_line, site.end_byte_column + 1));
  m.vars["name"] = site.name;
  m.vars["callee"] = site.name;
  return m;
}

inline std::vector<std::unique_ptr<WholeMatchRegex>> compile_regexes(const std::vector<std::string>& patterns,
                                                                     const ParamReader& reader) {
  std::vector<std::unique_ptr<WholeMatchRegex>> out;
  for (const auto& p : patterns) {
    auto re = std::make_unique<WholeMatchRegex>(p);
    if (!re->ok()) reader.fail("invalid regex \"" + p + "\": " + re->error());
    out.push_back(std::move(re));
  }
  return out;
}

// A regex from a rule's own list, or from a table record's field (then the record feeds the
// message).
struct RegexPattern {
  std::unique_ptr<WholeMatchRegex> regex;
  const TableRecord* record = nullptr;
};

// The regexes of param `list_key` plus, with a `table`, each record's `field` (param "field",
// default `default_field`).
inline std::vector<RegexPattern> load_regex_patterns(const ParamReader& reader, const RuleSet& rules,
                                                     const char* list_key, const std::string& default_field) {
  std::vector<RegexPattern> out;
  for (auto& re : compile_regexes(reader.strings(list_key), reader)) out.push_back({std::move(re), nullptr});
  const std::string field = reader.string("field", default_field);
  if (const Table* table = reader.table(rules)) {
    for (const auto& record : table->records) {
      const auto it = record.fields.find(field);
      if (it == record.fields.end()) continue;
      auto res = compile_regexes({it->second}, reader);
      out.push_back({std::move(res[0]), &record});
    }
  }
  if (out.empty())
    reader.fail(std::string("needs \"") + list_key + "\" or a \"table\" with \"" + field + "\" fields");
  return out;
}

// Index of the token starting at or after `offset`.
inline size_t token_at(const CppFile& file, uint32_t offset) {
  const auto it = std::lower_bound(file.tokens.begin(), file.tokens.end(), offset,
                                   [](const CppToken& t, uint32_t o) { return t.offset < o; });
  return static_cast<size_t>(it - file.tokens.begin());
}

}  // namespace mpsready
