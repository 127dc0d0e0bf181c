#include "python/distributed_facts.h"

#include <re2/re2.h>

#include "core/source_text.h"

namespace mpsready {
namespace {

constexpr size_t kContinuationLines = 12;
constexpr size_t kDistributedEvidenceText = 100;

struct Line {
  int number = 0;
  std::string_view text;
  size_t indent = 0;  // npos: blank or comment
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> out;
  size_t start = 0;
  int number = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t indent = line.find_first_not_of(" \t");
    if (indent != std::string_view::npos && line[indent] == '#') indent = std::string_view::npos;
    out.push_back({++number, line, indent});
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

re2::StringPiece piece(std::string_view s) { return {s.data(), s.size()}; }

// A method body statement that offers nothing: raise NotImplementedError, return None or a
// NotImplemented* object, pass, `...`, or a docstring line.
bool is_stub_statement(std::string_view code) {
  static const RE2 stub(
      R"re(^(?:raise\s+NotImplementedError\b.*|return\s*(?:None)?\s*|return\s+NotImplemented\w*\b.*|pass|\.\.\.|[rRbBuU]?["'].*)$)re");
  return RE2::FullMatch(piece(code), stub);
}

// The arguments of the call whose `(` is at `open` on line `i`, joined over continuation lines.
std::string call_arguments(const std::vector<Line>& lines, size_t i, size_t open) {
  std::string out;
  int depth = 0;
  for (size_t k = i; k < lines.size() && k < i + kContinuationLines; ++k) {
    std::string_view t = lines[k].text;
    for (size_t c = k == i ? open : 0; c < t.size(); ++c) {
      const char ch = t[c];
      if (ch == '#') break;
      if (ch == '(' || ch == '[' || ch == '{') ++depth;
      if (ch == ')' || ch == ']' || ch == '}') --depth;
      if (depth == 0) return out.size() > 0 ? out.substr(1) : out;
      out += ch;
    }
    out += ' ';
  }
  return {};
}

// The backend argument: `backend=...`, else the first positional argument.
std::string backend_argument(const std::string& args) {
  int depth = 0;
  std::vector<std::string> parts(1);
  for (char ch : args) {
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (ch == ',' && depth == 0) parts.emplace_back();
    else parts.back() += ch;
  }
  static const RE2 keyword(R"(^\s*backend\s*=\s*(.*?)\s*$)");
  static const RE2 other_keyword(R"(^\s*\w+\s*=[^=])");
  std::string value;
  for (const std::string& p : parts)
    if (RE2::FullMatch(p, keyword, &value)) return value;
  if (!parts.empty() && !RE2::PartialMatch(parts[0], other_keyword)) {
    static const RE2 trim(R"(^\s*(.*?)\s*$)");
    RE2::FullMatch(parts[0], trim, &value);
  }
  return value;
}

}  // namespace

DistributedScan scan_distributed(const std::string& path, std::string_view text) {
  DistributedScan out;
  const bool has_init = text.find("init_process_group") != std::string_view::npos;
  const bool has_mps = text.find("mps") != std::string_view::npos || text.find("MPS") != std::string_view::npos ||
                       text.find("Mps") != std::string_view::npos;
  if (!has_init && !has_mps) return out;
  const std::vector<Line> lines = split_lines(text);
  static const RE2 def_re(R"(^\s*(?:async\s+)?def\s+(\w+)\s*\()");
  static const RE2 class_re(R"(^\s*class\s+(\w+))");
  static const RE2 mps_name(R"((?i)mps)");
  static const RE2 stub_entry(R"re(["']mps["']\s*:\s*(?:None|NotImplemented\w*)\b)re");
  static const RE2 table_start(R"(^\s*(?:self\.)?(\w+)\s*(?::[^=]*)?=\s*(?:\{|dict\())");

  // Classes for MPS and their methods.
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (l.indent == std::string_view::npos) continue;
    std::string name;
    if (has_mps && RE2::PartialMatch(piece(l.text), class_re, &name) && RE2::PartialMatch(name, mps_name)) {
      size_t end = i + 1;
      while (end < lines.size() && (lines[end].indent == std::string_view::npos || lines[end].indent > l.indent)) ++end;
      std::string stubs;
      int methods = 0, stub_methods = 0;
      for (size_t k = i + 1; k < end; ++k) {
        std::string method;
        if (!RE2::PartialMatch(piece(lines[k].text), def_re, &method)) continue;
        const size_t def_indent = lines[k].indent;
        size_t body = k + 1;
        // A signature over several lines ends at the line that ends with ':'.
        while (body < end && lines[body - 1].text.find(':') == std::string_view::npos) ++body;
        bool stub = true, any = false, in_doc = false;
        size_t m = body;
        for (; m < end && (lines[m].indent == std::string_view::npos || lines[m].indent > def_indent); ++m) {
          if (lines[m].indent == std::string_view::npos) continue;
          const std::string_view code = lines[m].text.substr(lines[m].indent);
          const size_t quotes = [&] {
            size_t n = 0, p = 0;
            while ((p = code.find("\"\"\"", p)) != std::string_view::npos) ++n, p += 3;
            return n;
          }();
          if (in_doc || quotes > 0) {
            if (quotes % 2 == 1) in_doc = !in_doc;
            continue;
          }
          any = true;
          if (!is_stub_statement(code)) stub = false;
        }
        k = m - 1;
        if (method.size() > 4 && method.rfind("__", 0) == 0) continue;  // dunders are no capability
        ++methods;
        if (stub && any) {
          ++stub_methods;
          stubs += (stubs.empty() ? "" : " ") + method;
        }
      }
      if (stub_methods > 0) {
        out.facts.push_back({path, l.number, "mps-stub-class", name, stubs});
        if (stub_methods * 2 > methods) {
          out.stub_lines.emplace_back(l.number, lines[end - 1].number);
          out.evidence.push_back({path, l.number, 0, "mps-stub",
                                  shorten_utf8(l.text.substr(l.indent), kDistributedEvidenceText) + " (" +
                                      std::to_string(stub_methods) + " of " + std::to_string(methods) +
                                      " methods only raise or return None)"});
        }
      }
    }
    // A per-device table whose MPS entry is None.
    if (has_mps && RE2::PartialMatch(piece(l.text), stub_entry)) {
      std::string table;
      for (size_t k = i + 1; k-- > 0 && k + 20 > i;) {
        if (lines[k].indent == std::string_view::npos) continue;
        if (RE2::PartialMatch(piece(lines[k].text), table_start, &table)) break;
        if (k < i && lines[k].indent < l.indent && lines[k].text.find('{') == std::string_view::npos) break;
      }
      out.stub_lines.emplace_back(l.number, l.number);
      if (!table.empty()) out.facts.push_back({path, l.number, "mps-stub-table", table, ""});
    }
  }

  // Process groups a public function always initialises.
  if (has_init) {
    struct Def {
      size_t indent;
      std::string name;
      size_t body_indent = std::string_view::npos;
      size_t first_line;
    };
    std::vector<Def> defs;
    for (size_t i = 0; i < lines.size(); ++i) {
      const Line& l = lines[i];
      if (l.indent == std::string_view::npos) continue;
      while (!defs.empty() && l.indent <= defs.back().indent) defs.pop_back();
      if (!defs.empty() && defs.back().body_indent == std::string_view::npos) defs.back().body_indent = l.indent;
      std::string name;
      if (RE2::PartialMatch(piece(l.text), def_re, &name)) {
        defs.push_back({l.indent, name, std::string_view::npos, i});
        // A signature over several lines: its body starts after the line that ends with ':'.
        while (i + 1 < lines.size() && lines[i].text.find_last_not_of(" \t") != std::string_view::npos &&
               lines[i].text[lines[i].text.find_last_not_of(" \t")] != ':' && i < defs.back().first_line + kContinuationLines)
          ++i;
        continue;
      }
      const size_t call = l.text.find("init_process_group");
      if (call == std::string_view::npos || defs.empty()) continue;
      const Def& def = defs.back();
      const bool is_public = def.name == "__init__" || def.name[0] != '_';
      if (!is_public || l.indent != def.body_indent) continue;  // only the unconditional statements
      const size_t open = l.text.find('(', call);
      if (open == std::string_view::npos) continue;
      std::string backend = backend_argument(call_arguments(lines, i, open));
      if (backend.empty() || backend[0] == '"' || backend[0] == '\'') continue;  // literals are other rules'
      // One local assignment: `backend = BACKENDS[device]`.
      static const RE2 identifier(R"(^[A-Za-z_]\w*$)");
      if (RE2::FullMatch(backend, identifier)) {
        const RE2 assignment("^\\s*" + backend + "\\s*(?::[^=]*)?=\\s*(.*?)\\s*$");
        std::string value;
        for (size_t k = i; k-- > def.first_line;)
          if (RE2::FullMatch(piece(lines[k].text), assignment, &value)) {
            backend = value;
            break;
          }
      }
      out.facts.push_back({path, l.number, "init", def.name, backend});
    }
  }
  return out;
}

}  // namespace mpsready
