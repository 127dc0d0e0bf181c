#pragma once
// Cython's tokens as far as the CUDA rules need them: names, string literals (with their
// prefixes and triple quotes), single punctuation characters; `#` comments and line continuations
// skipped. One forward pass, no recursion, so any input costs time linear in its size.
#include <cstdint>
#include <string_view>
#include <vector>

namespace mpsready {

struct CythonToken {
  enum class Kind { name, string, other };
  Kind kind = Kind::other;
  std::string_view spelling;  // a string's text without prefix and quotes
  uint32_t offset = 0;        // of the token's first byte
  uint32_t end = 0;
};

std::vector<CythonToken> lex_cython(std::string_view text);

}  // namespace mpsready
