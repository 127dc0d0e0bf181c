#include "cython/cython_frontend.h"

#include <algorithm>

#include "core/source_text.h"
#include "cython/cython_tokens.h"
#include "engine/repo_walker.h"
#include "model/extension_sources.h"
#include "rules/message_template.h"
#include "rules/param_reader.h"

namespace mpsready {
namespace {

constexpr size_t kMaxSnippetBytes = 240;

std::vector<CompiledCythonRule> compile_rules(const RuleSet& rules) {
  std::vector<CompiledCythonRule> out;
  for (const Rule& rule : rules.rules()) {
    if (rule.language != "cython") continue;
    CompiledCythonRule compiled{&rule, {}};
    for (const MatcherSpec& spec : rule.matchers) {
      const ParamReader reader(spec.params, rule, spec.kind);
      CompiledCythonMatcher m;
      const char* key = "names";
      if (spec.kind == "cython.call") m.kind = CompiledCythonMatcher::Kind::call, key = "names";
      else if (spec.kind == "cython.extern") m.kind = CompiledCythonMatcher::Kind::extern_header, key = "headers";
      else if (spec.kind == "cython.cimport") m.kind = CompiledCythonMatcher::Kind::cimport, key = "modules";
      else reader.fail("is not a matcher kind of language cython (cython.call, cython.extern, cython.cimport)");
      reader.allow_only({key});
      for (const std::string& pattern : reader.strings(key)) {
        auto re = std::make_unique<WholeMatchRegex>(pattern);
        if (!re->ok()) reader.fail(std::string("\"") + key + "\" holds an invalid regex: " + re->error());
        m.patterns.push_back(std::move(re));
      }
      if (m.patterns.empty()) reader.fail(std::string("\"") + key + "\" must hold at least one regex");
      compiled.matchers.push_back(std::move(m));
    }
    out.push_back(std::move(compiled));
  }
  return out;
}

std::vector<std::vector<std::string>> needles_of(const std::vector<CompiledCythonRule>& rules) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rules) out.push_back(r.rule->needles);
  return out;
}

bool any_match(const CompiledCythonMatcher& m, std::string_view text) {
  return std::any_of(m.patterns.begin(), m.patterns.end(), [&](const auto& re) { return re->full_match(text); });
}

// A site: where it is and what it names.
struct Site {
  uint32_t start, end;
  std::string name;
};

// Whether token `k` exists, is of `kind` and is spelled `spelling` (a string's text never counts
// as punctuation or a keyword).
bool is(const std::vector<CythonToken>& t, size_t k, CythonToken::Kind kind, std::string_view spelling) {
  return k < t.size() && t[k].kind == kind && t[k].spelling == spelling;
}

// The dotted module after `cimport` or between `from` and `cimport`, starting at token `i`.
std::string dotted_at(const std::vector<CythonToken>& t, size_t i, size_t& end) {
  std::string out;
  end = i;
  while (end < t.size() && t[end].kind == CythonToken::Kind::name) {
    out += t[end].spelling;
    if (is(t, end + 1, CythonToken::Kind::other, ".") && end + 2 < t.size() &&
        t[end + 2].kind == CythonToken::Kind::name) {
      out += '.';
      end += 2;
      continue;
    }
    ++end;
    break;
  }
  return out;
}

void find_sites(const CompiledCythonMatcher& m, const std::vector<CythonToken>& t, std::vector<Site>& out) {
  using K = CythonToken::Kind;
  for (size_t i = 0; i < t.size(); ++i) {
    switch (m.kind) {
      case CompiledCythonMatcher::Kind::call:
        // `cudart.cudaMalloc(n)` (CUDA Python) counts as much as `cudaMalloc(&p, n)`.
        if (t[i].kind == K::name && is(t, i + 1, K::other, "(") && any_match(m, t[i].spelling))
          out.push_back({t[i].offset, t[i].end, std::string(t[i].spelling)});
        break;
      case CompiledCythonMatcher::Kind::extern_header:
        if (is(t, i, K::name, "extern") && is(t, i + 1, K::name, "from") && i + 2 < t.size() &&
            t[i + 2].kind == K::string && any_match(m, t[i + 2].spelling)) {
          const uint32_t start = i > 0 && is(t, i - 1, K::name, "cdef") ? t[i - 1].offset : t[i].offset;
          out.push_back({start, t[i + 2].end, std::string(t[i + 2].spelling)});
        }
        break;
      case CompiledCythonMatcher::Kind::cimport: {
        if (t[i].kind != K::name) break;
        size_t end = 0;
        if (t[i].spelling == "cimport") {
          // `cimport a.b, c`: each module of the list.
          size_t j = i + 1;
          while (j < t.size()) {
            const std::string module = dotted_at(t, j, end);
            if (module.empty()) break;
            if (any_match(m, module)) out.push_back({t[i].offset, t[end - 1].end, module});
            if (is(t, end, K::name, "as")) end += 2;
            if (is(t, end, K::other, ",")) j = end + 1;
            else break;
          }
        } else if (t[i].spelling == "from") {
          const std::string module = dotted_at(t, i + 1, end);
          if (!module.empty() && is(t, end, K::name, "cimport") && any_match(m, module))
            out.push_back({t[i].offset, t[end].end, module});
        }
        break;
      }
    }
  }
}

class CythonWorker final : public FrontendWorker {
 public:
  explicit CythonWorker(const CythonFrontend& frontend) : frontend_(frontend) {}

  void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) override {
    const SourceText text{std::string(bytes)};
    out.scanned = true;
    const std::vector<bool> active = frontend_.filter().active_rules(text.text());
    if (std::find(active.begin(), active.end(), true) == active.end()) return;
    out.parsed = true;
    const std::vector<CythonToken> tokens = lex_cython(text.text());
    int first_line = 0;
    for (size_t r = 0; r < frontend_.rules().size(); ++r) {
      if (!active[r]) continue;
      const CompiledCythonRule& compiled = frontend_.rules()[r];
      std::vector<Site> sites;
      for (const CompiledCythonMatcher& m : compiled.matchers) find_sites(m, tokens, sites);
      std::sort(sites.begin(), sites.end(), [](const Site& a, const Site& b) { return a.start < b.start; });
      std::vector<int> lines;  // one finding per rule and line
      for (const Site& s : sites) {
        const LineColumn b = text.position(s.start), e = text.position(s.end);
        if (std::find(lines.begin(), lines.end(), b.line) != lines.end()) continue;
        lines.push_back(b.line);
        const Rule& rule = *compiled.rule;
        const std::map<std::string, std::string> vars = {{"name", s.name}};
        Finding f;
        f.rule = rule.id;
        f.category = rule.category;
        f.path = file.path;
        f.mechanical = rule.mechanical;
        f.mode = "lexical";
        f.message = fill_template(rule.message, vars);
        f.fix = fill_template(rule.fix, vars);
        f.location = {b.line, b.column, e.line, e.column, 0};
        f.start_byte = s.start;
        f.end_byte = s.end;
        f.snippet = shorten_utf8(text.line(b.line), kMaxSnippetBytes);
        out.findings.push_back(std::move(f));
        if (!first_line || b.line < first_line) first_line = b.line;
      }
    }
    // A .pyx file is compiled into the module its path names; a .pxd or .pxi file is only read
    // by the .pyx files that cimport or include it.
    if (!first_line || !file.path.ends_with(".pyx")) return;
    ExtensionFact ext;
    ext.path = file.path;
    ext.line = first_line;
    ext.name = extension_module_of_file(file.path);
    ext.cuda = true;
    ext.sources = {file.path};
    out.facts.extensions.push_back(std::move(ext));
  }

 private:
  const CythonFrontend& frontend_;
};

}  // namespace

CythonFrontend::CythonFrontend(const RuleSet& rules) : rules_(compile_rules(rules)), filter_(needles_of(rules_)) {}

bool CythonFrontend::wants(std::string_view path) const {
  return !rules_.empty() && (path.ends_with(".pyx") || path.ends_with(".pxd") || path.ends_with(".pxi"));
}

std::unique_ptr<FrontendWorker> CythonFrontend::make_worker() const { return std::make_unique<CythonWorker>(*this); }

}  // namespace mpsready
