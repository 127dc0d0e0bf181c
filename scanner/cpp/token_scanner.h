#pragma once
// The raw tokens of a C++/CUDA file (Clang's lexer in raw mode: no preprocessing, comments
// dropped, string literals kept whole). Lexical rules match token sequences, which needs no
// headers and survives any parse error.
#include <string>
#include <string_view>
#include <vector>

namespace mpsready {

struct CppToken {
  std::string_view spelling;  // points into the scanned text
  uint32_t offset = 0;        // byte offset in the text
  bool is_identifier = false;
  bool is_string = false;
  bool starts_directive = false;  // the `#` that begins a preprocessor line
};

std::vector<CppToken> lex_cpp(std::string_view text, bool cuda);

}  // namespace mpsready
