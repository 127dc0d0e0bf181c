#include "model/mac_path.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <deque>
#include <map>
#include <set>

#include "core/package_test.h"

namespace mpsready {
namespace {

constexpr int kUnreached = static_cast<int>(MacStatus::unreached);
constexpr size_t kNone = SIZE_MAX;
constexpr size_t kMaxChainSteps = 8;

std::string strip_quotes(const std::string& text) {
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
    return text.substr(1, text.size() - 2);
  return text;
}

bool is_string_literal(const std::string& text) {
  return text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front();
}

// A default's truth when it is a literal: 1 true, 0 false, 2 not a literal.
int truth_of(const std::string& text) {
  if (text == "False" || text == "None" || text == "0" || text == "0.0" || text == "\"\"" || text == "''" ||
      text == "[]" || text == "{}" || text == "()")
    return 0;
  if (text == "True" || is_string_literal(text)) return 1;
  if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; }))
    return 1;
  return 2;
}

// A qualified name's last part (`Outer.CUDAAccelerator` -> `CUDAAccelerator`).
std::string last_name(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

// A test that is a name alone or its negation (`if HAS_TE:`, `if not _TE_AVAILABLE:`): the form in
// which a module's flag is read.
bool bare_flag_test(const CodeCondition& c) {
  return c.option_value.empty() && !c.option.empty() && (c.text == c.option || c.text == "not " + c.option);
}

// Names a device option goes by: set to `mps` on a Mac where it accepts that.
bool is_device_option(const std::string& name) {
  return name == "device" || name == "device_type" || name == "accelerator" || name == "device_name";
}

}  // namespace

std::string_view to_string(MacStatus status) {
  switch (status) {
    case MacStatus::on_default: return "default";
    case MacStatus::optional: return "optional";
    case MacStatus::optional_off: return "optional";
    case MacStatus::not_on_mac: return "not-on-mac";
    case MacStatus::unreached: return "unreached";
  }
  return "unreached";
}

MacPath::MacPath(const RepoFacts& facts, const RepoModel& model, const CallGraph& graph,
                 const std::set<std::string>* missing_packages)
    : facts_(facts), model_(model), graph_(graph), missing_packages_(missing_packages) {
  for (size_t fi = 0; fi < facts.code.size(); ++fi) {
    for (const CodeOption& o : facts.code[fi].options) options_[o.name].emplace_back(static_cast<int>(fi), &o);
    file_of_path_.emplace(facts.code[fi].path, static_cast<int>(fi));
    for (const std::string& name : facts.code[fi].cuda_flags) cuda_flags_.emplace(static_cast<int>(fi), name);
    for (const auto& [name, package] : facts.code[fi].package_flags) package_flags_.emplace(std::make_pair(static_cast<int>(fi), name), package);
    // Each `if` test that asks whether a missing package is installed, read once here rather
    // than each time the search reads an edge's level.
    if (missing_packages && !missing_packages->empty())
      for (size_t ci = 0; ci < facts.code[fi].conditions.size(); ++ci) {
        const CodeCondition& c = facts.code[fi].conditions[ci];
        if (c.kind != 'i') continue;
        if (auto test = read_package_test(c.text); test && missing_packages->count(test->package))
          package_tests_.emplace(std::make_pair(static_cast<int>(fi), static_cast<int>(ci)), std::move(*test));
      }
  }
  // What each function requires that a Mac lacks; a class takes its constructor's.
  const std::vector<CallNode>& nodes = graph.nodes();
  requires_.assign(nodes.size(), "");
  if (missing_packages_ && !missing_packages_->empty()) {
    std::map<std::pair<int, int>, const CodeFunction*> by_line;  // (file, line) -> function
    for (size_t fi = 0; fi < facts.code.size(); ++fi)
      for (const CodeFunction& fn : facts.code[fi].functions)
        if (!fn.raise_tests.empty()) by_line.emplace(std::make_pair(static_cast<int>(fi), fn.line), &fn);
    std::vector<bool> own_init(nodes.size(), false);
    for (size_t i = 0; i < nodes.size(); ++i) {
      const CallNode& n = nodes[i];
      if (n.kind != CallNode::Kind::function) continue;
      const auto cls = graph.class_of(i);
      if (cls && n.name.ends_with(".__init__")) own_init[*cls] = true;
      const auto fn = by_line.find({n.file, n.line});
      if (fn == by_line.end() || fn->second->name != n.name) continue;
      requires_[i] = requirement_of(n.file, *fn->second);
      if (cls && n.name.ends_with(".__init__")) requires_[*cls] = requires_[i];
    }
    // A class without its own constructor runs the nearest one up its bases.
    for (size_t c = 0; c < nodes.size(); ++c) {
      if (nodes[c].kind != CallNode::Kind::klass || own_init[c]) continue;
      const std::vector<size_t> up = graph.lineage(c, true);
      if (const auto own = std::find_if(up.begin() + 1, up.end(), [&](size_t b) { return own_init[b]; }); own != up.end())
        requires_[c] = requires_[*own];
    }
  }
  for (size_t c = 0; c < nodes.size(); ++c)
    if (nodes[c].kind == CallNode::Kind::klass)
      for (const size_t g : groups_of(c)) siblings_.emplace(std::make_pair(g, last_name(nodes[c].name)), c);
  find_device_families();
  find_package_families();
  search();
  find_caught_import_uses();
}

std::vector<size_t> MacPath::groups_of(size_t cls) const {
  const std::vector<size_t>& bases = graph_.bases(cls);
  if (!bases.empty()) return bases;
  // Classes without a repository base gather by module: past the node indices, one per file.
  const CallNode& n = graph_.nodes()[cls];
  if (n.file < 0) return {};
  return {graph_.nodes().size() + static_cast<size_t>(n.file)};
}

void MacPath::find_package_families() {
  if (!missing_packages_ || missing_packages_->empty()) return;
  // Package names as a class name spells them: `transformer_engine` as `TransformerEngine`. The
  // CUDA runtime's own package (`cuda`) spells the device, whose families find_device_families reads.
  const auto squeezed = [](std::string_view text) {
    std::string out;
    for (const char c : text)
      if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  std::map<std::string, std::string> spelled;  // squeezed -> package
  for (const std::string& p : *missing_packages_)
    if (p != "cuda") spelled.emplace(squeezed(p), p);
  const std::vector<CallNode>& nodes = graph_.nodes();
  for (size_t c = 0; c < nodes.size(); ++c) {
    if (nodes[c].kind != CallNode::Kind::klass || !requires_[c].empty()) continue;
    const std::string name = last_name(nodes[c].name);
    // Each split of the name at a capital: a leading name (`Apex`) and the family's (`Scaler`).
    for (size_t at = 1; at + 1 < name.size() && requires_[c].empty(); ++at) {
      if (!std::isupper(static_cast<unsigned char>(name[at]))) continue;
      const auto package = spelled.find(squeezed(name.substr(0, at)));
      if (package == spelled.end()) continue;
      const std::string family = name.substr(at);
      // A sibling of the same family under another leading name that names no such package.
      for (const size_t g : groups_of(c)) {
        for (auto it = siblings_.lower_bound({g, ""}); it != siblings_.end() && it->first.first == g; ++it) {
          const std::string& other = it->first.second;
          if (it->second == c || other.size() <= family.size() || !other.ends_with(family)) continue;
          const std::string lead = other.substr(0, other.size() - family.size());
          if (!std::isupper(static_cast<unsigned char>(lead.front())) || spelled.count(squeezed(lead))) continue;
          requires_[c] = "`" + name + "` is the `" + package->second + "` member of a family whose other members a Mac uses (`" +
                         other + "`, " + nodes[it->second].path + ":" + std::to_string(nodes[it->second].line) + "); `" +
                         package->second + "` has no macOS build";
          break;
        }
        if (!requires_[c].empty()) break;
      }
    }
  }
}

void MacPath::find_caught_import_uses() {
  if (!missing_packages_ || missing_packages_->empty()) return;
  // The names each caught import of a missing package binds, by file.
  struct Name {
    std::string local, package;
    int line;
  };
  std::map<int, std::vector<Name>> names;
  for (const ImportFact& i : facts_.imports) {
    if (!i.caught || i.lazy || i.level > 0 || i.cell != 0) continue;
    const auto file = file_of_path_.find(i.path);
    if (file == file_of_path_.end()) continue;
    for (const CodeBinding& b : facts_.code[static_cast<size_t>(file->second)].bindings) {
      if (b.line != i.line || b.level > 0 || b.local == "*") continue;
      const std::string package = normalized_package(b.target.substr(0, b.target.find('.')));
      if (missing_packages_->count(package)) names[file->second].push_back({b.local, package, i.line});
    }
  }
  for (const auto& [file, bound] : names) {
    const CodeGraphFact& code = facts_.code[static_cast<size_t>(file)];
    for (const CodeCall& call : code.calls) {
      const std::string first = call.callee.substr(0, call.callee.find_first_of(".("));
      for (const Name& n : bound) {
        if (first != n.local) continue;
        // A use under a test of the name or of the package (`if amp is not None:`, `if
        // has_apex:`) is the fallback at work.
        bool tested = false;
        for (int c = call.condition; c >= 0 && !tested; c = code.conditions[static_cast<size_t>(c)].parent) {
          std::string text = code.conditions[static_cast<size_t>(c)].text;
          for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          tested = text.find(n.local) != std::string::npos || text.find(n.package) != std::string::npos;
        }
        if (tested) continue;
        // Module code runs where its module body does (a module imported only lazily runs
        // only where that import does).
        const auto node = call.caller >= 0
                              ? graph_.node_at(code.path, code.functions[static_cast<size_t>(call.caller)].line)
                              : graph_.module_node(code.path);
        if (!node) continue;
        const CallNode::Kind kind = graph_.nodes()[*node].kind;
        if (kind != (call.caller >= 0 ? CallNode::Kind::function : CallNode::Kind::module)) continue;
        const CaughtUse use{*node, file, call.condition, call.line};
        caught_uses_[{code.path, n.line}].push_back(use);
      }
    }
  }
}

std::optional<MacReach> MacPath::caught_import(const std::string& path, int line) const {
  const auto it = caught_uses_.find({path, line});
  if (it == caught_uses_.end()) return std::nullopt;
  std::optional<MacReach> best;
  for (const CaughtUse& use : it->second) {
    const int from = best_[use.node];
    if (from >= kUnreached) continue;
    const Level here = condition_level(use.file, use.condition);
    const int level = std::max(from, here.level);
    if (best && static_cast<int>(best->status) <= level) continue;
    MacReach r;
    r.status = static_cast<MacStatus>(level);
    r.chain = chain_of(use.node) + " → " + path + ":" + std::to_string(use.line) +
              (here.level > 0 ? " (" + here.label + ")" : "");
    r.deciding = here.level > from ? here.label : label_[use.node];
    best = std::move(r);
  }
  return best;
}

void MacPath::find_device_families() {
  const std::vector<CallNode>& nodes = graph_.nodes();
  cuda_member_.assign(nodes.size(), "");
  // An MPS class whose methods are mostly stubs (distributed_facts.h) is no way to run on a Mac.
  std::set<std::pair<std::string, int>> stubs;
  for (const EvidenceFact& e : facts_.evidence)
    if (e.kind == "mps-stub") stubs.emplace(e.path, e.line);
  // The device's name as a class name spells it: `CUDA`, `Cuda`, `cuda` and their MPS twins.
  static const std::pair<std::string_view, std::string_view> kSpellings[] = {{"CUDA", "MPS"}, {"Cuda", "Mps"}, {"cuda", "mps"}};
  for (size_t c = 0; c < nodes.size(); ++c) {
    if (nodes[c].kind != CallNode::Kind::klass) continue;
    const std::string name = last_name(nodes[c].name);
    for (const auto& [cuda, mps] : kSpellings) {
      const size_t at = name.find(cuda);
      if (at == std::string::npos) continue;
      const std::string twin = name.substr(0, at) + std::string(mps) + name.substr(at + cuda.size());
      for (const size_t g : groups_of(c)) {
        const auto it = siblings_.find({g, twin});
        if (it == siblings_.end() || stubs.count({nodes[it->second].path, nodes[it->second].line})) continue;
        cuda_member_[c] = "a device family's CUDA member, chosen only for a CUDA device: a Mac runs `" + twin + "` (" +
                          nodes[it->second].path + ":" + std::to_string(nodes[it->second].line) + ")";
        break;
      }
      if (!cuda_member_[c].empty()) break;
    }
  }
}

std::pair<int, std::string> MacPath::flag_origin(int file, std::string name) const {
  constexpr int kMaxHops = 4;
  for (int hop = 0; hop < kMaxHops && file >= 0; ++hop) {
    if (cuda_flags_.count({file, name}) || package_flags_.count({file, name})) return {file, name};
    const CodeGraphFact& code = facts_.code[static_cast<size_t>(file)];
    int next = -1;
    for (const CodeBinding& b : code.bindings) {
      if (b.local != name) continue;
      const auto t = model_.resolve_name(code.path, b.target, b.level);
      if (!t || t->rest.empty() || t->rest.find('.') != std::string::npos) continue;
      if (const auto it = file_of_path_.find(t->path); it != file_of_path_.end()) {
        next = it->second;
        name = t->rest;
      }
      break;
    }
    file = next;
  }
  return {-1, {}};
}

bool MacPath::reads_cuda_flag(int file, const CodeCondition& c) const {
  return !cuda_flags_.empty() && bare_flag_test(c) && cuda_flags_.count(flag_origin(file, c.option)) != 0;
}

std::string MacPath::missing_package(int file, const CodeCondition& c, bool& missing_when_true) const {
  if (!missing_packages_ || missing_packages_->empty() || c.kind != 'i') return {};
  // The inline test, read once per condition (package_tests_).
  const std::vector<CodeCondition>& conditions = facts_.code[static_cast<size_t>(file)].conditions;
  const bool listed = &c >= conditions.data() && &c < conditions.data() + conditions.size();
  if (const auto test = listed ? package_tests_.find({file, static_cast<int>(&c - conditions.data())}) : package_tests_.end();
      test != package_tests_.end()) {
    missing_when_true = test->second.negated;
    return test->second.package;
  }
  if (package_flags_.empty() || !bare_flag_test(c)) return {};
  const auto it = package_flags_.find(flag_origin(file, c.option));
  if (it == package_flags_.end() || !missing_packages_->count(it->second)) return {};
  missing_when_true = c.option_negated;
  return it->second;
}

std::string MacPath::requirement_of(int file, const CodeFunction& fn) const {
  const std::vector<CodeCondition>& conditions = facts_.code[static_cast<size_t>(file)].conditions;
  for (const int t : fn.raise_tests) {
    bool missing_when_true = false;
    const std::string package = missing_package(file, conditions[static_cast<size_t>(t)], missing_when_true);
    if (!package.empty() && missing_when_true)
      return "`" + fn.name + "` requires `" + package + "`, which has no macOS build (`if " +
             conditions[static_cast<size_t>(t)].text + ": raise`)";
  }
  return {};
}

int MacPath::test_value(int file, const CodeCondition& c, bool& option) const {
  option = false;
  int v = c.mac;
  bool missing_when_true = false;
  if (v == 2 && !missing_package(file, c, missing_when_true).empty()) return missing_when_true ? 1 : 0;
  if (v == 2 && !c.option.empty()) {
    if (reads_cuda_flag(file, c)) {
      v = c.option_negated ? 1 : 0;  // the flag is a CUDA test: false on a Mac
    } else {
      v = option_value(file, c);
      option = v != 2 && !is_device_option(c.option);
    }
  }
  return v;
}

int MacPath::option_value(int file, const CodeCondition& c) const {
  // The options of that name: the file's own first, else the repository's.
  std::vector<const CodeOption*> same, all;
  if (const auto it = options_.find(c.option); it != options_.end())
    for (const auto& [fi, o] : it->second) {
      all.push_back(o);
      if (fi == file) same.push_back(o);
    }
  const std::vector<const CodeOption*>& options = same.empty() ? all : same;
  int value = 2;
  if (is_device_option(c.option) && !c.option_value.empty()) {
    const bool accepts_mps = std::all_of(options.begin(), options.end(), [](const CodeOption* o) {
      return o->choices.empty() || o->choices.find("mps") != std::string::npos;
    });
    if (!accepts_mps) return 2;
    value = c.option_value.rfind("mps", 0) == 0 ? 1 : 0;
  } else {
    if (options.empty()) return 2;
    for (size_t i = 0; i < options.size(); ++i) {
      const std::string& d = options[i]->default_text;
      int v = c.option_value.empty() ? truth_of(d) : (is_string_literal(d) ? (strip_quotes(d) == c.option_value) : 2);
      if (i == 0) value = v;
      else if (v != value) value = 2;
      if (value == 2) break;
    }
  }
  if (value != 2 && c.option_negated) value = 1 - value;
  return value;
}

MacPath::Level MacPath::condition_level(int file, int condition, bool site) const {
  Level out;
  const std::vector<CodeCondition>& conditions = facts_.code[static_cast<size_t>(file)].conditions;
  // Parents precede their children (the decoder checks it), so the walk up ends.
  for (int at = condition; at >= 0; at = conditions[static_cast<size_t>(at)].parent) {
    const CodeCondition& c = conditions[static_cast<size_t>(at)];
    Level here;
    if (c.kind == 't') {
      if (site) continue;
      here = {3, "a failure there falls back: the `try` around it has an `except` that goes on"};
    } else if (c.kind == 'i') {
      bool option = false;
      int v = test_value(file, c, option);
      if (v != 2 && c.negated) v = 1 - v;
      const std::string test = "`" + c.text + "`";
      if (v == 0)
        here = option ? Level{2, (c.negated ? "only unless " : "only if ") + test + ", an option that is off by default"}
                      : Level{3, (c.negated ? "only unless " : "only if ") + test + ", false on a Mac"};
      else if (v == 2)
        here = {1, (c.negated ? "only unless " : "only if ") + test};
    }
    if (here.level > out.level) out = here;
  }
  return out;
}

MacPath::Level MacPath::edge_level(const CallEdge& edge) const {
  if (edge.via == 'i') return {edge.import_level, edge.import_detail};
  // A public method of an object runs when a user calls it (the class's own `m` edge, not a
  // dispatch through a method name), and a class or function named as a value (in a registry,
  // passed on) runs where it is chosen; one that refuses to run without a package a Mac cannot
  // install is a feature for machines that have it. A call to it on the path is no such choice,
  // nor is the constructor an instance runs.
  if (((edge.via == 'm' && !edge.needs_instance) || edge.via == 'v') && !requires_[edge.to].empty() &&
      !graph_.nodes()[edge.to].name.ends_with(".__init__"))
    return {static_cast<int>(MacStatus::optional_off), "only for a user who installs it: " + requires_[edge.to]};
  // A device family's CUDA member, named as a value (a registry of accelerators) or made on a
  // branch the defaults leave undecided (`if accelerator == "cuda":`), is what a CUDA device
  // gets: a Mac, with the device `mps`, gets the MPS member.
  const bool cuda_member = !cuda_member_[edge.to].empty();
  if (cuda_member && edge.via == 'v') return {static_cast<int>(MacStatus::not_on_mac), "only as " + cuda_member_[edge.to]};
  if (edge.file < 0 || edge.condition < 0) return {};
  Level l = condition_level(edge.file, edge.condition);
  if (cuda_member && l.level == static_cast<int>(MacStatus::optional))
    return {static_cast<int>(MacStatus::not_on_mac), l.label + ", " + cuda_member_[edge.to]};
  // A call on a feature branch to code that requires a package a Mac cannot install is that
  // feature's, as an import of the package there would be (assess.cpp): off a default run.
  if (l.level == static_cast<int>(MacStatus::optional) && !requires_[edge.to].empty())
    l = {static_cast<int>(MacStatus::optional_off), l.label + ", a feature that needs what " + requires_[edge.to]};
  return l;
}

void MacPath::search() {
  const std::vector<CallNode>& nodes = graph_.nodes();
  best_.assign(nodes.size(), kUnreached);
  via_.assign(nodes.size(), kNone);
  label_.assign(nodes.size(), "");
  std::vector<std::deque<size_t>> buckets(kUnreached);
  const auto core = [&](const std::string& path) { return !path.empty() && !is_peripheral(model_.role_of(path)); };
  for (size_t i = 0; i < nodes.size(); ++i) {
    const CallNode& n = nodes[i];
    if (!core(n.path)) continue;
    const ModuleNode* module = model_.module_of(n.path);
    bool root = false;
    if (n.kind == CallNode::Kind::module) root = module && module->root;
    // Public API: what a user calls directly, in a module the core loads.
    else if ((n.public_top && graph_.in_degree_from_core(i) == 0) || n.registered)
      root = module && (module->reach == Reach::unconditional || module->reach == Reach::lazy);
    if (root) {
      // A public function or class that refuses to run without a package a Mac cannot install
      // (its constructor's requirement, for a class) is a feature for machines that have it,
      // unless the path itself calls it.
      // The public CUDA member of a device family is a CUDA device's choice.
      int level = 0;
      if (n.kind != CallNode::Kind::module && !cuda_member_[i].empty()) {
        level = static_cast<int>(MacStatus::not_on_mac);
        label_[i] = "only as " + cuda_member_[i];
      } else if (n.kind != CallNode::Kind::module && !requires_[i].empty()) {
        level = static_cast<int>(MacStatus::optional_off);
        label_[i] = "only for a user who installs it: " + requires_[i];
      }
      best_[i] = level;
      buckets[static_cast<size_t>(level)].push_back(i);
    }
  }
  // A call on an object of unknown class (`self.accelerator.setup_device()`), or `self.run()`
  // reaching a subclass's override, reaches a method only of a class whose instances exist on
  // the path: a class made (or named as a value, or public API) there, or one of its subclasses. `instance_level`: the best level at
  // which a class or a subclass of it is reached; `waiting`: per class, the dispatch edges to its
  // methods seen before any instance of it was.
  std::vector<int> instance_level(nodes.size(), kUnreached);
  std::map<size_t, std::vector<size_t>> waiting;
  const auto reach = [&](size_t e, int level, const std::string& inherited) {
    const CallEdge& edge = graph_.edges()[e];
    const Level l = edge_level(edge);
    const int next = std::max(level, l.level);
    if (next >= best_[edge.to]) return;
    best_[edge.to] = next;
    via_[edge.to] = e;
    label_[edge.to] = l.level > level ? l.label : inherited;
    buckets[static_cast<size_t>(next)].push_back(edge.to);
  };
  // Best status = the path whose weakest edge is strongest: levels in order, breadth first
  // within each (shortest chain).
  for (int level = 0; level < kUnreached; ++level) {
    std::deque<size_t>& queue = buckets[static_cast<size_t>(level)];
    while (!queue.empty()) {
      const size_t at = queue.front();
      queue.pop_front();
      if (best_[at] != level) continue;
      for (const size_t e : graph_.out(at)) {
        const CallEdge& edge = graph_.edges()[e];
        if (edge.needs_instance)
          if (const auto cls = graph_.class_of(edge.to); cls && instance_level[*cls] > level) {
            waiting[*cls].push_back(e);
            continue;
          }
        reach(e, level, label_[at]);
      }
      if (nodes[at].kind != CallNode::Kind::klass) continue;
      // An instance of this class is one of each of its bases: release their waiting dispatches.
      for (const size_t cls : graph_.lineage(at, true)) {
        if (instance_level[cls] <= level) continue;
        instance_level[cls] = level;
        if (const auto w = waiting.find(cls); w != waiting.end()) {
          for (const size_t e : w->second) reach(e, level, label_[graph_.edges()[e].from]);
          waiting.erase(w);
        }
      }
    }
  }
}

std::string MacPath::chain_of(size_t node) const {
  const std::vector<CallNode>& nodes = graph_.nodes();
  std::vector<std::string> steps;
  size_t at = node;
  for (size_t guard = 0; guard <= nodes.size(); ++guard) {
    const CallNode& n = nodes[at];
    std::string step = n.kind == CallNode::Kind::module ? n.path
                       : n.kind == CallNode::Kind::method_name ? n.name + "()"
                                                               : n.name;
    const size_t e = via_[at];
    if (e != kNone) {
      const CallEdge& edge = graph_.edges()[e];
      const Level l = edge_level(edge);
      if (l.level > 0 && !l.label.empty()) step += " (" + l.label + ")";
    } else if (best_[at] > 0 && !label_[at].empty()) {
      step += " (" + label_[at] + ")";  // a root that is a choice (search())
    }
    steps.push_back(std::move(step));
    if (e == kNone) break;
    at = graph_.edges()[e].from;
  }
  std::reverse(steps.begin(), steps.end());
  // Name the file of the root and of the finding's function.
  const CallNode& root = nodes[at];
  if (root.kind != CallNode::Kind::module && !root.path.empty()) steps.front() = root.path + ":" + steps.front();
  if (steps.size() > 1 && nodes[node].kind != CallNode::Kind::module && !nodes[node].path.empty())
    steps.back() = nodes[node].path + ":" + std::to_string(nodes[node].line) + " " + steps.back();
  if (steps.size() > kMaxChainSteps) {
    steps.erase(steps.begin() + 2, steps.end() - static_cast<long>(kMaxChainSteps - 3));
    steps.insert(steps.begin() + 2, "…");
  }
  std::string out;
  for (const std::string& s : steps) out += (out.empty() ? "" : " → ") + s;
  return out;
}

std::optional<MacReach> MacPath::at(const std::string& path, int line) const {
  const auto node = graph_.node_at(path, line);
  if (!node) return std::nullopt;
  MacReach out;
  out.status = static_cast<MacStatus>(best_[*node]);
  if (best_[*node] < kUnreached) out.chain = chain_of(*node);
  out.deciding = label_[*node];
  return out;
}

std::pair<int, const CodeRegion*> MacPath::inner_region(const std::string& path, uint32_t start, uint32_t end) const {
  const auto file = file_of_path_.find(path);
  if (file == file_of_path_.end()) return {-1, nullptr};
  // The innermost region around the whole site: the narrowest span, the later one on a tie (a
  // region the walk met inside another). A site that holds the test itself (the ternary
  // `"cuda" if torch.cuda.is_available() else "cpu"`) lies in none of its branches.
  const CodeGraphFact& code = facts_.code[static_cast<size_t>(file->second)];
  const CodeRegion* inner = nullptr;
  for (const CodeRegion& r : code.regions)
    if (r.start <= start && end <= r.end && (!inner || r.end - r.start <= inner->end - inner->start)) inner = &r;
  return {file->second, inner};
}

MacPath::Level MacPath::site_level(const std::string& path, uint32_t start, uint32_t end) const {
  const auto [file, inner] = inner_region(path, start, end);
  if (!inner) return {};
  return condition_level(file, inner->condition, true);
}

std::string MacPath::taken_by_default(const std::string& path, uint32_t start, uint32_t end) const {
  const auto [file, inner] = inner_region(path, start, end);
  if (!inner || inner->condition < 0) return "";
  const std::vector<CodeCondition>& conditions = facts_.code[static_cast<size_t>(file)].conditions;
  std::string label;
  for (int at = inner->condition; at >= 0; at = conditions[static_cast<size_t>(at)].parent) {
    const CodeCondition& c = conditions[static_cast<size_t>(at)];
    if (c.kind != 'i') return "";  // a `try` or a handler: no test a default decides
    bool option = false;
    int v = test_value(file, c, option);
    if (v != 2 && c.negated) v = 1 - v;
    if (v != 1) return "";
    if (label.empty()) label = (c.negated ? "unless `" : "if `") + c.text + "`";
  }
  return label;
}

std::optional<MacReach> MacPath::at(const std::string& path, int line, uint32_t start, uint32_t end) const {
  std::optional<MacReach> out = at(path, line);
  if (!out) return out;
  const Level site = site_level(path, start, end);
  if (site.level < static_cast<int>(MacStatus::not_on_mac) || out->status == MacStatus::not_on_mac) return out;
  out->status = MacStatus::not_on_mac;
  out->deciding = site.label;
  const std::string here = path + ":" + std::to_string(line) + " (" + site.label + ")";
  out->chain = out->chain.empty() ? here : out->chain + " → " + here;
  return out;
}

bool MacPath::in_function(const std::string& path, int line) const {
  const auto node = graph_.node_at(path, line);
  return node && graph_.nodes()[*node].kind == CallNode::Kind::function;
}

}  // namespace mpsready
