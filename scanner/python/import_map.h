#pragma once
// Local names bound by imports, and name resolution through them: after `import torch as t`,
// `t.cuda.synchronize` resolves to `torch.cuda.synchronize`. Flow-insensitive, file-wide: an
// import anywhere in the file counts, which is what a reader assumes too.
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <tree_sitter/api.h>

namespace mpsready {

// One imported name, for import rules: the span to report and the qualified names to try,
// most specific first.
struct ImportSite {
  TSNode node;                          // the imported name's span
  TSNode statement;                     // the whole import statement
  std::string name;                     // qualified name imported
  bool is_from_module = false;          // the `a.b` of `from a.b import c`
  // The name the import binds, when the statement does not say it by its shape: the target of
  // `fa = importlib.import_module("flash_attn")`. "" otherwise.
  std::string local;
};

class ImportMap {
 public:
  // Records the bindings and sites of an import_statement or import_from_statement.
  void add_statement(std::string_view source, TSNode statement);

  // An import by a literal string: `__import__("a.b")` or `importlib.import_module("a.b")` in
  // `statement`, assigned to `local` ("" if not assigned), which is then bound to what the call
  // returns (`a` for `__import__`, `a.b` for `import_module`).
  void add_string_import(TSNode statement, TSNode literal, const std::string& name,
                         const std::string& local, const std::string& bound_to);
  // A name bound outside the file (a local star import), unless the file binds it itself.
  void bind_if_unbound(const std::string& local, const std::string& qualified, bool is_module);

  const std::vector<ImportSite>& sites() const { return sites_; }
  const std::unordered_map<std::string, std::string>& bindings() const { return bindings_; }
  // Relative imports (`from . import x`, `from ..a import b`): for the repository's import graph
  // only, never for import rules. `name` is the part after the dots; `level` the dots.
  struct RelativeSite {
    TSNode statement;
    std::string name;
    int level = 0;
  };
  const std::vector<RelativeSite>& relative_sites() const { return relative_sites_; }

  // True if `name` is bound by `import a.b` / `import a.b as name`: a module, not a value.
  bool binds_module(std::string_view name) const { return modules_.count(std::string(name)) != 0; }

  // The qualified name of an identifier or attribute chain, or "" if its base is not imported.
  std::string resolve(std::string_view source, TSNode node) const;
  // The dotted source text of a chain ("model.encoder.cuda"), resolved where possible.
  std::string display_name(std::string_view source, TSNode node) const;

 private:
  void add_relative(std::string_view source, TSNode statement, TSNode module);
  std::unordered_map<std::string, std::string> bindings_;
  std::unordered_set<std::string> modules_;
  std::vector<ImportSite> sites_;
  std::vector<RelativeSite> relative_sites_;
};

}  // namespace mpsready
