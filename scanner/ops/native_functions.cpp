#include "ops/native_functions.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace mpsready {
namespace {

// One `- func:` entry before resolution.
struct RawEntry {
  std::string key;  // "name.overload" or "name"
  OpOverload op;
  std::set<std::string> dispatch_keys;  // split at commas: `CPU, CUDA, MPS: foo` gives three
  bool has_dispatch = false;
  std::string delegate;                 // structured_delegate
  std::vector<std::string> autogen;     // ops generated from this one (`autogen: foo.out`)
};

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, ','))
    if (auto t = trim(part); !t.empty()) out.push_back(std::move(t));
  return out;
}

std::string where_line(const std::string& where, const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? where + ":" + std::to_string(mark.line + 1) : where;
}

std::string scalar(const YAML::Node& node, const char* key, const std::string& where) {
  const YAML::Node value = node[key];
  if (!value) return {};
  if (!value.IsScalar())
    throw NativeFunctionsError(where_line(where, value) + ": \"" + key + "\" must be a string");
  return value.Scalar();
}

RawEntry read_entry(const YAML::Node& node, const std::string& where) {
  if (!node.IsMap()) throw NativeFunctionsError(where_line(where, node) + ": an entry is not a mapping");
  RawEntry e;
  const std::string func = scalar(node, "func", where);
  if (func.empty()) throw NativeFunctionsError(where_line(where, node) + ": an entry has no \"func\"");
  if (!split_func_schema(func, e.op.name, e.op.overload))
    throw NativeFunctionsError(where_line(where, node) + ": \"func\" is not an operator schema: " + func);
  e.key = e.op.overload.empty() ? e.op.name : e.op.name + "." + e.op.overload;
  // Without `variants`, codegen makes a function only.
  for (const auto& v : split_commas(scalar(node, "variants", where)))
    if (v == "method") e.op.method = true;
  if (const YAML::Node dispatch = node["dispatch"]) {
    if (!dispatch.IsMap())
      throw NativeFunctionsError(where_line(where, dispatch) + ": \"dispatch\" must be a mapping");
    e.has_dispatch = true;
    for (const auto& kv : dispatch)
      for (auto& k : split_commas(kv.first.as<std::string>())) e.dispatch_keys.insert(std::move(k));
  }
  e.delegate = scalar(node, "structured_delegate", where);
  e.autogen = split_commas(scalar(node, "autogen", where));
  return e;
}

// The status an entry's own dispatch section gives, ignoring a structured delegate.
OpStatus own_status(const RawEntry& e) {
  const auto has = [&](const char* k) { return e.dispatch_keys.count(k) > 0; };
  if (has("MPS")) return OpStatus::kernel;
  if (has("CompositeExplicitAutograd") || has("CompositeExplicitAutogradNonFunctional")) return OpStatus::generic;
  if (has("CompositeImplicitAutograd")) return OpStatus::composite;
  // No dispatch section: codegen registers it as CompositeImplicitAutograd.
  if (!e.has_dispatch && e.delegate.empty()) return OpStatus::composite;
  return OpStatus::missing;
}

}  // namespace

bool split_func_schema(std::string_view func, std::string& name, std::string& overload) {
  const size_t paren = func.find('(');
  if (paren == std::string_view::npos || paren == 0) return false;
  const std::string head = trim(func.substr(0, paren));
  const size_t dot = head.find('.');
  name = head.substr(0, dot);
  overload = dot == std::string::npos ? "" : head.substr(dot + 1);
  if (name.empty()) return false;
  for (char c : head)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

NativeFunctions NativeFunctions::load(const std::filesystem::path& path, const std::string& version) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NativeFunctionsError(path.string() + ": cannot read the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse(buffer.str(), path.string(), version);
}

NativeFunctions NativeFunctions::parse(const std::string& text, const std::string& where, const std::string& version) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw NativeFunctionsError(where + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  if (!root.IsSequence())
    throw NativeFunctionsError(where + ": not a native_functions.yaml (the document is not a list of `- func:` entries)");

  std::vector<RawEntry> entries;
  std::map<std::string, size_t, std::less<>> index;
  entries.reserve(root.size());
  try {
    for (const auto& node : root) {
      RawEntry e = read_entry(node, where);
      if (index.count(e.key)) continue;  // the first definition wins, as in codegen's error path
      index.emplace(e.key, entries.size());
      entries.push_back(std::move(e));
    }
  } catch (const YAML::Exception& e) {
    throw NativeFunctionsError(where + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }

  NativeFunctions table;
  table.version_ = version;
  table.path_ = where;
  for (const RawEntry& e : entries) {
    OpOverload op = e.op;
    op.status = own_status(e);
    if (op.status != OpStatus::kernel && !e.delegate.empty()) {
      // structured_delegate: the functional and in-place forms run the `.out` kernel. Follow the
      // chain iteratively (it is one hop in PyTorch; a malformed file may loop).
      OpStatus through = OpStatus::unknown;
      std::string next = e.delegate;
      for (int hop = 0; hop < 8 && !next.empty(); ++hop) {
        const auto it = index.find(next);
        if (it == index.end()) break;
        const RawEntry& d = entries[it->second];
        through = own_status(d);
        if (through == OpStatus::kernel || d.delegate.empty()) break;
        next = d.delegate;
      }
      // A delegate with no MPS kernel leaves what the entry's own keys give; a delegate that is
      // not in the file leaves the op unknown rather than guessed.
      if (through == OpStatus::unknown) {
        if (op.status == OpStatus::missing) op.status = OpStatus::unknown;
      } else if (op_status_rank(through) > op_status_rank(op.status)) {
        op.status = through;
      }
    }
    table.ops_.emplace(e.key, std::move(op));
  }
  // `autogen: foo.out` adds an op with a generated CompositeExplicitAutograd kernel that calls the
  // declaring op, so it runs on MPS exactly when the declaring op does.
  for (const RawEntry& e : entries) {
    const OpStatus from = table.ops_.at(e.key).status;
    for (const std::string& generated : e.autogen) {
      OpOverload op;
      if (!split_func_schema(generated + "()", op.name, op.overload) || table.ops_.count(generated)) continue;
      op.status = from == OpStatus::missing || from == OpStatus::unknown ? from : OpStatus::generic;
      table.ops_.emplace(generated, std::move(op));
    }
  }
  for (const auto& [key, op] : table.ops_) table.by_name_[op.name].push_back(&op);
  return table;
}

OpStatus NativeFunctions::status(std::string_view name, std::string_view overload) const {
  std::string key(name);
  if (!overload.empty()) key += "." + std::string(overload);
  const auto it = ops_.find(key);
  return it == ops_.end() ? OpStatus::unknown : it->second.status;
}

OpStatus NativeFunctions::default_status(std::string_view name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return OpStatus::unknown;
  OpStatus best = OpStatus::unknown;
  for (const OpOverload* op : it->second) {
    if (op->overload.empty()) return op->status;
    const bool out_variant = op->overload == "out" || op->overload.ends_with("_out");
    if (!out_variant && op_status_rank(op->status) > op_status_rank(best)) best = op->status;
  }
  return best;
}

bool NativeFunctions::has_name(std::string_view name) const { return by_name_.count(name) > 0; }

bool NativeFunctions::is_method(std::string_view name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return false;
  for (const OpOverload* op : it->second)
    if (op->method) return true;
  return false;
}

std::string NativeFunctions::describe() const {
  return "native_functions.yaml (PyTorch " + (version_.empty() ? std::string("version unknown") : version_) +
         ", " + path_ + ")";
}

}  // namespace mpsready
