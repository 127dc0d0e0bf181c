#pragma once
// Bracket tokens as the C++ readers of token streams see them (guards and per-device registries).
#include <cstddef>
#include <string_view>

namespace mpsready::cpp_tokens {

inline constexpr size_t npos = static_cast<size_t>(-1);

inline bool is_open(std::string_view s) { return s == "(" || s == "[" || s == "{"; }
inline bool is_close(std::string_view s) { return s == ")" || s == "]" || s == "}"; }

}  // namespace mpsready::cpp_tokens
