#include "engine/code_graph_codec.h"

namespace mpsready {
namespace {

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

bool get_count(ByteReader& in, size_t& n, size_t total) {
  uint64_t raw = 0;
  if (!in.varint(raw) || raw > total) return false;
  n = static_cast<size_t>(raw);
  return true;
}

bool get_u32(ByteReader& in, uint32_t& v) {
  uint64_t raw = 0;
  if (!in.varint(raw) || raw > UINT32_MAX) return false;
  v = static_cast<uint32_t>(raw);
  return true;
}

void put_spans(std::string& out, const std::vector<std::pair<uint32_t, uint32_t>>& spans) {
  put_varint(out, spans.size());
  for (const auto& [a, b] : spans) {
    put_varint(out, a);
    put_varint(out, b);
  }
}

bool get_spans(ByteReader& in, std::vector<std::pair<uint32_t, uint32_t>>& spans, size_t total) {
  size_t n = 0;
  if (!get_count(in, n, total)) return false;
  spans.resize(n);
  for (auto& [a, b] : spans)
    if (!get_u32(in, a) || !get_u32(in, b)) return false;
  return true;
}

bool in_range(int index, size_t size) { return index >= -1 && index < static_cast<int>(size); }

}  // namespace

void put_code_graphs(std::string& out, const std::vector<CodeGraphFact>& facts) {
  put_varint(out, facts.size());
  for (const CodeGraphFact& g : facts) {
    put_string(out, g.path);
    put_varint(out, g.functions.size());
    for (const CodeFunction& f : g.functions) {
      put_string(out, f.name);
      put_string(out, f.cls);
      put_int(out, f.line);
      put_int(out, f.end_line);
      put_varint(out, f.registered);
      put_varint(out, f.raise_tests.size());
      for (const int t : f.raise_tests) put_int(out, t);
    }
    put_varint(out, g.classes.size());
    for (const CodeClass& c : g.classes) {
      put_string(out, c.name);
      put_int(out, c.line);
      put_varint(out, c.bases.size());
      for (const auto& b : c.bases) put_string(out, b);
    }
    put_varint(out, g.conditions.size());
    for (const CodeCondition& c : g.conditions) {
      put_int(out, c.parent);
      put_string(out, c.text);
      put_varint(out, c.negated);
      put_varint(out, static_cast<unsigned char>(c.kind));
      put_int(out, c.mac);
      put_string(out, c.option);
      put_string(out, c.option_value);
      put_varint(out, c.option_negated);
    }
    put_varint(out, g.calls.size());
    for (const CodeCall& c : g.calls) {
      put_int(out, c.caller);
      put_int(out, c.line);
      put_string(out, c.callee);
      put_int(out, c.condition);
      put_varint(out, c.value);
      put_varint(out, c.in_main_block);
    }
    put_varint(out, g.bindings.size());
    for (const CodeBinding& b : g.bindings) {
      put_string(out, b.local);
      put_string(out, b.target);
      put_int(out, b.level);
      put_int(out, b.line);
    }
    put_varint(out, g.options.size());
    for (const CodeOption& o : g.options) {
      put_string(out, o.name);
      put_string(out, o.default_text);
      put_int(out, o.line);
      put_string(out, o.choices);
    }
    put_spans(out, g.default_spans);
    put_spans(out, g.fallback_spans);
    put_varint(out, g.regions.size());
    for (const CodeRegion& r : g.regions) {
      put_varint(out, r.start);
      put_varint(out, r.end);
      put_int(out, r.condition);
    }
    put_varint(out, g.cuda_flags.size());
    for (const std::string& name : g.cuda_flags) put_string(out, name);
    put_varint(out, g.package_flags.size());
    for (const auto& [name, package] : g.package_flags) {
      put_string(out, name);
      put_string(out, package);
    }
  }
}

bool get_code_graphs(ByteReader& in, std::vector<CodeGraphFact>& facts, const std::string& path, size_t total) {
  size_t n = 0;
  if (!get_count(in, n, total)) return false;
  facts.resize(n);
  for (CodeGraphFact& g : facts) {
    if (!in.string(g.path) || g.path != path || !get_count(in, n, total)) return false;
    g.functions.resize(n);
    for (CodeFunction& f : g.functions) {
      size_t tests = 0;
      if (!in.string(f.name) || !in.string(f.cls) || !get_int(in, f.line) || !get_int(in, f.end_line) ||
          !get_bool(in, f.registered) || !get_count(in, tests, total))
        return false;
      f.raise_tests.resize(tests);
      for (int& t : f.raise_tests)
        if (!get_int(in, t)) return false;  // checked against the conditions below
    }
    if (!get_count(in, n, total)) return false;
    g.classes.resize(n);
    for (CodeClass& c : g.classes) {
      size_t bases = 0;
      if (!in.string(c.name) || !get_int(in, c.line) || !get_count(in, bases, total)) return false;
      c.bases.resize(bases);
      for (auto& b : c.bases)
        if (!in.string(b)) return false;
    }
    if (!get_count(in, n, total)) return false;
    g.conditions.resize(n);
    for (size_t i = 0; i < g.conditions.size(); ++i) {
      CodeCondition& c = g.conditions[i];
      uint64_t kind = 0;
      // A condition's parent comes before it: the walk adds the enclosing one first.
      if (!get_int(in, c.parent) || c.parent < -1 || c.parent >= static_cast<int>(i) || !in.string(c.text) ||
          !get_bool(in, c.negated) || !in.varint(kind) || (kind != 'i' && kind != 't' && kind != 'x') ||
          !get_int(in, c.mac) || c.mac < 0 || c.mac > 2 || !in.string(c.option) || !in.string(c.option_value) ||
          !get_bool(in, c.option_negated))
        return false;
      c.kind = static_cast<char>(kind);
    }
    if (!get_count(in, n, total)) return false;
    g.calls.resize(n);
    for (CodeCall& c : g.calls)
      if (!get_int(in, c.caller) || !in_range(c.caller, g.functions.size()) || !get_int(in, c.line) ||
          !in.string(c.callee) || !get_int(in, c.condition) || !in_range(c.condition, g.conditions.size()) ||
          !get_bool(in, c.value) || !get_bool(in, c.in_main_block))
        return false;
    if (!get_count(in, n, total)) return false;
    g.bindings.resize(n);
    for (CodeBinding& b : g.bindings)
      if (!in.string(b.local) || !in.string(b.target) || !get_int(in, b.level) || !get_int(in, b.line)) return false;
    if (!get_count(in, n, total)) return false;
    g.options.resize(n);
    for (CodeOption& o : g.options)
      if (!in.string(o.name) || !in.string(o.default_text) || !get_int(in, o.line) || !in.string(o.choices)) return false;
    if (!get_spans(in, g.default_spans, total) || !get_spans(in, g.fallback_spans, total)) return false;
    if (!get_count(in, n, total)) return false;
    g.regions.resize(n);
    for (CodeRegion& r : g.regions)
      if (!get_u32(in, r.start) || !get_u32(in, r.end) || r.end < r.start || !get_int(in, r.condition) ||
          r.condition < 0 || r.condition >= static_cast<int>(g.conditions.size()))
        return false;
    if (!get_count(in, n, total)) return false;
    g.cuda_flags.resize(n);
    for (std::string& name : g.cuda_flags)
      if (!in.string(name)) return false;
    if (!get_count(in, n, total)) return false;
    g.package_flags.resize(n);
    for (auto& [name, package] : g.package_flags)
      if (!in.string(name) || !in.string(package)) return false;
    for (const CodeFunction& f : g.functions)
      for (const int t : f.raise_tests)
        if (t < 0 || t >= static_cast<int>(g.conditions.size())) return false;
  }
  return true;
}

}  // namespace mpsready
