#include "deps/deps_frontend.h"

#include <algorithm>
#include <set>

#include "deps/deps_reader.h"
#include "engine/repo_walker.h"
#include "python/ts_python.h"
#include "rules/message_template.h"

namespace mpsready {
namespace {

// The scanned root, from a file's absolute path and its path relative to the root.
std::filesystem::path root_of(const WalkedFile& file) {
  std::filesystem::path root = file.absolute;
  const std::filesystem::path relative(file.path);
  for (auto it = relative.begin(); it != relative.end(); ++it) root = root.parent_path();
  return root;
}

// "container" for a file that defines a container image, "native" for one that installs the
// dependencies where the code runs, nullptr for files that set up no environment (build files,
// job scripts).
const char* environment_kind(DepsFileKind kind) {
  switch (kind) {
    case DepsFileKind::dockerfile:
    case DepsFileKind::compose: return "container";
    case DepsFileKind::requirements:
    case DepsFileKind::setup_py:
    case DepsFileKind::setup_cfg:
    case DepsFileKind::pyproject:
    case DepsFileKind::pipfile:
    case DepsFileKind::conda: return "native";
    default: return nullptr;
  }
}

class DepsWorker final : public FrontendWorker {
 public:
  explicit DepsWorker(const DepsFrontend& frontend) : frontend_(frontend) {}

  void analyze(const WalkedFile& file, std::string_view bytes, FileOutcome& out) override {
    out.scanned = true;
    if (frontend_.rules().empty()) return;
    std::vector<DepsFile> files = DepsReader::read(file.path, bytes, root_of(file), parser_);
    for (const DepsFile& f : files) {
      for (const auto& e : f.errors) out.errors.push_back(e);
      // Which environment the file sets up: a container image, or one a Mac installs natively
      // (model/environments.h reads them together).
      if (const char* environment = environment_kind(f.kind))
        out.facts.packages.push_back({f.path, 1, "environment", environment});
      for (const Directive& d : f.directives) {
        const int line = f.position(d.file_offset(0)).line;
        if (d.kind == "entry-point") out.facts.entry_points.push_back({f.path, line, d.text, ""});
        else if (d.kind.rfind("package", 0) == 0) out.facts.packages.push_back({f.path, line, d.kind, d.text});
      }
      std::set<std::pair<std::string, uint32_t>> seen;  // one finding per rule and place
      for (const auto& compiled : frontend_.rules())
        for (const auto& matcher : compiled.matchers) {
          std::vector<DepsMatch> matches;
          matcher->match(f, matches);
          for (auto& m : matches)
            if (seen.insert({compiled.rule->id, m.start}).second) emit(*compiled.rule, f, m, out);
        }
    }
  }

 private:
  static void emit(const Rule& rule, const DepsFile& file, DepsMatch& m, FileOutcome& out) {
    Finding f;
    f.rule = rule.id;
    f.category = rule.category;
    f.path = file.path;
    f.start_byte = m.start;
    f.end_byte = m.end;
    f.mechanical = rule.mechanical;
    SiteContext& site = f.site;
    if (m.record) {
      const auto& fields = m.record->fields;
      if (auto it = fields.find("impact"); it != fields.end())
        if (auto i = parse_impact(it->second)) site.own = *i;
      for (const auto& [key, value] : fields) m.vars.emplace(key, value);
    }
    if (m.impact) site.own = *m.impact;
    if (m.mechanical) f.mechanical = *m.mechanical;
    std::string message = fill_template(m.message.empty() ? rule.message : m.message, m.vars);
    std::string fix = fill_template(m.fix.empty() ? rule.fix : m.fix, m.vars);
    // A requirement's own marker or group is its local context: a ceiling, not a guard to lower.
    if (m.limit == DepsLimit::marker) {
      f.guarded = true;
      site.limit = Impact::info;
      message += "; its marker (`" + m.vars["limit"] + "`) already keeps it off a Mac";
    } else if (m.limit == DepsLimit::optional) {
      f.guarded = true;
      site.limit = Impact::portable;
      message += "; it is only in the optional group `" + m.vars["limit"] + "`, so a plain install works on a Mac";
    }
    f.message = std::move(message);
    f.fix = std::move(fix);
    const LineColumn a = file.position(m.start), b = file.position(m.end);
    f.location = {a.line, a.column, b.line, b.column, 0};
    f.snippet = shorten_utf8(file.text->line(a.line), 200);
    if (m.dependency && (!m.modules.empty() || m.limit == DepsLimit::optional))
      out.facts.dependencies.push_back(
          {file.path, a.line, a.column, rule.id, m.dependency->name, m.modules, m.limit != DepsLimit::none,
           m.limit == DepsLimit::optional ? m.vars["limit"] : std::string()});
    out.findings.push_back(std::move(f));
  }

  const DepsFrontend& frontend_;
  PythonParser parser_;
};

}  // namespace

DepsFrontend::DepsFrontend(const RuleSet& rules) {
  for (const auto& rule : rules.rules()) {
    if (rule.language != "deps") continue;
    CompiledDepsRule compiled{&rule, {}};
    for (const auto& spec : rule.matchers) compiled.matchers.push_back(compile_deps_matcher(spec, rule, rules));
    rules_.push_back(std::move(compiled));
  }
}

bool DepsFrontend::wants(std::string_view path) const {
  return !rules_.empty() && DepsReader::classify(path) != DepsFileKind::none;
}

std::unique_ptr<FrontendWorker> DepsFrontend::make_worker() const { return std::make_unique<DepsWorker>(*this); }

}  // namespace mpsready
