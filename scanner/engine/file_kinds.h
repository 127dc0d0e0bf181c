#pragma once
// How the bytes of a file are judged before any front end sees them: binary as git judges it (a
// NUL byte in the first 8,000 bytes), except for files whose own tools read past NUL bytes (C,
// C++ and CUDA compilers skip them; pip reads requirements line by line), and BOM-marked UTF-16
// and UTF-32 text decoded to UTF-8 (pip and MSVC read it) except in Python sources and
// notebooks, which Python and Jupyter read only as UTF-8.
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

// git's rule (buffer_is_binary): a NUL byte among the first 8,000 bytes.
inline constexpr size_t kGitBinaryWindow = 8000;
bool git_judges_binary(std::string_view bytes);

// Files read whatever NUL bytes they hold (the NUL bytes are read as spaces).
bool read_past_nul(std::string_view path);

// Files whose UTF-16/32 byte-order mark is honoured.
bool decodes_wide_bom(std::string_view path);

// The text as UTF-8 when `bytes` start with a UTF-16 or UTF-32 byte-order mark (the mark itself
// dropped; an unpaired surrogate or a code point past U+10FFFF becomes U+FFFD), else nullopt.
std::optional<std::string> decode_wide_bom(std::string_view bytes);

}  // namespace mpsready
