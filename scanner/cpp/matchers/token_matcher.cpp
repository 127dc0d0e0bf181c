// cpp.token: token sequences, written as space-separated elements: a spelling (`at :: cuda ::`),
// `/regex/` (RE2, whole token), `*` (any one token) and `...` (up to 32 tokens, not crossing
// `;`, `{` or `}`). Needs no headers and survives parse errors; comments never match.
#include <re2/re2.h>

#include "matchers/cpp_matchers.h"
#include "matchers/site_matchers.h"
#include "matchers/whole_match_regex.h"

namespace mpsready {
namespace {

constexpr size_t kMaxGap = 32;

struct Element {
  enum class Kind { literal, regex, any, gap } kind = Kind::literal;
  std::string text;
  std::unique_ptr<WholeMatchRegex> regex;
};

struct Sequence {
  std::vector<Element> elements;
  const TableRecord* record = nullptr;
};

Sequence parse_sequence(const std::string& pattern, const ParamReader& reader) {
  Sequence seq;
  size_t i = 0;
  while (i < pattern.size()) {
    while (i < pattern.size() && pattern[i] == ' ') ++i;
    if (i >= pattern.size()) break;
    size_t end = pattern.find(' ', i);
    if (pattern[i] == '/') {  // a regex may contain spaces only escaped; it ends at "/ " or "/"
      end = pattern.find('/', i + 1);
      if (end == std::string::npos) reader.fail("unterminated /regex/ in \"" + pattern + "\"");
      ++end;
    }
    if (end == std::string::npos) end = pattern.size();
    const std::string word = pattern.substr(i, end - i);
    Element e;
    if (word == "*") e.kind = Element::Kind::any;
    else if (word == "...") e.kind = Element::Kind::gap;
    else if (word.size() >= 2 && word.front() == '/' && word.back() == '/') {
      e.kind = Element::Kind::regex;
      e.regex = std::make_unique<WholeMatchRegex>(word.substr(1, word.size() - 2));
      if (!e.regex->ok()) reader.fail("invalid regex " + word + ": " + e.regex->error());
    } else {
      e.text = word;
    }
    seq.elements.push_back(std::move(e));
    i = end;
  }
  if (seq.elements.empty()) reader.fail("empty token pattern");
  const auto first = seq.elements.front().kind;
  if (first == Element::Kind::any || first == Element::Kind::gap)
    reader.fail("a token pattern must start with a spelling or a /regex/: \"" + pattern + "\"");
  return seq;
}

bool element_matches(const Element& e, const CppToken& t) {
  switch (e.kind) {
    case Element::Kind::literal: return t.spelling == e.text;
    case Element::Kind::regex: return e.regex->full_match(t.spelling);
    default: return true;
  }
}

// Matches elements[k..] from token i; returns the index after the last matched token, or 0.
// Recursion is bounded by the pattern's length (rule data), never by the input.
size_t match_from(const Sequence& seq, size_t k, const std::vector<CppToken>& tokens, size_t i) {
  if (k == seq.elements.size()) return i;
  if (i >= tokens.size()) return 0;
  const Element& e = seq.elements[k];
  if (e.kind == Element::Kind::gap) {
    for (size_t skip = 0; skip <= kMaxGap && i + skip < tokens.size(); ++skip) {
      if (const size_t end = match_from(seq, k + 1, tokens, i + skip)) return end;
      const auto s = tokens[i + skip].spelling;
      if (s == ";" || s == "{" || s == "}") break;
    }
    return 0;
  }
  if (!element_matches(e, tokens[i])) return 0;
  return match_from(seq, k + 1, tokens, i + 1);
}

class TokenMatcher final : public CppMatcher {
 public:
  TokenMatcher(const nlohmann::json& params, const Rule& rule, const RuleSet* rules) {
    const ParamReader reader(params, rule, "cpp.token");
    reader.allow_only({"patterns", "table", "field"});
    for (const auto& p : reader.strings("patterns")) sequences_.push_back(parse_sequence(p, reader));
    const std::string field = reader.string("field", "tokens");
    if (rules) {
      if (const Table* table = reader.table(*rules)) {
        for (const auto& record : table->records) {
          const auto it = record.fields.find(field);
          if (it == record.fields.end()) continue;
          Sequence seq = parse_sequence(it->second, reader);
          seq.record = &record;
          sequences_.push_back(std::move(seq));
        }
      }
    }
    if (sequences_.empty()) reader.fail("needs \"patterns\" or a \"table\" with \"" + field + "\" fields");
  }

  void match(const CppFile& file, std::vector<CppRawMatch>& out) const override {
    const auto& tokens = file.tokens;
    for (size_t i = 0; i < tokens.size(); ++i) {
      for (const Sequence& seq : sequences_) {
        if (!element_matches(seq.elements.front(), tokens[i])) continue;
        const size_t end = match_from(seq, 1, tokens, i + 1);
        if (!end) continue;
        CppRawMatch m;
        m.start = tokens[i].offset;
        m.end = tokens[end - 1].offset + static_cast<uint32_t>(tokens[end - 1].spelling.size());
        // The matched text, as written (`at::cuda::getCurrentCUDAStream`), names the finding.
        std::string name(file.text->text().substr(m.start, std::min<uint32_t>(m.end - m.start, 80)));
        std::erase_if(name, [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; });
        m.vars["name"] = m.vars["callee"] = name;
        m.record = seq.record;
        out.push_back(std::move(m));
        break;  // one finding per starting token
      }
    }
  }

 private:
  std::vector<Sequence> sequences_;
};

}  // namespace

std::unique_ptr<CppMatcher> make_cpp_token_matcher(const nlohmann::json& params, const Rule& rule, const RuleSet& rules) {
  return std::make_unique<TokenMatcher>(params, rule, &rules);
}

}  // namespace mpsready
