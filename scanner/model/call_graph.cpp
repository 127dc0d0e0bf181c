#include "model/call_graph.h"

#include <algorithm>
#include <set>

namespace mpsready {
namespace {

// Re-exports followed through packages' `__init__` files, at most: real code needs two or three.
constexpr int kMaxHops = 8;

std::string key(const std::string& path, const std::string& name) { return path + '\0' + name; }

std::string last_segment(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

bool is_dunder(const std::string& name) {
  return name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0;
}

}  // namespace

CallGraph::CallGraph(const RepoFacts& facts, const RepoModel& model) : model_(&model) {
  bindings_by_local_.resize(facts.code.size());
  star_bindings_.resize(facts.code.size());
  for (size_t fi = 0; fi < facts.code.size(); ++fi)
    for (size_t b = 0; b < facts.code[fi].bindings.size(); ++b) {
      const std::string& local = facts.code[fi].bindings[b].local;
      if (local == "*") star_bindings_[fi].push_back(b);
      else bindings_by_local_[fi][local].push_back(b);
    }
  add_nodes(facts);
  add_class_edges(facts, model);
  add_call_edges(facts, model);
  add_import_edges(facts, model);
  lookup_memo_.clear();
  lookup_memo_.rehash(0);
}

void CallGraph::count_core_callers(const RepoModel& model) {
  core_in_.assign(nodes_.size(), 0);
  std::unordered_map<std::string, bool> core;  // path -> whether its role is the core's
  for (const CallEdge& e : edges_) {
    if (e.via != 'c' && e.via != 'v' && e.via != 'i') continue;
    const std::string& path = nodes_[e.from].path;
    auto it = core.find(path);
    if (it == core.end()) it = core.emplace(path, !is_peripheral(model.role_of(path))).first;
    if (it->second) ++core_in_[e.to];
  }
}

void CallGraph::add_edge(CallEdge edge) {
  out_[edge.from].push_back(edges_.size());
  edges_.push_back(std::move(edge));
}

std::optional<size_t> CallGraph::find(const std::string& path, const std::string& name) const {
  const auto file = file_of_path_.find(path);
  if (file == file_of_path_.end()) return std::nullopt;
  return find_in(file->second, name);
}

std::optional<size_t> CallGraph::find_in(int file, const std::string& name) const {
  if (file < 0 || static_cast<size_t>(file) >= names_by_file_.size()) return std::nullopt;
  const auto& names = names_by_file_[static_cast<size_t>(file)];
  const auto it = names.find(name);
  if (it == names.end()) return std::nullopt;
  return it->second;
}

void CallGraph::add_nodes(const RepoFacts& facts) {
  file_functions_.resize(facts.code.size());
  file_classes_.resize(facts.code.size());
  names_by_file_.resize(facts.code.size());
  for (size_t fi = 0; fi < facts.code.size(); ++fi) {
    const CodeGraphFact& g = facts.code[fi];
    // A file scanned twice (never in practice) keeps its first facts.
    if (!file_of_path_.emplace(g.path, static_cast<int>(fi)).second) continue;
    const auto add = [&](CallNode node) {
      names_by_file_[fi].emplace(node.name, nodes_.size());
      nodes_.push_back(std::move(node));
      return nodes_.size() - 1;
    };
    add({CallNode::Kind::module, g.path, "<module>", 1, 0, static_cast<int>(fi), false, false});
    for (const CodeClass& c : g.classes) {
      const bool top = c.name.find('.') == std::string::npos;
      file_classes_[fi].push_back(
          add({CallNode::Kind::klass, g.path, c.name, c.line, 0, static_cast<int>(fi), top && c.name[0] != '_', false}));
    }
    for (const CodeFunction& f : g.functions) {
      const bool top = f.name.find('.') == std::string::npos;
      const size_t id = add({CallNode::Kind::function, g.path, f.name, f.line, f.end_line, static_cast<int>(fi),
                             top && !f.name.empty() && f.name[0] != '_', f.registered});
      file_functions_[fi].push_back(id);
      if (!f.cls.empty()) methods_by_name_[last_segment(f.name)].push_back(id);
    }
  }
  for (const auto& [name, methods] : methods_by_name_) {
    method_names_.emplace(name, nodes_.size());
    nodes_.push_back({CallNode::Kind::method_name, "", "." + name, 0, 0, -1, false, false});
  }
  out_.resize(nodes_.size());
  core_in_.assign(nodes_.size(), 0);
  subclasses_.resize(nodes_.size());
  bases_.resize(nodes_.size());
  for (const auto& [name, methods] : methods_by_name_)
    for (const size_t m : methods) add_edge({'m', method_names_.at(name), m, 0, -1, -1, 0, {}, true});
}

bool CallGraph::is_self_or_base(size_t cls, size_t ancestor) const {
  std::vector<size_t> up{cls};
  for (size_t i = 0; i < up.size() && i < 64; ++i) {
    if (up[i] == ancestor) return true;
    for (const size_t b : bases_[up[i]])
      if (std::find(up.begin(), up.end(), b) == up.end()) up.push_back(b);
  }
  return false;
}

std::optional<size_t> CallGraph::lookup(const RepoFacts& facts, const RepoModel& model, const std::string& path,
                                        const std::string& name, int hops) const {
  if (hops == 0) {
    const std::string memo_key = key(path, name);
    if (const auto it = lookup_memo_.find(memo_key); it != lookup_memo_.end()) return it->second;
    const std::optional<size_t> found = lookup(facts, model, path, name, -1);
    lookup_memo_.emplace(memo_key, found);
    return found;
  }
  if (hops < 0) hops = 0;  // the first hop, past the memo
  std::string p = path, n = name;
  for (int hop = hops; hop < kMaxHops; ++hop) {
    if (const auto id = find(p, n)) return id;
    const auto file = file_of_path_.find(p);
    if (file == file_of_path_.end()) return std::nullopt;
    const size_t dot = n.find('.');
    const std::string first = n.substr(0, dot);
    const std::string rest = dot == std::string::npos ? "" : n.substr(dot + 1);
    bool moved = false;
    const CodeGraphFact& code = facts.code[static_cast<size_t>(file->second)];
    const auto& by_local = bindings_by_local_[static_cast<size_t>(file->second)];
    static const std::vector<size_t> kUnbound;
    const auto bound = by_local.find(first);
    for (const size_t bi : bound == by_local.end() ? kUnbound : bound->second) {
      const CodeBinding& b = code.bindings[bi];
      const auto t = model.resolve_name(p, rest.empty() ? b.target : b.target + "." + rest, b.level);
      if (!t || t->rest.empty()) continue;
      p = t->path;
      n = t->rest;
      moved = true;
      break;
    }
    if (moved) continue;
    for (const size_t bi : star_bindings_[static_cast<size_t>(file->second)]) {
      const CodeBinding& b = code.bindings[bi];
      const auto t = model.resolve_name(p, b.target + "." + n, b.level);
      if (t && !t->rest.empty() && find(t->path, t->rest)) return find(t->path, t->rest);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<size_t> CallGraph::bases_of(const RepoFacts&, const RepoModel&, size_t cls) const { return bases_[cls]; }

void CallGraph::methods_named(const RepoFacts& facts, const RepoModel& model, size_t cls, const std::string& method,
                              bool subclasses, std::vector<size_t>& out) const {
  // Up the bases until a class defines it (breadth first, each class once).
  std::vector<size_t> queue{cls};
  std::vector<size_t> seen{cls};
  for (size_t i = 0; i < queue.size() && i < 64; ++i) {
    const CallNode& c = nodes_[queue[i]];
    if (const auto m = find_in(c.file, c.name + "." + method)) {
      out.push_back(*m);
      break;
    }
    for (const size_t b : bases_of(facts, model, queue[i]))
      if (std::find(seen.begin(), seen.end(), b) == seen.end()) {
        seen.push_back(b);
        queue.push_back(b);
      }
  }
  if (!subclasses) return;
  // Down: a subclass that overrides it runs its own when `self` is one.
  std::vector<size_t> down{cls};
  for (size_t i = 0; i < down.size() && i < 256; ++i)
    for (const size_t sub : subclasses_[down[i]]) {
      if (std::find(seen.begin(), seen.end(), sub) != seen.end()) continue;
      seen.push_back(sub);
      down.push_back(sub);
      if (const auto m = find_in(nodes_[sub].file, nodes_[sub].name + "." + method)) out.push_back(*m);
    }
}

void CallGraph::add_class_edges(const RepoFacts& facts, const RepoModel& model) {
  method_class_.assign(nodes_.size(), SIZE_MAX);
  for (size_t fi = 0; fi < facts.code.size(); ++fi) {
    const CodeGraphFact& g = facts.code[fi];
    for (size_t ci = 0; ci < file_classes_[fi].size(); ++ci) {
      const size_t cls = file_classes_[fi][ci];
      for (const std::string& base : g.classes[ci].bases)
        if (const auto b = lookup(facts, model, g.path, base, 0); b && nodes_[*b].kind == CallNode::Kind::klass) {
          bases_[cls].push_back(*b);
          subclasses_[*b].push_back(cls);
        }
    }
    for (size_t i = 0; i < g.functions.size(); ++i) {
      const CodeFunction& f = g.functions[i];
      const size_t id = file_functions_[fi][i];
      if (!f.cls.empty())
        if (const auto c = find(g.path, f.cls); c && nodes_[*c].kind == CallNode::Kind::klass) method_class_[id] = *c;
      if (!f.cls.empty()) {
        // An object's public methods (and `forward`, `__call__`) run when the object exists:
        // calls on instances are rarely resolvable, the object's class is.
        const std::string method = last_segment(f.name);
        if (method[0] != '_' || is_dunder(method))
          if (const auto c = find(g.path, f.cls)) add_edge({'m', *c, id, f.line, -1, -1, 0, {}});
      } else if (const size_t dot = f.name.rfind('.'); dot != std::string::npos) {
        // A nested function runs when its parent does (it is returned, called or passed on).
        if (const auto parent = find(g.path, f.name.substr(0, dot)); parent && nodes_[*parent].kind == CallNode::Kind::function)
          add_edge({'n', *parent, id, f.line, -1, -1, 0, {}});
      }
    }
  }
  for (size_t cls = 0; cls < nodes_.size(); ++cls)
    for (const size_t b : bases_[cls]) add_edge({'b', cls, b, nodes_[cls].line, -1, -1, 0, {}});
}

void CallGraph::resolve_callee(const RepoFacts& facts, const RepoModel& model, int file, size_t caller,
                               const std::string& cls, const std::string& callee, std::vector<Target>& out) const {
  const CodeGraphFact& g = facts.code[static_cast<size_t>(file)];
  const auto by_name = [&](const std::string& name) {
    if (const auto it = method_names_.find(name); it != method_names_.end()) out.push_back({it->second, 'u'});
  };
  if (callee.rfind("super().", 0) == 0) {
    const auto c = cls.empty() ? std::nullopt : find_in(file, cls);
    if (!c) return;
    std::vector<size_t> found;
    for (const size_t b : bases_[*c]) methods_named(facts, model, b, callee.substr(8), false, found);
    for (const size_t m : found) out.push_back({m, 'c'});
    return;
  }
  const size_t dot = callee.find('.');
  const std::string first = callee.substr(0, dot);
  if (first == "self" || first == "cls") {
    if (dot == std::string::npos) return;
    const std::string rest = callee.substr(dot + 1);
    if (rest.find('.') != std::string::npos) return by_name(last_segment(rest));
    std::vector<size_t> found;
    const auto c = cls.empty() ? std::nullopt : find_in(file, cls);
    if (c) methods_named(facts, model, *c, rest, true, found);
    if (found.empty()) return by_name(rest);
    // A subclass's override runs only on an instance of that subclass.
    for (const size_t m : found)
      out.push_back({m, 'c', method_class_[m] != SIZE_MAX && !is_self_or_base(*c, method_class_[m])});
    return;
  }
  // A nested function of the caller, then the file's names and imports.
  if (nodes_[caller].kind == CallNode::Kind::function)
    if (const auto nested = find_in(file, nodes_[caller].name + "." + callee)) return out.push_back({*nested, 'c'});
  if (const auto id = lookup(facts, model, g.path, callee, 0)) return out.push_back({*id, 'c'});
  if (dot == std::string::npos) return;
  // `obj.method()` on an object of unknown class; but not a name of a package outside the
  // repository (`torch.nn.functional.relu`).
  if (const auto bound = bindings_by_local_[static_cast<size_t>(file)].find(first);
      bound != bindings_by_local_[static_cast<size_t>(file)].end())
    for (const size_t bi : bound->second)
      if (!model.resolve_name(g.path, g.bindings[bi].target, g.bindings[bi].level)) return;
  by_name(last_segment(callee));
}

void CallGraph::add_call_edges(const RepoFacts& facts, const RepoModel& model) {
  std::vector<Target> targets;
  for (size_t fi = 0; fi < facts.code.size(); ++fi) {
    const CodeGraphFact& g = facts.code[fi];
    if (file_of_path_.at(g.path) != static_cast<int>(fi)) continue;
    const bool core = !is_peripheral(model.role_of(g.path));
    const ModuleNode* module = model.module_of(g.path);
    // A `__main__` block runs when the file is run: an entry point's or a top-level script's.
    const bool runs_main = model.role_of(g.path) == Role::entry_point ||
                           (module && module->name.find('.') == std::string::npos);
    const size_t module_id = *find(g.path, "<module>");
    for (const CodeCall& call : g.calls) {
      if (call.in_main_block && !runs_main) continue;
      const size_t caller = call.caller < 0 ? module_id : file_functions_[fi][static_cast<size_t>(call.caller)];
      const std::string cls = call.caller < 0 ? "" : g.functions[static_cast<size_t>(call.caller)].cls;
      targets.clear();
      resolve_callee(facts, model, static_cast<int>(fi), caller, cls, call.callee, targets);
      if (targets.empty()) {
        ++unresolved_;
        continue;
      }
      ++resolved_;
      for (const Target& t : targets) {
        if (call.value && t.via == 'u') continue;
        if (t.node == caller) continue;
        add_edge({call.value ? 'v' : t.via, caller, t.node, call.line, static_cast<int>(fi), call.condition, 0, {},
                  t.needs_instance});
        if (core && t.via != 'u') ++core_in_[t.node];
      }
    }
  }
}

void CallGraph::add_import_edges(const RepoFacts& facts, const RepoModel& model) {
  for (const ImportFact& i : facts.imports) {
    if (i.cell) continue;
    const auto from_module = module_node(i.path);
    if (!from_module) continue;
    const ModuleNode* module = model.module_of(i.path);
    const bool runs_main = model.role_of(i.path) == Role::entry_point ||
                           (module && module->name.find('.') == std::string::npos);
    if (i.in_main_block && !runs_main) continue;
    const auto target = model.resolve_name(i.path, i.module, i.level);
    if (!target) continue;
    const auto to = module_node(target->path);
    if (!to) continue;
    size_t from = *from_module;
    if (!i.function.empty())
      if (const auto f = find(i.path, i.function)) from = *f;
    CallEdge e{'i', from, *to, i.line, -1, -1, 0, {}};
    if (i.guarded) e.import_level = 3, e.import_detail = "imported behind a guard";
    else if (!i.branch.empty()) e.import_level = 1, e.import_detail = "imported only if " + i.branch;
    add_edge(std::move(e));
    if (!is_peripheral(model.role_of(i.path))) ++core_in_[*to];
  }
}

std::optional<size_t> CallGraph::module_node(const std::string& path) const { return find(path, "<module>"); }

std::vector<std::string> CallGraph::files_of_subclasses_constructing(const std::string& path, int line) const {
  std::vector<std::string> files;
  const auto node = node_at(path, line);
  const auto cls = node ? class_of(*node) : std::nullopt;
  if (!cls || last_segment(nodes_[*node].name) != "__init__") return files;
  const std::vector<size_t> down = lineage(*cls, false);
  for (size_t i = 1; i < down.size(); ++i) files.push_back(nodes_[down[i]].path);
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

std::vector<size_t> CallGraph::lineage(size_t cls, bool up) const {
  std::vector<size_t> out{cls};
  std::set<size_t> seen{cls};
  for (size_t i = 0; i < out.size() && out.size() < kMaxLineage; ++i)
    for (const size_t next : up ? bases_[out[i]] : subclasses_[out[i]])
      if (out.size() < kMaxLineage && seen.insert(next).second) out.push_back(next);
  return out;
}

std::optional<size_t> CallGraph::node_at(const std::string& path, int line) const {
  const auto file = file_of_path_.find(path);
  if (file == file_of_path_.end()) return std::nullopt;
  std::optional<size_t> best;
  for (const size_t id : file_functions_[static_cast<size_t>(file->second)]) {
    const CallNode& n = nodes_[id];
    if (n.line <= line && line <= n.end_line && (!best || n.line >= nodes_[*best].line)) best = id;
  }
  return best ? best : module_node(path);
}

}  // namespace mpsready
