#include "fix/fix_engine.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "fix/apply_edits.h"
#include "fix/import_tidy.h"
#include "fix/line_limit.h"
#include "fix/notebook_rewrite.h"
#include "fix/overlap_resolution.h"
#include "fix/safe_write.h"
#include "fix/syntax_check.h"

namespace mpsready {

namespace fs = std::filesystem;

namespace {

// Files read once each, by relative path, as the scan reads them (never through a link, within
// the size limit; `replaced` texts, the fixed ones, instead of the disk's). A file's text is what
// the scan saw, which for a notebook is its code cells joined (findings' byte ranges are in that
// text); `bytes` is the file.
class TextCache {
 public:
  TextCache(fs::path base, bool single_file, const ScanOptions& options)
      : base_(std::move(base)), single_file_(single_file), options_(options) {}
  const std::string& operator()(const std::string& relative) {
    auto it = texts_.find(relative);
    if (it == texts_.end()) {
      const std::string& raw = bytes(relative);
      it = texts_.emplace(relative, is_notebook_path(relative) ? notebook_python(raw) : raw).first;
    }
    return it->second;
  }
  const std::string& bytes(const std::string& relative) {
    auto it = bytes_.find(relative);
    if (it == bytes_.end()) {
      ReadResult read = read_scanned_file(relative, single_file_ ? base_ : base_ / relative, options_);
      it = bytes_.emplace(relative, read.bytes ? std::move(*read.bytes) : std::string()).first;
    }
    return it->second;
  }

 private:
  fs::path base_;
  bool single_file_;
  const ScanOptions& options_;
  std::map<std::string, std::string> texts_;
  std::map<std::string, std::string> bytes_;
};

std::map<std::string, std::vector<Edit>> by_file(std::vector<Edit> edits) {
  std::map<std::string, std::vector<Edit>> files;
  for (Edit& e : edits) files[e.path].push_back(std::move(e));
  return files;
}

void leave_all(std::vector<LeftSite>& left, const std::vector<Edit>& edits, const std::string& reason) {
  for (const Edit& e : edits) left.push_back({e.path, e.rule, e.location, reason});
}

// The line of the original text that line `fixed_line` of a file's fixed text comes from: a line
// an edit wrote maps to the line where that edit starts. The summary and the lists name sites by
// the lines a user sees before applying the diff.
int original_line(const FileFix& fix, int fixed_line) {
  int shift = 0;  // lines the edits before this point added
  for (const Edit& e : fix.edits) {
    const int first = 1 + static_cast<int>(std::count(fix.before.begin(), fix.before.begin() + e.start, '\n'));
    const int removed = static_cast<int>(std::count(e.original.begin(), e.original.end(), '\n'));
    const int added = static_cast<int>(std::count(e.replacement.begin(), e.replacement.end(), '\n'));
    if (fixed_line < first + shift) break;
    if (fixed_line <= first + shift + added) return first;
    shift += added - removed;
  }
  return fixed_line - shift;
}

// The dotted name of every call in the scanned tree.
std::set<std::string> callees_of(const ScanResult& scan) {
  std::set<std::string> names;
  for (const CodeGraphFact& file : scan.facts.code)
    for (const CodeCall& call : file.calls) names.insert(call.callee);
  return names;
}

// Drops the names of deprecated imports that the rewritten file no longer reads, for the rules
// whose sites it rewrites; kept only where the result still parses and touches no other edit.
void tidy_imports(const std::string& path, const std::string& text, const RuleSet& rules, std::vector<Edit>& kept) {
  std::vector<RetiredModule> modules;
  for (const Edit& e : kept) {
    if (e.binding) continue;
    const Rule* rule = rules.find(e.rule);
    if (!rule || !rule->autofix) continue;
    for (const std::string& m : rule->autofix->retires_imports)
      if (std::none_of(modules.begin(), modules.end(), [&](const RetiredModule& r) { return r.module == m; }))
        modules.push_back({m, rule->id});
  }
  std::vector<Edit> tidy = retire_unused_imports(path, text, kept, modules);
  std::erase_if(tidy, [&](const Edit& t) {
    return std::any_of(kept.begin(), kept.end(), [&](const Edit& e) { return t.start < e.end && e.start < t.end; });
  });
  if (tidy.empty()) return;
  std::vector<Edit> with = kept;
  with.insert(with.end(), tidy.begin(), tidy.end());
  std::sort(with.begin(), with.end(), edit_less);
  if (python_parses(apply_edits(text, with))) kept = std::move(with);
}

// Bindings serve sites: a site whose binding is not among `edits` is left, a binding no site
// uses is dropped (an unused local is a linter's warning, not a fix).
void keep_bindings_with_their_sites(std::vector<Edit>& edits, std::vector<LeftSite>& left) {
  std::set<std::pair<std::string, uint32_t>> bindings, used;
  for (const Edit& e : edits)
    if (e.binding) bindings.emplace(e.path, e.start);
  std::erase_if(edits, [&](const Edit& e) {
    if (e.binding || !e.uses_binding_at || bindings.count({e.path, *e.uses_binding_at})) return false;
    left.push_back({e.path, e.rule, e.location, "the `device` its fix uses could not be bound; fix it by hand"});
    return true;
  });
  for (const Edit& e : edits)
    if (!e.binding && e.uses_binding_at) used.emplace(e.path, *e.uses_binding_at);
  std::erase_if(edits, [&](const Edit& e) { return e.binding && !used.count({e.path, e.start}); });
}

// The file's edits whose result still parses: all of them when the whole does, else those that
// parse one by one (when together they still fail, none).
std::vector<Edit> parsing_edits(const std::string& text, const std::vector<Edit>& edits, std::vector<LeftSite>& left) {
  if (python_parses(apply_edits(text, edits))) return edits;
  std::vector<Edit> kept;
  for (const Edit& e : edits) {
    if (python_parses(apply_edits(text, {e}))) kept.push_back(e);
    else left.push_back({e.path, e.rule, e.location, "its fix would not parse; fix it by hand"});
  }
  if (!kept.empty() && !python_parses(apply_edits(text, kept))) {
    leave_all(left, kept, "the fixes of this file together would not parse; fix them by hand");
    kept.clear();
  }
  return kept;
}

// A notebook's fixes carried from its joined Python text to its JSON bytes; none when the result
// would not be the same notebook with only those cells' sources changed.
std::optional<FileFix> notebook_fix(const std::string& path, const std::string& bytes, const std::string& python,
                                    const std::vector<Edit>& edits, std::vector<LeftSite>& left) {
  const NotebookResult read = read_notebook(bytes);
  if (!read.ok) {
    leave_all(left, edits, "the notebook cannot be read back; fix it by hand");
    return std::nullopt;
  }
  NotebookEdits mapped = notebook_edits(bytes, read.source, edits);
  left.insert(left.end(), mapped.left.begin(), mapped.left.end());
  if (mapped.edits.empty()) return std::nullopt;
  const std::string expected = apply_edits(python, mapped.carried);
  std::string after = apply_edits(bytes, mapped.edits);
  if (!python_parses(expected) || !notebook_rewrite_is_exact(bytes, after, mapped.cells, expected)) {
    leave_all(left, mapped.carried, "the notebook could not be rewritten exactly; fix it by hand");
    return std::nullopt;
  }
  return FileFix{path, bytes, std::move(after), std::move(mapped.edits)};
}

}  // namespace

size_t FixOutcome::sites_fixed() const {
  size_t n = 0;
  for (const FileFix& f : files)
    for (const Edit& e : f.edits) n += !e.binding && !e.tidies_import;
  return n;
}

size_t FixOutcome::imports_tidied() const {
  size_t n = 0;
  for (const FileFix& f : files)
    for (const Edit& e : f.edits) n += e.tidies_import;
  return n;
}

size_t FixOutcome::bindings_added() const {
  size_t n = 0;
  for (const FileFix& f : files)
    for (const Edit& e : f.edits) n += e.binding;
  return n;
}

FixOutcome run_fix(const Pipeline& pipeline, const RuleSet& rules, const fs::path& root, const FixOptions& options) {
  FixOutcome outcome;
  const bool single_file = !fs::is_directory(root);
  ScanResult before = pipeline.scan(root, options.scan, options.assess);
  outcome.before = before.summary.verdict;

  EditCollectionOptions edit_options = options.edits;
  if (!edit_options.max_line) {
    const LineLimit limit = project_line_limit(root, single_file, options.scan);
    edit_options.max_line = limit.columns;
    edit_options.max_line_source = limit.source;
  }
  TextCache text_of(root, single_file, options.scan);
  CollectedEdits collected = collect_edits(before.findings, rules, edit_options, std::ref(text_of), callees_of(before));
  outcome.scanned = std::move(before);
  outcome.left = std::move(collected.left);
  resolve_overlaps(collected.edits, outcome.left);
  keep_bindings_with_their_sites(collected.edits, outcome.left);

  std::map<std::string, FileFix> fixes;
  for (auto& [path, edits] : by_file(std::move(collected.edits))) {
    const std::string& text = text_of(path);
    if (!python_parses(text)) {
      leave_all(outcome.left, edits, "the file does not parse before fixing; it is left as it is");
      continue;
    }
    std::vector<Edit> kept = parsing_edits(text, edits, outcome.left);
    keep_bindings_with_their_sites(kept, outcome.left);
    if (kept.empty()) continue;
    if (!is_notebook_path(path)) tidy_imports(path, text, rules, kept);
    if (is_notebook_path(path)) {
      if (auto fix = notebook_fix(path, text_of.bytes(path), text, kept, outcome.left))
        fixes.emplace(path, std::move(*fix));
      continue;
    }
    FileFix fix{path, text, apply_edits(text, kept), std::move(kept)};
    fixes.emplace(path, std::move(fix));
  }

  // The fixed tree, scanned like the root: the same walk, with the fixed files' texts in place of
  // theirs (no copy of the tree, nothing written anywhere). A file that a second run would change
  // again does not converge: its fixes are dropped and the tree scanned once more without them.
  std::map<std::string, std::string> fixed_texts;
  for (const auto& [path, fix] : fixes) fixed_texts.emplace(path, fix.after);
  ScanOptions fixed_scan = options.scan;
  fixed_scan.replaced_files = &fixed_texts;
  ScanResult after = pipeline.scan(root, fixed_scan, options.assess);
  TextCache fixed_text_of(root, single_file, fixed_scan);
  const CollectedEdits again = collect_edits(after.findings, rules, edit_options, std::ref(fixed_text_of), callees_of(after));
  std::set<std::string> unstable;
  for (const Edit& e : again.edits)
    if (fixes.count(e.path)) unstable.insert(e.path);
  for (const std::string& path : unstable) {
    leave_all(outcome.left, fixes[path].edits, "a second run would change this file again; its fixes are held back");
    fixed_texts.erase(path);
    fixes.erase(path);
  }
  if (!unstable.empty()) after = pipeline.scan(root, fixed_scan, options.assess);

  outcome.after = after.summary.verdict;
  for (auto& [path, fix] : fixes) {
    for (const Edit& e : fix.edits) {
      const std::string& needs = e.needs_pytorch;
      if (!needs.empty() && (outcome.needs_pytorch.empty() || !version_at_least(outcome.needs_pytorch, needs)))
        outcome.needs_pytorch = needs;
    }
    outcome.files.push_back(std::move(fix));
  }
  for (Finding& f : after.findings) {
    if (!f.in_core || f.impact == Impact::info) continue;
    for (const FileFix& fix : outcome.files) {
      if (fix.path != f.path || f.location.cell) continue;
      const int span = f.location.end_line - f.location.line;
      f.location.line = original_line(fix, f.location.line);
      f.location.end_line = f.location.line + span;
    }
    outcome.remaining.push_back(std::move(f));
  }
  std::sort(outcome.left.begin(), outcome.left.end(), left_site_less);
  return outcome;
}

bool write_fixes(const fs::path& root, const FixOutcome& outcome, std::string& error, bool follow_root_link) {
  std::error_code ec;
  // A single file is written in its directory (the path the user gave up to it); a directory
  // root is opened without following a link unless the user allowed it.
  const bool single_file = !fs::is_directory(fs::symlink_status(root, ec)) &&
                           !(follow_root_link && fs::is_directory(root, ec));
  fs::path dir = root, leaf;
  if (single_file) {
    const fs::path file = follow_root_link ? fs::canonical(root, ec) : root;
    dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    leaf = file.filename();
  }
  const SafeRoot safe(dir.string(), follow_root_link && !single_file);
  // Every file is checked before the first is written, so that a refusal leaves the tree as it was.
  for (int pass = 0; pass < 2; ++pass) {
    for (const FileFix& fix : outcome.files) {
      const std::string relative = single_file ? leaf.string() : fix.path;
      const bool done = pass == 0 ? safe.check(relative, fix.before, error)
                                  : safe.replace(relative, fix.before, fix.after, error);
      if (!done) return false;
    }
  }
  return true;
}

}  // namespace mpsready
