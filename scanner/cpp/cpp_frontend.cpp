#include "cpp_frontend.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iterator>
#include <map>

#include "clang_parse.h"
#include "cpp_guards.h"
#include "cpu_coverage.h"
#include "core/source_text.h"
#include "core/source_kinds.h"
#include "engine/open_beneath.h"
#include "engine/repo_walker.h"
#include "macro_growth.h"
#include "rules/message_template.h"
#include "token_scanner.h"

namespace mpsready {
namespace {

constexpr size_t kMaxSnippetBytes = 240;
constexpr std::string_view kLinkageNeedles[] = {"TORCH_LIBRARY", "PYBIND11_MODULE", "WITH_CUDA", "is_cuda", "_IMPL("};
// Clang's cost grows faster than a file's size on machine-generated sources; past this only the
// token-level matchers run (kernels, launches, calls and asm have token-level fallbacks).
constexpr size_t kMaxClangBytes = 2u << 20;

// The text with every backslash-newline removed (translation phase 2 of C and C++).
std::string without_line_splices(std::string_view text) {
  std::string out;
  if (text.find('\\') == std::string_view::npos) return std::string(text);
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      size_t next = i + 1;
      if (next < text.size() && text[next] == '\r') ++next;
      if (next < text.size() && text[next] == '\n') {
        i = next;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// "10", "0.5": the limit as a user would have typed it.
std::string format_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", seconds);
  return buffer;
}

bool is_header(std::string_view path) {
  return path.ends_with(".h") || path.ends_with(".hpp") || path.ends_with(".cuh");
}

// The header an `#include` line names, or empty.
std::string_view included_header(const std::vector<CppToken>& tokens, size_t hash, std::string_view text) {
  if (hash + 1 >= tokens.size() || tokens[hash + 1].spelling != "include") return {};
  const size_t from = tokens[hash + 1].offset + tokens[hash + 1].spelling.size();
  const size_t eol = std::min(text.find('\n', from), text.size());
  std::string_view rest = text.substr(from, eol - from);
  const size_t open = rest.find_first_of("<\"");
  if (open == std::string_view::npos) return {};
  const size_t close = rest.find_first_of(">\"", open + 1);
  if (close == std::string_view::npos) return {};
  return rest.substr(open + 1, close - open - 1);
}

// A LibTorch application's source rather than an extension's (see CppFile).
bool is_libtorch_application(const CppFile& cpp) {
  if (cpp.cuda) return false;
  const std::string_view text = cpp.text->text();
  bool front_end = false;
  const auto& tokens = cpp.tokens;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view s = tokens[i].spelling;
    if (s == "PYBIND11_MODULE" || s == "TORCH_LIBRARY" || s == "TORCH_LIBRARY_FRAGMENT" || s == "TORCH_LIBRARY_IMPL" ||
        s == "TORCH_EXTENSION_NAME" || s == "__global__" || s == "__device__" || s == "<<<")
      return false;
    if (tokens[i].starts_directive) {
      const std::string_view header = included_header(tokens, i, text);
      if (header == "torch/extension.h") return false;
      if (header == "torch/torch.h" || header == "torch/script.h") front_end = true;
    }
    if (s == "main" && i > 0 && tokens[i - 1].spelling == "int" && i + 1 < tokens.size() && tokens[i + 1].spelling == "(")
      front_end = true;
  }
  return front_end;
}

std::vector<CompiledCppRule> compile_rules(const RuleSet& rules) {
  std::vector<CompiledCppRule> out;
  for (const Rule& rule : rules.rules()) {
    if (rule.language != "cpp") continue;
    CompiledCppRule compiled{&rule, {}};
    for (const MatcherSpec& spec : rule.matchers) {
      try {
        compiled.matchers.push_back(compile_cpp_matcher(spec, rule, rules));
      } catch (const nlohmann::json::exception& e) {
        throw RuleError(rule.dir.string() + "/rule.json: " + spec.kind + " params have a value of the wrong type (" +
                        e.what() + ")");
      }
    }
    out.push_back(std::move(compiled));
  }
  return out;
}

std::vector<std::vector<std::string>> needles_of(const std::vector<CompiledCppRule>& rules) {
  std::vector<std::vector<std::string>> out;
  for (const auto& r : rules) out.push_back(r.rule->needles);
  return out;
}

class CppWorker final : public FrontendWorker {
 public:
  explicit CppWorker(const CppFrontend& frontend) : frontend_(frontend) {}

  void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) override {
    const SourceText text{std::string(bytes)};
    out.scanned = true;
    if (const auto bad = text.first_invalid_utf8())
      out.errors.push_back({file.path, "not valid UTF-8 (first invalid byte at offset " + std::to_string(*bad) +
                                           "); invalid bytes were read as '?'"});
    // Objective-C++ (`.mm`, an extension's Metal kernels) is no rule's and not Clang's: only
    // the operators it registers are read, token by token, for the extension linkage and the
    // MPS evidence.
    if (file.path.ends_with(".mm")) {
      if (std::any_of(std::begin(kLinkageNeedles), std::end(kLinkageNeedles),
                      [&](std::string_view needle) { return text.text().find(needle) != std::string_view::npos; })) {
        const std::vector<CppToken> tokens = lex_cpp(text.text(), false);
        add_unit(out, unit_fact(file.path, tokens, text.text(), find_cuda_guards(tokens, text.text()), nullptr));
      }
      return;
    }
    // A file nvcc compiles as CUDA by its name is read by every rule, whatever it holds: a kernel
    // spelled `__attribute__((global))` or made by a macro holds no needle, and the AST finds it.
    const bool cuda_file = file.path.ends_with(".cu") || file.path.ends_with(".cuh");
    // The compiler removes backslash-newline splices before it tokenizes (`__glo\` + newline +
    // `bal__` is `__global__`): the needles are looked for in the spliced text.
    const std::string spliced = without_line_splices(text.text());
    std::vector<bool> active = frontend_.filter().active_rules(spliced);
    if (cuda_file) std::fill(active.begin(), active.end(), true);
    // Files that register or implement an extension's operators give the linkage facts even
    // when no rule looks at them.
    const bool registers_ops = std::any_of(
        std::begin(kLinkageNeedles), std::end(kLinkageNeedles),
        [&](std::string_view needle) { return text.text().find(needle) != std::string_view::npos; });
    const bool any_rule = std::find(active.begin(), active.end(), true) != active.end();
    if (!any_rule && !registers_ops) return;
    if (!any_rule) {  // only the facts the extension linkage needs: a lexical pass is enough
      const std::vector<CppToken> tokens = lex_cpp(text.text(), false);
      add_unit(out, unit_fact(file.path, tokens, text.text(), find_cuda_guards(tokens, text.text()), nullptr));
      return;
    }
    out.parsed = true;

    CppFile cpp;
    cpp.path = file.path;
    cpp.text = &text;
    const bool cuda_syntax = spliced.find("__global__") != std::string::npos ||
                             spliced.find("__device__") != std::string::npos || spliced.find("<<<") != std::string::npos;
    cpp.cuda = cuda_file || (is_header(file.path) && cuda_syntax);
    cpp.tokens = lex_cpp(text.text(), cpp.cuda);
    cpp.libtorch_application = is_libtorch_application(cpp);
    const CppGuards guards = find_cuda_guards(cpp.tokens, text.text());
    std::optional<std::vector<std::string>> args;
    std::string absolute = file.absolute.string();
    const CompileCommands* db = frontend_.database();
    if (db) {
      absolute = db->absolute(file.path);  // on the canonical root, however the root was named
      if (std::optional<CompileFlags> flags = db->args_for(absolute)) {
        if (!flags->dropped.empty()) out.errors.push_back({file.path, describe_dropped_flags(flags->dropped)});
        args = std::move(flags->args);
      }
    }
    if (text.text().size() > kMaxClangBytes) {
      cpp.clang.mode = "lexical";
      out.errors.push_back({file.path, "larger than " + std::to_string(kMaxClangBytes >> 20) +
                                           " MiB: read token by token only, without Clang"});
    } else if (estimated_expansion(cpp.tokens, text.text()) > kMaxEstimatedExpansion) {
      cpp.clang.mode = "lexical";
      out.errors.push_back({file.path, "its macros would expand to more than " + std::to_string(kMaxEstimatedExpansion) +
                                           " tokens (a macro bomb?): read token by token only, without Clang"});
    } else {
      cpp.clang = parser_.parse(file.path, absolute, text.text(), cpp.cuda, args ? &*args : nullptr,
                                frontend_.clang_time_limit(), db ? db->root() : std::filesystem::path());
      if (cpp.clang.stopped) {
        // Token-level matchers still see the whole file; the AST ones saw nothing.
        cpp.clang.mode = "lexical";
        out.cacheable = false;  // a later scan, on a quieter machine, may finish the parse
        if (cpp.clang.stop_reason == ClangStop::macro_expansions)
          out.errors.push_back({file.path, "Clang parse stopped: its macros expand more than " +
                                               std::to_string(kMaxMacroExpansions) +
                                               " times (a macro bomb?): read token by token only"});
        else
          out.errors.push_back({file.path, "Clang parse stopped after " + format_seconds(frontend_.clang_time_limit()) +
                                               " s (--clang-time-limit): read token by token only"});
      } else if (cpp.clang.errors > 0 || !cpp.clang.ran) {
        out.errors.push_back({file.path, describe_parse(cpp.clang)});
      }
    }
    add_unit(out, unit_fact(file.path, cpp.tokens, text.text(), guards, &cpp.clang));

    std::vector<Finding> findings;
    // Every site of a rule (before one finding per line is kept), for the rules it supersedes.
    std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> spans;
    for (size_t i = 0; i < frontend_.rules().size(); ++i) {
      if (!active[i]) continue;
      const CompiledCppRule& compiled = frontend_.rules()[i];
      std::vector<CppRawMatch> raw;
      for (const auto& matcher : compiled.matchers) matcher->match(cpp, raw);
      std::vector<int> lines;  // one finding per rule and line: AST and tokens often see the same site
      const Rule& rule = *compiled.rule;
      for (CppRawMatch& m : raw) {
        spans[rule.id].emplace_back(m.start, std::max(m.start, m.end));
        // The check of a runtime guard (`if (torch::cuda::is_available())`) is never a finding.
        if (guards.is_check(m.start, m.end)) continue;
        const bool guarded = rule.when_guarded != WhenGuarded::keep && guards.protects(m.start);
        if (guarded && rule.when_guarded == WhenGuarded::drop) continue;
        Finding f = make_finding(rule, m, cpp, guarded);
        if (std::find(lines.begin(), lines.end(), f.location.line) != lines.end()) continue;
        lines.push_back(f.location.line);
        findings.push_back(std::move(f));
      }
    }
    drop_superseded(findings, spans);
    std::move(findings.begin(), findings.end(), std::back_inserter(out.findings));
  }

 private:
  // Keeps a file's unit fact, and reports each operator it implements for MPS as evidence: an
  // extension that registers MPS kernels already runs some of its ops on a Mac.
  // At most three entries per file, as for every kind of evidence.
  static void add_unit(FileOutcome& out, CppUnitFact unit) {
    constexpr size_t kPerFile = 3;
    size_t kept = 0;
    for (const CppDeviceImplFact& impl : unit.device_impls)
      if (impl.device == "MPS" && kept++ < kPerFile)
        out.facts.evidence.push_back({unit.path, impl.line, 0, "mps-kernel", impl.key + " registered for MPS (" + impl.function + ")"});
    for (const CppOpFact& op : unit.ops)
      if (op.key == "MPS" && kept++ < kPerFile)
        out.facts.evidence.push_back({unit.path, op.line, 0, "mps-kernel", op.name + " registered for MPS"});
    out.facts.cpp_units.push_back(std::move(unit));
  }

  // Whether the file holds CUDA code, whether it registers CPU kernels
  // (`TORCH_LIBRARY_IMPL(ns, CPU, m)`, `REGISTER_DEVICE_IMPL(key, CPU, fn)`), and the operators and functions it offers a CPU build,
  // for the extension linkage.
  static CppUnitFact unit_fact(const std::string& path, const std::vector<CppToken>& tokens, std::string_view text,
                               const CppGuards& guards, const ClangParseResult* clang) {
    CppUnitFact fact;
    fact.path = path;
    CpuCoverage coverage = read_cpu_coverage(tokens, text, guards);
    fact.ops = std::move(coverage.ops);
    fact.functions = std::move(coverage.functions);
    fact.device_impls = std::move(coverage.device_impls);
    for (const CppDeviceImplFact& impl : fact.device_impls)
      if (impl.device == "CPU" && !impl.cuda_only) fact.cpu_registration = true;
    if (clang) fact.cuda_code = !clang->kernels.empty() || !clang->launches.empty();
    for (size_t i = 0; i + 4 < tokens.size(); ++i) {
      if (tokens[i].spelling == "TORCH_LIBRARY_IMPL" && tokens[i + 1].spelling == "(" &&
          tokens[i + 3].spelling == "," && tokens[i + 4].spelling == "CPU")
        fact.cpu_registration = true;
    }
    return fact;
  }

  static std::string describe_parse(const ClangParseResult& r) {
    if (!r.ran) return "C++ front end could not run: " + r.failure;
    std::string text = std::to_string(r.errors) + " parse error" + (r.errors == 1 ? "" : "s");
    if (r.first_error_line) text += " (first at line " + std::to_string(r.first_error_line) + ")";
    text += " in " + r.mode + " mode; findings in the rest of the file are still reported";
    if (r.mode == "tolerant" && !r.unresolved_includes.empty()) {
      text += "; not resolved:";
      for (size_t i = 0; i < r.unresolved_includes.size() && i < 6; ++i) text += " " + r.unresolved_includes[i];
      if (r.unresolved_includes.size() > 6) text += " and " + std::to_string(r.unresolved_includes.size() - 6) + " more";
    }
    return text;
  }

  // A finding of a rule that an enabled rule supersedes (`supersedes` in rule.json) is dropped
  // when one of that rule's sites covers it: `at::cuda::getCurrentCUDAStream()` is a stream, not
  // also a generic ATen CUDA API.
  void drop_superseded(std::vector<Finding>& findings,
                       const std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>>& spans) const {
    std::map<std::string, std::vector<const std::vector<std::pair<uint32_t, uint32_t>>*>> winners;
    for (const CompiledCppRule& compiled : frontend_.rules()) {
      const auto own = spans.find(compiled.rule->id);
      if (own == spans.end()) continue;
      for (const std::string& victim : compiled.rule->supersedes) winners[victim].push_back(&own->second);
    }
    if (winners.empty()) return;
    std::erase_if(findings, [&](const Finding& f) {
      const auto it = winners.find(f.rule);
      if (it == winners.end()) return false;
      for (const auto* list : it->second)
        for (const auto& [start, end] : *list)
          if (start <= f.start_byte && f.end_byte <= end) return true;
      return false;
    });
  }

  // `guarded`: the site runs only behind a runtime CUDA check; one impact level lower (or the
  // rule's `guarded_impact`).
  static Finding make_finding(const Rule& rule, CppRawMatch& m, const CppFile& cpp, bool guarded) {
    Finding f;
    f.rule = rule.id;
    f.category = rule.category;
    f.path = cpp.path;
    f.mechanical = rule.mechanical;
    f.mode = cpp.clang.mode;
    f.guarded = guarded;
    std::string message = rule.message, fix = rule.fix;
    SiteContext& site = f.site;
    site.guarded = guarded;
    for (const TableRecord* record : {m.record, m.overrides}) {
      if (!record) continue;
      const auto& fields = record->fields;
      if (auto it = fields.find("impact"); it != fields.end()) site.own = parse_impact(it->second);
      if (auto it = fields.find("guarded_impact"); it != fields.end()) site.guarded_own = parse_impact(it->second);
      if (auto it = fields.find("message"); it != fields.end()) message = it->second;
      if (auto it = fields.find("fix"); it != fields.end()) fix = it->second;
      if (auto it = fields.find("mechanical"); it != fields.end()) f.mechanical = it->second == "true";
      if (record == m.record)
        for (const auto& [k, v] : fields) m.vars.emplace(k, v);
    }
    const std::string_view source = cpp.text->text();
    m.end = std::min<uint32_t>(std::max(m.end, m.start), static_cast<uint32_t>(source.size()));
    m.vars.emplace("text", shorten_utf8(source.substr(m.start, m.end - m.start), 80));
    f.message = fill_template(message, m.vars);
    f.fix = fill_template(fix, m.vars);
    const LineColumn b = cpp.text->position(m.start), e = cpp.text->position(m.end);
    f.location = {b.line, b.column, e.line, e.column, 0};
    f.start_byte = m.start;
    f.end_byte = m.end;
    f.snippet = shorten_utf8(cpp.text->line(b.line), kMaxSnippetBytes);
    return f;
  }

  const CppFrontend& frontend_;
  ClangParser parser_;
};

}  // namespace

CppFrontend::CppFrontend(const RuleSet& rules, std::string compile_commands, double clang_time_limit_s)
    : rules_(compile_rules(rules)),
      filter_(needles_of(rules_)),
      compile_commands_(std::move(compile_commands)),
      clang_time_limit_(clang_time_limit_s) {}

CppFrontend::~CppFrontend() = default;

bool CppFrontend::wants(std::string_view path) const {
  return !rules_.empty() && (is_cpp_source(path) || path.ends_with(".mm"));
}

std::unique_ptr<FrontendWorker> CppFrontend::make_worker() const { return std::make_unique<CppWorker>(*this); }

void CppFrontend::begin_scan(const std::filesystem::path& root, std::vector<FileNote>& errors) const {
  database_.reset();
  std::string error;
  if (!compile_commands_.empty()) {
    database_ = CompileCommands::load(compile_commands_, root, error);
    if (!database_)
      errors.push_back({compile_commands_, "compile_commands.json cannot be used (" + error +
                                               "); C++ files are parsed in tolerant mode"});
    return;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) return;  // a single file: no database beside it
  for (const char* candidate : {"compile_commands.json", "build/compile_commands.json"}) {
    int open_error = 0;
    // A link could point anywhere: only a regular file reached through no link is used.
    const int fd = open_beneath(root, candidate, false, open_error);
    if (fd < 0) {
      if (open_error == ELOOP)
        errors.push_back({candidate, "compile_commands.json reached through a symbolic link; not used"});
      continue;
    }
    ::close(fd);
    database_ = CompileCommands::load_below_root(root, candidate, error);
    if (!database_)
      errors.push_back({candidate, "compile_commands.json cannot be used (" + error +
                                       "); C++ files are parsed in tolerant mode"});
    return;
  }
}

}  // namespace mpsready
