#include "python/python_frontend.h"

#include "python/lexical_import_context.h"

#include "python/distributed_facts.h"
#include "python/module_facts.h"
#include "python/code_graph_facts.h"
#include "python/python_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include <re2/re2.h>

#include "core/source_text.h"
#include "engine/repo_walker.h"
#include "python/coding_cookie.h"
#include "python/identifier_nfkc.h"
#include "python/nfkc.h"
#include "python/notebook_reader.h"
#include "python/star_imports.h"

namespace mpsready {
namespace {

// The scanned root, from a file's absolute path and its path below the root.
std::filesystem::path root_of(const WalkedFile& file) {
  std::filesystem::path root = file.absolute;
  for (size_t slash = 0; slash != std::string::npos; slash = file.path.find('/', slash + 1)) root = root.parent_path();
  return root;
}

// Tokens a file may have for tree-sitter to parse it: its tree takes about 36 bytes a token
// (a 50 MB one-line file of 25 million tokens peaked near 1 GB), so this bounds a tree near
// 150 MB; an ordinary 16 MiB source has about 3 million.
constexpr size_t kMaxParsedTokens = 4'000'000;

// Tokens, counted cheaply from above: each run of identifier characters, and each other
// character that is not white space.
size_t token_estimate(std::string_view text) {
  size_t tokens = 0;
  bool in_word = false;
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    const bool word = std::isalnum(u) || c == '_' || u >= 0x80;
    if (word) {
      tokens += in_word ? 0 : 1;
    } else if (!std::isspace(u)) {
      ++tokens;
    }
    in_word = word;
  }
  return tokens;
}

std::vector<std::vector<std::string>> needles_of(const PythonProgram& program) {
  std::vector<std::vector<std::string>> needles;
  for (const auto& compiled : program.rules()) needles.push_back(compiled.rule->needles);
  return needles;
}

class PythonWorker final : public FrontendWorker {
 public:
  explicit PythonWorker(const PythonFrontend& frontend) : frontend_(frontend) {}

  void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) override {
    std::string python(bytes);
    NotebookSource notebook;
    const bool is_notebook = file.path.ends_with(".ipynb");
    if (is_notebook) {
      NotebookResult nb = read_notebook(python);
      if (!nb.ok) {
        out.errors.push_back({file.path, nb.error, true});
        return;
      }
      if (!nb.problem.empty()) out.errors.push_back({file.path, "notebook " + nb.problem});
      notebook = std::move(nb.source);
      python = std::move(notebook.python);
    }
    if (!is_notebook) {
      // PEP 263: the encoding Python decodes the file from. (A notebook is JSON, always UTF-8.)
      CookieDecoding decoded = decode_by_cookie(python);
      if (decoded.text) python = std::move(*decoded.text);
      if (!decoded.problem.empty()) out.errors.push_back({file.path, decoded.problem});
    }
    const SourceText text(std::move(python));
    // Identifiers as Python reads them (NFKC), only for text that NFKC changes at all.
    std::optional<std::string> normal_text;
    if (has_non_ascii(text.text()))
      if (auto normal = nfkc(text.text()); normal && *normal != text.text()) normal_text = std::move(normal);
    // Memory bound: a file past kMaxParsedTokens gets no tree, not even the one NFKC needs.
    const size_t tokens = token_estimate(text.text());
    std::optional<std::string> normal_code;
    if (normal_text && tokens <= kMaxParsedTokens && !unparsable_nesting(text.text()))
      if (TreePtr tree = parser_.parse(text.text(), frontend_.options().parse_timeout_micros))
        normal_code = normalize_identifiers(text.text(), ts_tree_root_node(tree.get()));
    const std::string_view code = normal_code ? std::string_view(*normal_code) : text.text();
    out.scanned = true;
    if (!is_notebook) {
      out.facts.python_files.push_back(file.path);
      out.facts.modules.push_back(scan_main_block(file.path, code));
    }
    DistributedScan distributed;
    if (!is_notebook) distributed = scan_distributed(file.path, code);
    for (auto& d : distributed.facts) out.facts.distributed.push_back(std::move(d));
    for (auto& e : distributed.evidence) out.facts.evidence.push_back(std::move(e));
    for (auto& e : scan_mps_evidence(file.path, code)) {
      // A stub for MPS (a method that raises, a table entry of None) is no MPS support.
      if (std::any_of(distributed.stub_lines.begin(), distributed.stub_lines.end(),
                      [&](const auto& span) { return span.first <= e.line && e.line <= span.second; }))
        continue;
      if (is_notebook) {
        ImportFact at{file.path, e.line, 0, "", false};
        e.cell = map_cell(notebook, at);
        e.line = at.line;
      }
      out.facts.evidence.push_back(std::move(e));
    }
    if (const auto bad = text.first_invalid_utf8()) {
      out.errors.push_back({file.path, "not valid UTF-8 (first invalid byte at offset " +
                                           std::to_string(*bad) + "); invalid bytes were read as '?'"});
    }
    if (tokens > kMaxParsedTokens) {
      // Memory bound: no tree. Imports are read line by line, as for a file no rule looks at.
      out.errors.push_back({file.path, "about " + std::to_string(tokens) + " tokens, more than the " +
                                           std::to_string(kMaxParsedTokens) +
                                           " the parser takes (memory bound); imports were read line by line, "
                                           "no rule ran", true});
      std::vector<ImportFact> lexical = scan_imports_lexically(file.path, code);
      resolve_lexical_contexts(code, lexical);
      for (auto& fact : lexical) {
        if (is_notebook) fact.cell = map_cell(notebook, fact);
        out.facts.imports.push_back(std::move(fact));
      }
      return;
    }
    // Names the file's local star imports bind come from the modules they name: the result
    // depends on those files too, so the scan cache does not keep it.
    StarBindings star;
    if (!is_notebook) {
      const std::vector<LocalStarImport> stars = local_star_imports(code);
      if (!stars.empty()) {
        star = star_bindings(root_of(file), file.path, stars, parser_);
        out.cacheable = false;
      }
    }
    std::vector<bool> active = frontend_.filter().active_rules(text.text());
    const auto also_active_in = [&](std::string_view more) {
      const std::vector<bool> more_active = frontend_.filter().active_rules(more);
      for (size_t i = 0; i < active.size(); ++i) active[i] = active[i] || more_active[i];
    };
    // A needle spelled in other Unicode forms (`ｃｕｄａ`) is found in the NFKC text, and one in a
    // name a star import binds (`T` is `torch`) in what it is bound to.
    if (normal_text) also_active_in(*normal_text);
    if (!star.empty()) {
      std::string bound;
      for (const auto& [local, binding] : star) bound += binding.qualified + "\n";
      also_active_in(bound);
    }
    // A file that declares an extension is parsed even when no rule needs it: a CppExtension
    // is the CPU alternative the extension linkage looks for.
    const bool declares_extension = code.find("cpp_extension") != std::string_view::npos;
    if (!declares_extension && std::find(active.begin(), active.end(), true) == active.end()) {
      std::vector<ImportFact> lexical = scan_imports_lexically(file.path, code);
      // Imports at module level are read well enough line by line, and so are those at the top
      // of a function; one that may be on a feature branch or behind a guard needs the tree.
      if (resolve_lexical_contexts(code, lexical)) {
        for (auto& fact : lexical) {
          if (is_notebook) fact.cell = map_cell(notebook, fact);
          out.facts.imports.push_back(std::move(fact));
        }
        // The call graph needs every module's functions, also of files no rule looks at.
        if (!is_notebook) add_code_graph(file.path, code);
        out.facts.code = std::move(code_);
        return;
      }
    }
    out.parsed = true;
    FileAnalysis analysis = analyze_python(text, file.path, frontend_.program(), active, parser_,
                                           frontend_.options(), is_notebook ? &notebook : nullptr,
                                           {normal_code ? code : std::string_view(), &star});
    for (auto& f : analysis.findings) out.findings.push_back(std::move(f));
    for (auto& e : analysis.errors) out.errors.push_back(std::move(e));
    for (auto& i : analysis.imports) out.facts.imports.push_back(std::move(i));
    for (auto& e : analysis.extensions) out.facts.extensions.push_back(std::move(e));
    for (auto& c : analysis.code) out.facts.code.push_back(std::move(c));
  }

 private:
  // Lexical facts carry lines of the joined notebook text; map them back to the cell.
  static int map_cell(const NotebookSource& nb, ImportFact& fact) {
    const size_t i = static_cast<size_t>(fact.line - 1);
    if (i >= nb.cell_of_line.size()) return 0;
    const int cell = nb.cell_of_line[i];
    fact.line = nb.line_in_cell[i];
    return cell;
  }

  void add_code_graph(const std::string& path, std::string_view code) {
    code_.clear();
    if (unparsable_nesting(code)) return;
    TreePtr tree = parser_.parse(code, frontend_.options().parse_timeout_micros);
    if (!tree) return;
    const PythonFile parsed(code, tree.get());
    code_.push_back(scan_code_graph(parsed, path));
  }

  const PythonFrontend& frontend_;
  PythonParser parser_;
  std::vector<CodeGraphFact> code_;
};

}  // namespace

PythonFrontend::PythonFrontend(const RuleSet& rules, AnalysisOptions options)
    : program_(rules), filter_(needles_of(program_)), options_(options) {}

bool PythonFrontend::wants(std::string_view path) const {
  return path.ends_with(".py") || path.ends_with(".pyi") || path.ends_with(".ipynb");
}

std::unique_ptr<FrontendWorker> PythonFrontend::make_worker() const {
  return std::make_unique<PythonWorker>(*this);
}

std::vector<ImportFact> scan_imports_lexically(const std::string& path, std::string_view text) {
  static const RE2 import_line(R"(^([ \t]*)import[ \t]+([A-Za-z_][\w.]*))");
  // `from a.b import c, d` and `from ..a import b`: the module, and each name (maybe a submodule).
  static const RE2 from_line(R"(^([ \t]*)from[ \t]+(\.*)([A-Za-z_][\w.]*)?[ \t]+import[ \t]+\(?([\w., \t]*))");
  static const RE2 name_re(R"(([A-Za-z_]\w*)(?:[ \t]+as[ \t]+\w+)?)");
  std::vector<ImportFact> out;
  int line = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    const std::string_view row = text.substr(start, end - start);
    std::string indent, dots, module, names;
    if (RE2::PartialMatch(row, import_line, &indent, &module)) {
      out.push_back({path, line, 0, module, !indent.empty()});
    } else if (RE2::PartialMatch(row, from_line, &indent, &dots, &module, &names)) {
      const int level = static_cast<int>(dots.size());
      if (!module.empty() || level == 0) {
        out.push_back({path, line, 0, module, !indent.empty()});
        out.back().level = level;
      }
      re2::StringPiece rest(names);
      std::string name;
      while (RE2::FindAndConsume(&rest, name_re, &name)) {
        out.push_back({path, line, 0, module.empty() ? name : module + "." + name, !indent.empty()});
        out.back().level = level;
      }
    }
    start = end + 1;
  }
  return out;
}

}  // namespace mpsready
