#include "cython/cython_tokens.h"

namespace mpsready {
namespace {

bool name_start(unsigned char c) { return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c >= 0x80; }
bool name_char(unsigned char c) { return name_start(c) || (c >= '0' && c <= '9'); }

// Whether `prefix` (the name just read) may start a string literal: b, r, u, f, c and their pairs.
bool string_prefix(std::string_view prefix) {
  if (prefix.empty() || prefix.size() > 2) return false;
  for (char c : prefix)
    if (std::string_view("bBrRuUfFcC").find(c) == std::string_view::npos) return false;
  return true;
}

}  // namespace

std::vector<CythonToken> lex_cython(std::string_view text) {
  std::vector<CythonToken> out;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '#') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      i += 2;
      continue;
    }
    if (c <= ' ') {
      ++i;
      continue;
    }
    size_t start = i;
    if (name_start(c)) {
      while (i < n && name_char(static_cast<unsigned char>(text[i]))) ++i;
      if (!(i < n && (text[i] == '"' || text[i] == '\'') && string_prefix(text.substr(start, i - start)))) {
        out.push_back({CythonToken::Kind::name, text.substr(start, i - start), static_cast<uint32_t>(start),
                       static_cast<uint32_t>(i)});
        continue;
      }
    }
    if (i < n && (text[i] == '"' || text[i] == '\'')) {
      const char quote = text[i];
      const bool triple = i + 2 < n && text[i + 1] == quote && text[i + 2] == quote;
      const size_t open = i + (triple ? 3 : 1);
      size_t j = open;
      size_t close = n;
      while (j < n) {
        if (text[j] == '\\') {
          j += 2;
          continue;
        }
        if (!triple && text[j] == '\n') {  // an unterminated string ends at its line
          close = j;
          break;
        }
        if (text[j] == quote && (!triple || (j + 2 < n && text[j + 1] == quote && text[j + 2] == quote))) {
          close = j;
          j += triple ? 3 : 1;
          break;
        }
        ++j;
      }
      if (j > n) j = n;
      close = std::min(close, n);
      out.push_back({CythonToken::Kind::string, text.substr(open, close - open), static_cast<uint32_t>(start),
                     static_cast<uint32_t>(j)});
      i = j;
      continue;
    }
    out.push_back({CythonToken::Kind::other, text.substr(i, 1), static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)});
    ++i;
  }
  return out;
}

}  // namespace mpsready
