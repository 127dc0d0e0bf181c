#pragma once
// Where a preprocessor line ends: the token scanners mark a directive's tokens so that
// `#if x.is_cuda()` or a macro body is never read as a statement.
#include <string_view>

namespace mpsready {

// The offset of the newline that ends the preprocessor line starting at `offset` (or the text's
// end), following backslash continuations, also before a CR.
inline size_t directive_line_end(std::string_view text, size_t offset) {
  size_t p = offset;
  while (p < text.size()) {
    const size_t nl = text.find('\n', p);
    if (nl == std::string_view::npos) return text.size();
    size_t back = nl;
    if (back > 0 && text[back - 1] == '\r') --back;
    if (back > 0 && text[back - 1] == '\\') {
      p = nl + 1;
      continue;
    }
    return nl;
  }
  return text.size();
}

}  // namespace mpsready
