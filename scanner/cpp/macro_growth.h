#pragma once
// An upper estimate of how many tokens a file's own macros expand to, read from its raw tokens
// before Clang sees it. A few lines can ask the preprocessor for billions of tokens: object-like
// (`#define X1 X0 X0`, `#define X2 X1 X1`, ...) or function-like (`#define F(x) x x x` used as
// `F(F(F(...)))`), where Clang copies each pre-expanded argument eagerly, inside one declaration,
// with no callback in between (30 nested uses took 24 GB before the process was killed).
// Files above the bound are read token by token only.
#include <cstdint>
#include <vector>

#include "token_scanner.h"

namespace mpsready {

inline constexpr uint64_t kMaxEstimatedExpansion = 2'000'000;

// The estimated number of tokens after expanding the file's own macros (saturating at a value
// above kMaxEstimatedExpansion). Macros from headers are unknown here and count as one token.
uint64_t estimated_expansion(const std::vector<CppToken>& tokens, std::string_view text);

}  // namespace mpsready
