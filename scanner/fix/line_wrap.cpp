#include "fix/line_wrap.h"

#include <vector>

namespace mpsready {

namespace {

// Columns a text takes, a tab kept as a tab: what goes under it to align with its end.
std::string padding_for(std::string_view text) {
  std::string pad;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\t') pad += '\t';
    else if ((c & 0xC0) != 0x80) pad += ' ';
  }
  return pad;
}

// Whether the line's text before a site leaves a bracket open: then the site's expression may
// break lines as it is, with no parentheses of its own.
bool inside_brackets(std::string_view prefix) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < prefix.size(); ++i) {
    const char c = prefix[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return false;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return depth > 0;
}

}  // namespace

std::optional<std::string> wrapped_at_else(std::string_view line_prefix, std::string_view replacement) {
  if (replacement.find('\n') != std::string_view::npos) return std::nullopt;
  // Each top-level ` else ` (outside strings) with the bracket that holds it (npos: none).
  struct Break {
    size_t at;
    size_t opener;
  };
  std::vector<Break> breaks;
  std::vector<size_t> open;
  char quote = 0;
  for (size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') open.push_back(i);
    else if ((c == ')' || c == ']' || c == '}') && !open.empty()) open.pop_back();
    else if (replacement.substr(i, 6) == " else ") breaks.push_back({i, open.empty() ? std::string_view::npos : open.back()});
  }
  if (quote || !open.empty() || breaks.empty()) return std::nullopt;
  // The outermost chain: the breaks of the first one's bracket.
  size_t opener = breaks.front().opener;
  for (const Break& b : breaks)
    if (b.opener == std::string_view::npos || (opener != std::string_view::npos && b.opener < opener)) opener = b.opener;
  const bool top_level = opener == std::string_view::npos;
  const bool add_parens = top_level && !inside_brackets(line_prefix);
  const std::string pad = padding_for(line_prefix) +
                          (top_level ? std::string(add_parens ? " " : "") : padding_for(replacement.substr(0, opener + 1)));
  std::string out = add_parens ? "(" : "";
  size_t at = 0;
  for (const Break& b : breaks) {
    if (b.opener != opener) continue;
    out.append(replacement.substr(at, b.at - at));
    out += "\n" + pad + "else ";
    at = b.at + 6;
  }
  out.append(replacement.substr(at));
  if (add_parens) out += ")";
  return out;
}

}  // namespace mpsready
