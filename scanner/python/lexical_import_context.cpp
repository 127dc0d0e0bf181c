#include "python/lexical_import_context.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

namespace mpsready {
namespace {

enum class BlockKind { function, klass, main, other };

struct Block {
  size_t indent = 0;
  BlockKind kind = BlockKind::other;
  std::string name;
  bool control_flow_seen = false;  // a function body had an `if`, `return`, ... before this line
};

struct Context {
  bool lazy = false;
  std::string function;
  bool in_main_block = false;
};

bool starts_with_word(std::string_view line, std::string_view word) {
  if (line.substr(0, word.size()) != word) return false;
  if (line.size() == word.size()) return true;
  const char next = line[word.size()];
  return next == ' ' || next == ':' || next == '(' || next == '\t';
}

std::string identifier_after(std::string_view line, std::string_view keyword) {
  std::string name;
  for (size_t i = keyword.size(); i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' && name.empty()) continue;
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) break;
    name += c;
  }
  return name;
}

// `skip`, `skipif`, `skipTest`, `SkipTest`, `importorskip`.
bool mentions_skip(std::string_view line) {
  return line.find("skip") != std::string_view::npos || line.find("Skip") != std::string_view::npos;
}

bool is_control_word(std::string_view line) {
  for (std::string_view w : {"if", "elif", "else", "try", "except", "finally", "with", "for", "while", "match",
                             "case", "async", "return", "raise", "assert", "yield", "continue", "break", "del",
                             "global", "nonlocal", "lambda"})
    if (starts_with_word(line, w)) return true;
  return false;
}

// Scans one logical-line piece for brackets, strings and comments. Returns false when the line
// leaves something it cannot follow (an unterminated single-quoted string).
struct LineScan {
  int bracket_delta = 0;
  bool opens_triple = false;  // ends inside a triple-quoted string
  std::string triple;         // its delimiter
  bool backslash = false;     // ends with a line continuation
  bool ok = true;
};

LineScan scan_line(std::string_view line) {
  LineScan out;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '#') break;
    if (c == '(' || c == '[' || c == '{') ++out.bracket_delta;
    else if (c == ')' || c == ']' || c == '}') --out.bracket_delta;
    else if (c == '"' || c == '\'') {
      const std::string_view triple = line.substr(i, 3);
      if (triple == "\"\"\"" || triple == "'''") {
        const size_t close = line.find(triple, i + 3);
        if (close == std::string_view::npos) {
          out.opens_triple = true;
          out.triple = std::string(triple);
          return out;
        }
        i = close + 2;
        continue;
      }
      size_t j = i + 1;
      while (j < line.size() && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      if (j >= line.size()) {
        out.ok = false;
        return out;
      }
      i = j;
    }
  }
  size_t end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\r')) --end;
  out.backslash = end > 0 && line[end - 1] == '\\';
  return out;
}

std::optional<Context> context_of(const std::vector<Block>& stack) {
  Context ctx;
  for (size_t i = 0; i < stack.size(); ++i) {
    const Block& b = stack[i];
    if (b.kind == BlockKind::other || b.control_flow_seen) return std::nullopt;
    if (b.kind == BlockKind::main) ctx.in_main_block = true;
    if (b.kind == BlockKind::function) {
      ctx.lazy = true;
      ctx.function = (i > 0 && stack[i - 1].kind == BlockKind::klass) ? stack[i - 1].name + "." + b.name : b.name;
    }
  }
  return ctx;
}

}  // namespace

bool resolve_lexical_contexts(std::string_view text, std::vector<ImportFact>& facts) {
  std::map<int, std::optional<Context>> wanted;  // line of an indented import -> its context
  for (const ImportFact& f : facts)
    if (f.guarded) wanted[f.line] = std::nullopt;
  if (wanted.empty()) return true;
  std::vector<Block> stack;
  std::string in_triple;
  int depth = 0;
  bool continued = false;
  size_t skip_decorator_at = std::numeric_limits<size_t>::max();
  bool module_may_exit = false;
  int line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const bool is_wanted = wanted.count(line_no) > 0;
    if (!in_triple.empty()) {
      // Inside a docstring or a multi-line string: an `import` here is text, which only the
      // parse can tell for sure.
      if (is_wanted) return false;
      const size_t close = line.find(in_triple);
      if (close == std::string_view::npos) continue;
      in_triple.clear();
      const LineScan rest = scan_line(line.substr(close + 3));
      if (!rest.ok || rest.opens_triple) return false;
      depth += rest.bracket_delta;
      continued = rest.backslash;
      if (depth < 0) return false;
      continue;
    }
    if (depth > 0 || continued) {
      if (is_wanted) return false;
      const LineScan s = scan_line(line);
      if (!s.ok) return false;
      depth += s.bracket_delta;
      continued = s.backslash;
      if (depth < 0) return false;
      if (s.opens_triple) in_triple = s.triple;
      continue;
    }
    size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    if (indent < line.size() && line[indent] == '\t') return false;  // tab widths are the parser's business
    std::string_view body = line.substr(indent);
    while (!body.empty() && (body.back() == ' ' || body.back() == '\r')) body.remove_suffix(1);
    if (body.empty() || body.front() == '#') continue;
    while (!stack.empty() && stack.back().indent >= indent) stack.pop_back();
    // A module-level block that may leave the module early (`if not ...: pytest.skip(...,
    // allow_module_level=True)`, `sys.exit()`) guards everything after it.
    if (!stack.empty() && stack.front().kind == BlockKind::other &&
        (mentions_skip(body) || body.find("exit(") != std::string_view::npos))
      module_may_exit = true;
    if (is_wanted) {
      if (module_may_exit) return false;
      const auto ctx = context_of(stack);
      if (!ctx || indent == 0 || stack.empty()) return false;
      wanted[line_no] = ctx;
    }
    const LineScan s = scan_line(body);
    if (!s.ok) return false;
    // Block headers open a level; anything else that changes control flow taints the
    // functions around it for the imports that follow.
    // The function a skip decorator decorates is as unknown as the decorator.
    const bool decorated_by_skip = skip_decorator_at == indent;
    if (!body.empty() && body.front() != '@') skip_decorator_at = std::numeric_limits<size_t>::max();
    if (starts_with_word(body, "def") || (starts_with_word(body, "async") && body.find("def ") != std::string_view::npos)) {
      const std::string_view keyword = starts_with_word(body, "def") ? "def" : body.substr(0, body.find("def") + 3);
      stack.push_back({indent, BlockKind::function, identifier_after(body, keyword), decorated_by_skip});
    } else if (starts_with_word(body, "class")) {
      stack.push_back({indent, BlockKind::klass, identifier_after(body, "class"), decorated_by_skip});
    } else if (starts_with_word(body, "if") && body.find("__name__") != std::string_view::npos &&
               body.find("__main__") != std::string_view::npos) {
      stack.push_back({indent, BlockKind::main, "", false});
    } else if (is_control_word(body)) {
      for (Block& b : stack)
        if (b.kind == BlockKind::function) b.control_flow_seen = true;
      // Pushed for every control line: one without a block (`return x`) is popped by the next
      // line, which is never deeper.
      stack.push_back({indent, BlockKind::other, "", false});
    } else if (body.front() == '@' && mentions_skip(body)) {
      // A test-skip decorator can guard the function or class it decorates.
      skip_decorator_at = indent;
    } else if (indent == 0 && mentions_skip(body)) {
      // `pytestmark = pytest.mark.skipif(...)`, `pytest.importorskip(...)`: the whole module.
      module_may_exit = true;
    }
    depth += s.bracket_delta;
    continued = s.backslash;
    if (depth < 0) return false;
    if (s.opens_triple) in_triple = s.triple;
  }
  for (const auto& [line, ctx] : wanted)
    if (!ctx) return false;
  for (ImportFact& f : facts) {
    if (!f.guarded) continue;
    const Context& ctx = *wanted.at(f.line);
    f.guarded = false;
    f.lazy = ctx.lazy;
    f.function = ctx.function;
    f.in_main_block = ctx.in_main_block;
  }
  return true;
}

}  // namespace mpsready
