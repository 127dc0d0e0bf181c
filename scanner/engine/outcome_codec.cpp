#include "engine/outcome_codec.h"

#include <cstring>

#include "engine/code_graph_codec.h"

namespace mpsready {

void put_varint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void put_string(std::string& out, std::string_view s) {
  put_varint(out, s.size());
  out.append(s);
}

void put_fixed64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

bool ByteReader::varint(uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= bytes_.size()) return false;
    const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

bool ByteReader::view(std::string_view& value) {
  uint64_t size = 0;
  if (!varint(size) || size > bytes_.size() - pos_) return false;
  value = bytes_.substr(pos_, size);
  pos_ += size;
  return true;
}

bool ByteReader::raw(size_t size, std::string_view& value) {
  if (size > bytes_.size() - pos_) return false;
  value = bytes_.substr(pos_, size);
  pos_ += size;
  return true;
}

bool ByteReader::string(std::string& value) {
  std::string_view v;
  if (!view(v)) return false;
  value.assign(v);
  return true;
}

bool ByteReader::fixed64(uint64_t& value) {
  if (bytes_.size() - pos_ < 8) return false;
  value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
  pos_ += 8;
  return true;
}

namespace {

// Signed values (line numbers are never negative, but nothing here relies on it) as zigzag.
void put_int(std::string& out, int64_t v) { put_varint(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }

bool get_int(ByteReader& in, int& v) {
  uint64_t raw = 0;
  if (!in.varint(raw)) return false;
  v = static_cast<int>(static_cast<int64_t>(raw >> 1) ^ -static_cast<int64_t>(raw & 1));
  return true;
}

bool get_bool(ByteReader& in, bool& v) {
  uint64_t raw = 0;
  if (!in.varint(raw) || raw > 1) return false;
  v = raw == 1;
  return true;
}

bool get_u32(ByteReader& in, uint32_t& v) {
  uint64_t raw = 0;
  if (!in.varint(raw) || raw > UINT32_MAX) return false;
  v = static_cast<uint32_t>(raw);
  return true;
}

// A count no larger than the bytes left could hold (every element takes at least one byte), so
// a corrupt count cannot make the decoder reserve gigabytes.
bool get_count(ByteReader& in, size_t& n, size_t total) {
  uint64_t raw = 0;
  if (!in.varint(raw) || raw > total) return false;
  n = static_cast<size_t>(raw);
  return true;
}

// An optional impact: 0 for none, else the impact plus one.
void put_optional_impact(std::string& out, const std::optional<Impact>& impact) {
  put_varint(out, impact ? static_cast<uint64_t>(*impact) + 1 : 0);
}

bool get_optional_impact(ByteReader& in, std::optional<Impact>& impact) {
  uint64_t raw = 0;
  if (!in.varint(raw) || raw > static_cast<uint64_t>(Impact::blocker) + 1) return false;
  impact = raw ? std::optional<Impact>(static_cast<Impact>(raw - 1)) : std::nullopt;
  return true;
}

// A file's findings are sites: what the front end saw (Finding::site), never an impact, which
// the assessment makes from the rules of each run.
void put_site(std::string& out, const SiteContext& s) {
  put_optional_impact(out, s.own);
  put_optional_impact(out, s.guarded_own);
  put_varint(out, s.guarded);
  put_optional_impact(out, s.cap);
  put_string(out, s.cap_note);
  put_optional_impact(out, s.limit);
  put_varint(out, s.device_branch);
}

bool get_site(ByteReader& in, SiteContext& s) {
  return get_optional_impact(in, s.own) && get_optional_impact(in, s.guarded_own) && get_bool(in, s.guarded) &&
         get_optional_impact(in, s.cap) && in.string(s.cap_note) && get_optional_impact(in, s.limit) &&
         get_bool(in, s.device_branch);
}

void put_finding(std::string& out, const Finding& f) {
  put_string(out, f.rule);
  put_string(out, f.category);
  put_site(out, f.site);
  put_string(out, f.path);
  put_int(out, f.location.line);
  put_int(out, f.location.column);
  put_int(out, f.location.end_line);
  put_int(out, f.location.end_column);
  put_int(out, f.location.cell);
  put_int(out, f.location.file_line);
  put_int(out, f.location.file_column);
  put_string(out, f.message);
  put_string(out, f.fix);
  put_string(out, f.snippet);
  put_varint(out, f.guarded);
  put_varint(out, f.mechanical);
  put_string(out, f.mode);
  put_varint(out, f.start_byte);
  put_varint(out, f.end_byte);
}

bool get_finding(ByteReader& in, Finding& f) {
  if (!in.string(f.rule) || !in.string(f.category) || !get_site(in, f.site) || !in.string(f.path)) return false;
  return get_int(in, f.location.line) && get_int(in, f.location.column) && get_int(in, f.location.end_line) &&
         get_int(in, f.location.end_column) && get_int(in, f.location.cell) && get_int(in, f.location.file_line) &&
         get_int(in, f.location.file_column) && in.string(f.message) &&
         in.string(f.fix) && in.string(f.snippet) && get_bool(in, f.guarded) && get_bool(in, f.mechanical) &&
         in.string(f.mode) && get_u32(in, f.start_byte) && get_u32(in, f.end_byte);
}

void put_notes(std::string& out, const std::vector<FileNote>& notes) {
  put_varint(out, notes.size());
  for (const FileNote& n : notes) {
    put_string(out, n.path);
    put_string(out, n.reason);
    put_varint(out, n.unread);
  }
}

bool get_notes(ByteReader& in, std::vector<FileNote>& notes, size_t total) {
  size_t n = 0;
  if (!get_count(in, n, total)) return false;
  notes.resize(n);
  for (FileNote& note : notes)
    if (!in.string(note.path) || !in.string(note.reason) || !get_bool(in, note.unread)) return false;
  return true;
}

void put_strings(std::string& out, const std::vector<std::string>& list) {
  put_varint(out, list.size());
  for (const auto& s : list) put_string(out, s);
}

bool get_strings(ByteReader& in, std::vector<std::string>& list, size_t total) {
  size_t n = 0;
  if (!get_count(in, n, total)) return false;
  list.resize(n);
  for (auto& s : list)
    if (!in.string(s)) return false;
  return true;
}

// A repository-relative path that stays inside the root.
bool is_inside_root(std::string_view p) {
  if (p.empty() || p.front() == '/') return false;
  size_t start = 0;
  while (start <= p.size()) {
    const size_t end = std::min(p.find('/', start), p.size());
    if (p.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

void encode_outcome(const FileOutcome& o, std::string& out) {
  put_varint(out, o.scanned);
  put_varint(out, o.parsed);
  put_varint(out, o.findings.size());
  for (const Finding& f : o.findings) put_finding(out, f);
  put_notes(out, o.errors);
  put_notes(out, o.skipped);
  const RepoFacts& facts = o.facts;
  put_varint(out, facts.imports.size());
  for (const ImportFact& i : facts.imports) {
    put_string(out, i.path);
    put_int(out, i.line);
    put_int(out, i.cell);
    put_string(out, i.module);
    put_varint(out, i.guarded);
    put_int(out, i.level);
    put_varint(out, i.lazy);
    put_string(out, i.function);
    put_string(out, i.branch);
    put_varint(out, i.in_main_block);
    put_varint(out, i.caught);
  }
  put_strings(out, facts.python_files);
  put_varint(out, facts.dependencies.size());
  for (const DependencyFact& d : facts.dependencies) {
    put_string(out, d.path);
    put_int(out, d.line);
    put_int(out, d.column);
    put_string(out, d.rule);
    put_string(out, d.package);
    put_strings(out, d.modules);
    put_varint(out, d.limited);
    put_string(out, d.extra);
  }
  put_varint(out, facts.extensions.size());
  for (const ExtensionFact& e : facts.extensions) {
    put_string(out, e.path);
    put_int(out, e.line);
    put_string(out, e.name);
    put_varint(out, e.cuda);
    put_strings(out, e.sources);
    put_varint(out, e.jit);
    put_varint(out, e.guarded);
    put_varint(out, e.lazy);
    put_string(out, e.branch);
  }
  put_varint(out, facts.cpp_units.size());
  for (const CppUnitFact& u : facts.cpp_units) {
    put_string(out, u.path);
    put_varint(out, u.cuda_code);
    put_varint(out, u.cpu_registration);
    put_varint(out, u.ops.size());
    for (const CppOpFact& op : u.ops) {
      put_int(out, op.line);
      put_string(out, op.name);
      put_string(out, op.function);
      put_string(out, op.key);
      put_varint(out, op.schema_only);
      put_varint(out, op.cuda_only);
      put_varint(out, op.lambda_cpu);
    }
    put_varint(out, u.functions.size());
    for (const CppFunctionFact& fn : u.functions) {
      put_string(out, fn.name);
      put_varint(out, fn.cpu);
      put_string(out, fn.dispatches);
      put_strings(out, fn.calls);
    }
    put_varint(out, u.device_impls.size());
    for (const CppDeviceImplFact& impl : u.device_impls) {
      put_int(out, impl.line);
      put_string(out, impl.key);
      put_string(out, impl.device);
      put_string(out, impl.function);
      put_varint(out, impl.cuda_only);
    }
  }
  put_varint(out, facts.modules.size());
  for (const ModuleFact& m : facts.modules) {
    put_string(out, m.path);
    put_int(out, m.main_line);
    put_int(out, m.main_end_line);
    put_varint(out, m.cuda_only_raises.size());
    for (int line : m.cuda_only_raises) put_int(out, line);
  }
  put_varint(out, facts.evidence.size());
  for (const EvidenceFact& e : facts.evidence) {
    put_string(out, e.path);
    put_int(out, e.line);
    put_int(out, e.cell);
    put_string(out, e.kind);
    put_string(out, e.text);
  }
  put_varint(out, facts.entry_points.size());
  for (const EntryPointFact& e : facts.entry_points) {
    put_string(out, e.path);
    put_int(out, e.line);
    put_string(out, e.module);
    put_string(out, e.script);
  }
  put_varint(out, facts.packages.size());
  for (const PackageFact& p : facts.packages) {
    put_string(out, p.path);
    put_int(out, p.line);
    put_string(out, p.kind);
    put_string(out, p.text);
  }
  put_varint(out, facts.distributed.size());
  for (const DistributedFact& d : facts.distributed) {
    put_string(out, d.path);
    put_int(out, d.line);
    put_string(out, d.kind);
    put_string(out, d.name);
    put_string(out, d.text);
  }
  put_code_graphs(out, facts.code);
}

std::optional<FileOutcome> decode_outcome(std::string_view bytes, const std::string& path) {
  ByteReader in(bytes);
  const size_t total = bytes.size();
  FileOutcome o;
  size_t n = 0;
  if (!get_bool(in, o.scanned) || !get_bool(in, o.parsed) || !get_count(in, n, total)) return std::nullopt;
  o.findings.resize(n);
  for (Finding& f : o.findings)
    if (!get_finding(in, f) || f.path != path) return std::nullopt;
  if (!get_notes(in, o.errors, total) || !get_notes(in, o.skipped, total)) return std::nullopt;
  for (const auto* notes : {&o.errors, &o.skipped})
    for (const FileNote& note : *notes)
      if (note.path != path) return std::nullopt;
  RepoFacts& facts = o.facts;
  if (!get_count(in, n, total)) return std::nullopt;
  facts.imports.resize(n);
  for (ImportFact& i : facts.imports)
    if (!in.string(i.path) || i.path != path || !get_int(in, i.line) || !get_int(in, i.cell) ||
        !in.string(i.module) || !get_bool(in, i.guarded) || !get_int(in, i.level) || !get_bool(in, i.lazy) ||
        !in.string(i.function) || !in.string(i.branch) || !get_bool(in, i.in_main_block) ||
        !get_bool(in, i.caught))
      return std::nullopt;
  if (!get_strings(in, facts.python_files, total)) return std::nullopt;
  for (const auto& p : facts.python_files)
    if (p != path) return std::nullopt;
  if (!get_count(in, n, total)) return std::nullopt;
  facts.dependencies.resize(n);
  for (DependencyFact& d : facts.dependencies)
    if (!in.string(d.path) || d.path != path || !get_int(in, d.line) || !get_int(in, d.column) ||
        !in.string(d.rule) || !in.string(d.package) || !get_strings(in, d.modules, total) || !get_bool(in, d.limited) ||
        !in.string(d.extra))
      return std::nullopt;
  if (!get_count(in, n, total)) return std::nullopt;
  facts.extensions.resize(n);
  for (ExtensionFact& e : facts.extensions) {
    if (!in.string(e.path) || e.path != path || !get_int(in, e.line) || !in.string(e.name) || !get_bool(in, e.cuda) ||
        !get_strings(in, e.sources, total) || !get_bool(in, e.jit) || !get_bool(in, e.guarded) ||
        !get_bool(in, e.lazy) || !in.string(e.branch))
      return std::nullopt;
    for (const auto& s : e.sources)
      if (!is_inside_root(s)) return std::nullopt;
  }
  if (!get_count(in, n, total)) return std::nullopt;
  facts.cpp_units.resize(n);
  for (CppUnitFact& u : facts.cpp_units) {
    if (!in.string(u.path) || u.path != path || !get_bool(in, u.cuda_code) || !get_bool(in, u.cpu_registration))
      return std::nullopt;
    if (!get_count(in, n, total)) return std::nullopt;
    u.ops.resize(n);
    for (CppOpFact& op : u.ops)
      if (!get_int(in, op.line) || !in.string(op.name) || !in.string(op.function) || !in.string(op.key) ||
          !get_bool(in, op.schema_only) || !get_bool(in, op.cuda_only) || !get_bool(in, op.lambda_cpu))
        return std::nullopt;
    if (!get_count(in, n, total)) return std::nullopt;
    u.functions.resize(n);
    for (CppFunctionFact& fn : u.functions)
      if (!in.string(fn.name) || !get_bool(in, fn.cpu) || !in.string(fn.dispatches) || !get_strings(in, fn.calls, total))
        return std::nullopt;
    if (!get_count(in, n, total)) return std::nullopt;
    u.device_impls.resize(n);
    for (CppDeviceImplFact& impl : u.device_impls)
      if (!get_int(in, impl.line) || !in.string(impl.key) || !in.string(impl.device) || !in.string(impl.function) ||
          !get_bool(in, impl.cuda_only))
        return std::nullopt;
  }
  if (!get_count(in, n, total)) return std::nullopt;
  facts.modules.resize(n);
  for (ModuleFact& m : facts.modules) {
    if (!in.string(m.path) || m.path != path || !get_int(in, m.main_line) || !get_int(in, m.main_end_line))
      return std::nullopt;
    if (!get_count(in, n, total)) return std::nullopt;
    m.cuda_only_raises.resize(n);
    for (int& line : m.cuda_only_raises)
      if (!get_int(in, line)) return std::nullopt;
  }
  if (!get_count(in, n, total)) return std::nullopt;
  facts.evidence.resize(n);
  for (EvidenceFact& e : facts.evidence)
    if (!in.string(e.path) || e.path != path || !get_int(in, e.line) || !get_int(in, e.cell) || !in.string(e.kind) ||
        !in.string(e.text))
      return std::nullopt;
  if (!get_count(in, n, total)) return std::nullopt;
  facts.entry_points.resize(n);
  for (EntryPointFact& e : facts.entry_points)
    if (!in.string(e.path) || e.path != path || !get_int(in, e.line) || !in.string(e.module) || !in.string(e.script) ||
        (!e.script.empty() && !is_inside_root(e.script)))
      return std::nullopt;
  if (!get_count(in, n, total)) return std::nullopt;
  facts.packages.resize(n);
  for (PackageFact& p : facts.packages)
    if (!in.string(p.path) || p.path != path || !get_int(in, p.line) || !in.string(p.kind) || !in.string(p.text))
      return std::nullopt;
  if (!get_count(in, n, total)) return std::nullopt;
  facts.distributed.resize(n);
  for (DistributedFact& d : facts.distributed)
    if (!in.string(d.path) || d.path != path || !get_int(in, d.line) || !in.string(d.kind) || !in.string(d.name) ||
        !in.string(d.text))
      return std::nullopt;
  if (!get_code_graphs(in, facts.code, path, total)) return std::nullopt;
  if (!in.at_end()) return std::nullopt;
  return o;
}

}  // namespace mpsready
