#pragma once
// The function-level call graph of the repository's Python code, built from the per-file code
// facts (CodeGraphFact): a node per function, method, class and module body, an edge per call or
// use as a value that resolves to one of them — through imports and aliases, relative imports,
// `self.method` (the class, its bases and the subclasses that override it), `super().method`,
// `Class(...)` (its `__init__` and its methods), module attributes and re-exports in a package's
// `__init__` — and an edge per import from the code that runs it to the imported module's body.
// A call it cannot resolve is never an edge to everything: `obj.run()` goes to a node for the
// name `run`, which leads to the methods of that name; `run()` of an unknown name goes nowhere.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/repo_facts.h"
#include "model/repo_model.h"

namespace mpsready {

struct CallNode {
  enum class Kind { module, function, klass, method_name };
  Kind kind = Kind::function;
  std::string path;  // "" for a method name
  std::string name;  // `Model.forward`, `<module>`, `.forward` for a method name
  int line = 0;
  int end_line = 0;
  int file = -1;  // index into RepoFacts::code
  bool public_top = false;  // a top-level function or class whose name has no leading `_`
  bool registered = false;  // a decorator may register it (dispatched by name elsewhere)
};

struct CallEdge {
  // 'c' a call, 'v' a use as a value, 'i' an import, 'n' a nested function, 'm' a method of a
  // class, 'b' a base class, 'u' a call through an unresolved attribute, to a method name.
  char via = 'c';
  size_t from = 0, to = 0;
  int line = 0;
  int file = -1;       // the facts the condition lives in
  int condition = -1;  // innermost condition of the site
  // Imports: how the model reads the import itself (0 module level or lazy, 1 on a feature
  // branch, 3 behind a guard) and its branch text.
  int import_level = 0;
  std::string import_detail;
  // The target is a method that runs on an instance the call does not make: a call on an object
  // of unknown class (`obj.run()`), or `self.run()` reaching a subclass's override. It runs only
  // where an instance of its class (or of a subclass) exists on the path (mac_path.h).
  bool needs_instance = false;
};

class CallGraph {
 public:
  CallGraph(const RepoFacts& facts, const RepoModel& model);

  const std::vector<CallNode>& nodes() const { return nodes_; }
  const std::vector<CallEdge>& edges() const { return edges_; }
  const std::vector<size_t>& out(size_t node) const { return out_[node]; }
  size_t in_degree_from_core(size_t node) const { return core_in_[node]; }
  // Counts in_degree_from_core again by `model`'s roles: a model that carries modules into the
  // core after it built the graph (RepoModel::carry_in_core_imports) makes their callers core.
  // Calls, uses as values and imports count; an unresolved attribute's does not.
  void count_core_callers(const RepoModel& model);
  // The innermost function around `line` of `path`, else its module body; nullopt: no facts.
  std::optional<size_t> node_at(const std::string& path, int line) const;
  std::optional<size_t> module_node(const std::string& path) const;
  // The class a method node belongs to; nullopt for functions, modules and classes.
  std::optional<size_t> class_of(size_t node) const {
    return node < method_class_.size() && method_class_[node] != SIZE_MAX ? std::optional<size_t>(method_class_[node])
                                                                         : std::nullopt;
  }
  // A class's bases within the repository.
  const std::vector<size_t>& bases(size_t cls) const { return bases_[cls]; }
  // `cls` and its ancestors (`up`: through its bases) or descendants (through the classes that
  // name it as a base), breadth first, so the nearest come first; each once, and at most
  // kMaxLineage, however deep or cyclic the hierarchy input makes.
  static constexpr size_t kMaxLineage = 256;
  std::vector<size_t> lineage(size_t cls, bool up) const;
  // Where `line` of `path` is in a class's constructor (`__init__`), which every instance of the
  // class or of a subclass runs (inherited, or through `super().__init__`): the files of those
  // subclasses, transitively, sorted. Empty elsewhere.
  std::vector<std::string> files_of_subclasses_constructing(const std::string& path, int line) const;
  size_t resolved_calls() const { return resolved_; }
  size_t unresolved_calls() const { return unresolved_; }

 private:
  struct Target {
    size_t node;
    char via;
    bool needs_instance = false;
  };
  void add_nodes(const RepoFacts& facts);
  void add_call_edges(const RepoFacts& facts, const RepoModel& model);
  void add_import_edges(const RepoFacts& facts, const RepoModel& model);
  void add_class_edges(const RepoFacts& facts, const RepoModel& model);
  // What `callee` names from `caller` (a node of file `file`), into `out`.
  void resolve_callee(const RepoFacts& facts, const RepoModel& model, int file, size_t caller, const std::string& cls,
                      const std::string& callee, std::vector<Target>& out) const;
  // A dotted name in a file: a function, a class, `Class.method`, or through the file's imports.
  std::optional<size_t> lookup(const RepoFacts& facts, const RepoModel& model, const std::string& path,
                               const std::string& name, int hops) const;
  std::optional<size_t> find(const std::string& path, const std::string& name) const;
  // The same by the file's index in RepoFacts::code, which the caller often has at hand.
  std::optional<size_t> find_in(int file, const std::string& name) const;
  // `cls.method` searched up the bases, then down in subclasses that override it.
  void methods_named(const RepoFacts& facts, const RepoModel& model, size_t cls, const std::string& method,
                     bool subclasses, std::vector<size_t>& out) const;
  std::vector<size_t> bases_of(const RepoFacts& facts, const RepoModel& model, size_t cls) const;
  // Whether `ancestor` is `cls` or one of its bases, transitively.
  bool is_self_or_base(size_t cls, size_t ancestor) const;
  void add_edge(CallEdge edge);

  std::vector<CallNode> nodes_;
  std::vector<CallEdge> edges_;
  std::vector<std::vector<size_t>> out_;
  std::vector<size_t> core_in_;
  std::vector<std::unordered_map<std::string, size_t>> names_by_file_;  // per file: name -> node
  std::unordered_map<std::string, int> file_of_path_;       // path -> index into facts.code
  std::unordered_map<std::string, size_t> method_names_;    // `forward` -> its method-name node
  std::map<std::string, std::vector<size_t>> methods_by_name_;
  std::vector<std::vector<size_t>> file_functions_;         // per file: function node ids in fact order
  std::vector<std::vector<size_t>> file_classes_;
  std::vector<std::vector<size_t>> subclasses_;              // class node -> classes naming it as a base
  std::vector<std::vector<size_t>> bases_;
  std::vector<size_t> method_class_;                         // method node -> its class node, SIZE_MAX else
  size_t resolved_ = 0, unresolved_ = 0;
  const RepoModel* model_ = nullptr;
  // Per file: a bound name -> its bindings (indexes into CodeGraphFact::bindings), and the star
  // imports; built first, so a name's import is found without a walk over the file's imports.
  std::vector<std::unordered_map<std::string, std::vector<size_t>>> bindings_by_local_;
  std::vector<std::vector<size_t>> star_bindings_;
  // What lookup() found for a (path, name) from its first hop, while the graph is built: a file
  // calls the same names again and again, and each call would follow the same imports. Emptied
  // when the constructor ends; nothing reads it after.
  mutable std::unordered_map<std::string, std::optional<size_t>> lookup_memo_;
};

}  // namespace mpsready
