#include "ops/native_functions.h"

#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace mpsready {

// One `- func:` entry (or one table row) before resolution. The yaml and the op-status table
// both come down to these facts, so both give the same statuses (tests/ops checks it).
struct RawEntry {
  std::string key;  // "name.overload" or "name"
  OpOverload op;
  // Dispatch keys split at commas (`CPU, CUDA, MPS: foo` gives three), as the table writes them:
  // MPS, CPU, CUDA, CEA, CEANF, CIA; any other key is "other".
  std::set<std::string> dispatch_keys;
  bool has_dispatch = false;
  std::string delegate;              // structured_delegate
  std::vector<std::string> autogen;  // ops generated from this one (`autogen: foo.out`)
  std::string out;                   // a functional op's out= overload
};

struct NativeFunctionsBuilder {
  static NativeFunctions build(std::vector<RawEntry> entries, const std::string& where, const std::string& version);
};

namespace {

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

std::string short_key(const std::string& key) {
  if (key == "MPS" || key == "CPU" || key == "CUDA") return key;
  if (key == "CompositeExplicitAutograd") return "CEA";
  if (key == "CompositeExplicitAutogradNonFunctional") return "CEANF";
  if (key == "CompositeImplicitAutograd") return "CIA";
  return "other";
}

// An argument of an operator schema: `Tensor(a!) out` after `*` is keyword-only and mutable.
struct SchemaArg {
  std::string type, name;
  bool keyword_only = false;
  bool is_out() const { return keyword_only && type.find('!') != std::string::npos; }
};

// The arguments of "name.overload(args) -> ret" (defaults dropped), as scripts/gen-op-tables.py
// reads them.
std::vector<SchemaArg> schema_args(std::string_view func) {
  std::vector<SchemaArg> args;
  const size_t open = func.find('(');
  if (open == std::string_view::npos) return args;
  size_t close = std::string_view::npos;
  int depth = 0;
  for (size_t i = open; i < func.size(); ++i) {
    if (func[i] == '(') ++depth;
    if (func[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos) close = func.size();
  const std::string_view inner = func.substr(open + 1, close - open - 1);
  std::vector<std::string> pieces;
  depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    const char c = i < inner.size() ? inner[i] : ',';
    if (c == '(' || c == '[') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (c == ',' && (depth == 0 || i == inner.size())) {
      if (auto piece = trim(inner.substr(start, i - start)); !piece.empty()) pieces.push_back(std::move(piece));
      start = i + 1;
    }
  }
  bool keyword_only = false;
  for (const std::string& piece : pieces) {
    if (piece == "*") {
      keyword_only = true;
      continue;
    }
    const std::string declaration = trim(piece.substr(0, piece.find('=')));
    const size_t space = declaration.rfind(' ');
    SchemaArg arg;
    arg.type = space == std::string::npos ? "" : declaration.substr(0, space);
    arg.name = space == std::string::npos ? declaration : declaration.substr(space + 1);
    arg.keyword_only = keyword_only;
    args.push_back(std::move(arg));
  }
  return args;
}

// The arguments that identify a functional op and its out= overload: every argument but the
// keyword-only mutable ones, alias annotations removed (`Tensor(a)` is `Tensor`).
std::string functional_signature(const std::vector<SchemaArg>& args) {
  static const std::regex kAnnotation(R"(\([^)]*\))");
  std::string signature;
  for (const SchemaArg& a : args)
    if (!a.is_out()) signature += std::regex_replace(a.type, kAnnotation, "") + " " + a.name + ";";
  return signature;
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

RawEntry read_entry(const YAML::Node& node, const std::string& where, std::string& func) {
  if (!node.IsMap()) throw NativeFunctionsError(where_line(where, node) + ": an entry is not a mapping");
  RawEntry e;
  func = scalar(node, "func", where);
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
      for (const auto& k : split_commas(kv.first.as<std::string>())) e.dispatch_keys.insert(short_key(k));
  }
  e.delegate = scalar(node, "structured_delegate", where);
  e.autogen = split_commas(scalar(node, "autogen", where));
  return e;
}

// The status an entry's own dispatch section gives, ignoring a structured delegate.
OpStatus own_status(const RawEntry& e) {
  const auto has = [&](const char* k) { return e.dispatch_keys.count(k) > 0; };
  if (has("MPS")) return OpStatus::kernel;
  if (has("CEA") || has("CEANF")) return OpStatus::generic;
  if (has("CIA")) return OpStatus::composite;
  // No dispatch section: codegen registers it as CompositeImplicitAutograd.
  if (!e.has_dispatch && e.delegate.empty()) return OpStatus::composite;
  return OpStatus::missing;
}

// Kernels for devices (CPU, CUDA, any other backend key), as opposed to composite kernels.
bool has_device_kernel(const RawEntry& e) {
  for (const char* k : {"MPS", "CPU", "CUDA", "other"})
    if (e.dispatch_keys.count(k)) return true;
  return false;
}

std::string read_file(const std::filesystem::path& path, const std::string& label) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NativeFunctionsError(label + ": cannot read the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

constexpr std::string_view kTableMagic = "# mpsready op-status table 1";

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

std::string qualified_op(const OpOverload& op) {
  return "aten::" + op.name + (op.overload.empty() ? "" : "." + op.overload);
}

NativeFunctions NativeFunctions::load(const std::filesystem::path& path, const std::string& version,
                                      const std::string& label) {
  const std::string where = label.empty() ? path.filename().string() : label;
  const std::string text = read_file(path, where);
  if (text.compare(0, kTableMagic.size(), kTableMagic) == 0) return parse_table(text, where, version);
  return parse(text, where, version);
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
  std::set<std::string, std::less<>> keys;
  std::vector<std::pair<bool, std::string>> functional;  // per entry: functional, its signature
  std::map<std::string, std::string> out_by_signature;   // "name|signature" -> first out= overload
  entries.reserve(root.size());
  try {
    for (const auto& node : root) {
      std::string func;
      RawEntry e = read_entry(node, where, func);
      if (!keys.insert(e.key).second) continue;  // the first definition wins, as in codegen's error path
      const std::vector<SchemaArg> args = schema_args(func);
      bool mutable_arg = false, out_arg = false;
      for (const SchemaArg& a : args) {
        mutable_arg = mutable_arg || a.type.find('!') != std::string::npos;
        out_arg = out_arg || a.is_out();
      }
      const std::string signature = e.op.name + "|" + functional_signature(args);
      if (out_arg && !e.op.name.ends_with("_")) out_by_signature.emplace(signature, e.key);
      functional.emplace_back(!mutable_arg, signature);
      entries.push_back(std::move(e));
    }
  } catch (const YAML::Exception& e) {
    throw NativeFunctionsError(where + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!functional[i].first) continue;
    if (const auto it = out_by_signature.find(functional[i].second); it != out_by_signature.end())
      entries[i].out = it->second;
  }
  return NativeFunctionsBuilder::build(std::move(entries), where, version);
}

NativeFunctions NativeFunctions::parse_table(const std::string& text, const std::string& where,
                                             const std::string& version) {
  std::vector<RawEntry> entries;
  std::set<std::string, std::less<>> keys;
  std::string recorded_version, commit;
  std::istringstream in(text);
  std::string line;
  size_t line_no = 0;
  const auto fail = [&](const std::string& why) {
    throw NativeFunctionsError(where + ":" + std::to_string(line_no) + ": " + why);
  };
  const auto dash = [](const std::string& s) { return s == "-" ? std::string() : s; };
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 && line != kTableMagic) fail("not an op-status table (its first line is not \"" + std::string(kTableMagic) + "\")");
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.rfind("# pytorch: ", 0) == 0) recorded_version = line.substr(11);
      if (line.rfind("# commit: ", 0) == 0) commit = line.substr(10);
      continue;
    }
    std::vector<std::string> cols;
    std::stringstream row(line);
    std::string col;
    while (std::getline(row, col, '\t')) cols.push_back(col);
    if (cols.size() != 6) fail("a row needs 6 tab-separated columns, this one has " + std::to_string(cols.size()));
    RawEntry e;
    if (!split_func_schema(cols[0] + "()", e.op.name, e.op.overload)) fail("not an operator name: " + cols[0]);
    e.key = cols[0];
    e.op.method = cols[1] == "m";
    if (cols[2] != "-") {
      e.has_dispatch = true;
      if (cols[2] != "none")
        for (auto& k : split_commas(cols[2])) e.dispatch_keys.insert(std::move(k));
    }
    e.delegate = dash(cols[3]);
    if (cols[4] != "-") e.autogen = split_commas(cols[4]);
    e.out = dash(cols[5]);
    if (keys.insert(e.key).second) entries.push_back(std::move(e));
  }
  if (line_no == 0) throw NativeFunctionsError(where + ": empty file");
  NativeFunctions table =
      NativeFunctionsBuilder::build(std::move(entries), where, version.empty() ? recorded_version : version);
  table.commit_ = commit;
  table.table_ = true;
  return table;
}

NativeFunctions NativeFunctionsBuilder::build(std::vector<RawEntry> entries, const std::string& where,
                                              const std::string& version) {
  std::map<std::string, size_t, std::less<>> index;
  for (size_t i = 0; i < entries.size(); ++i) index.emplace(entries[i].key, i);

  NativeFunctions table;
  table.version_ = version;
  table.where_ = where;
  for (const RawEntry& e : entries) {
    OpOverload op = e.op;
    op.status = own_status(e);
    op.delegate = e.delegate;
    op.cpu_kernel = e.dispatch_keys.count("CPU") > 0;
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
        op.cpu_kernel = op.cpu_kernel || d.dispatch_keys.count("CPU") > 0;
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
  // missing (inferred): a CompositeExplicitAutograd functional op's one kernel calls its out=
  // overload; when that overload has device kernels but none for MPS, so does the op in effect.
  for (const RawEntry& e : entries) {
    if (e.out.empty() || !e.dispatch_keys.count("CEA") || e.dispatch_keys.count("MPS")) continue;
    OpOverload& op = table.ops_.at(e.key);
    const auto out = index.find(e.out);
    if (op.status != OpStatus::generic || out == index.end()) continue;
    if (table.ops_.at(e.out).status == OpStatus::missing && has_device_kernel(entries[out->second])) {
      op.status = OpStatus::missing;
      op.inferred = true;
      op.through = e.out;
      op.cpu_kernel = table.ops_.at(e.out).cpu_kernel;
    }
  }
  // `autogen: foo.out` adds an op with a generated CompositeExplicitAutograd kernel that calls the
  // declaring op, so it runs on MPS exactly when the declaring op does.
  for (const RawEntry& e : entries) {
    const OpOverload& from = table.ops_.at(e.key);
    for (const std::string& generated : e.autogen) {
      OpOverload op;
      if (!split_func_schema(generated + "()", op.name, op.overload) || table.ops_.count(generated)) continue;
      op.status = from.status == OpStatus::missing || from.status == OpStatus::unknown ? from.status : OpStatus::generic;
      op.inferred = from.inferred;
      op.through = from.through;
      op.cpu_kernel = from.cpu_kernel;
      table.ops_.emplace(generated, std::move(op));
    }
  }
  for (const auto& [key, op] : table.ops_) table.by_name_[op.name].push_back(&op);
  return table;
}

const OpOverload* NativeFunctions::find(std::string_view name, std::string_view overload) const {
  std::string key(name);
  if (!overload.empty()) key += "." + std::string(overload);
  const auto it = ops_.find(key);
  return it == ops_.end() ? nullptr : &it->second;
}

OpStatus NativeFunctions::status(std::string_view name, std::string_view overload) const {
  const OpOverload* op = find(name, overload);
  return op ? op->status : OpStatus::unknown;
}

const OpOverload* NativeFunctions::default_op(std::string_view name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return nullptr;
  const OpOverload* best = nullptr;
  for (const OpOverload* op : it->second) {
    if (op->overload.empty()) return op;
    const bool out_variant = op->overload == "out" || op->overload.ends_with("_out");
    if (!out_variant && (!best || op_status_rank(op->status) > op_status_rank(best->status))) best = op;
  }
  return best;
}

OpStatus NativeFunctions::default_status(std::string_view name) const {
  const OpOverload* op = default_op(name);
  return op ? op->status : OpStatus::unknown;
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
  return std::string(table_ ? "op-status table" : "native_functions.yaml") + " of PyTorch " +
         (version_.empty() ? std::string("(version unknown)") : version_) + " (" + where_ + ")";
}

}  // namespace mpsready
