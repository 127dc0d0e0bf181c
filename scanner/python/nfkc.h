#pragma once
// NFKC normalisation (libunistring's u8_normalize), the form Python gives identifiers (PEP 3131):
// `𝐟𝐥𝐚𝐬𝐡_attn` and `ｃｕｄａ` are the names `flash_attn` and `cuda` to Python.
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

// True if any byte is outside ASCII (ASCII text is its own NFKC form).
bool has_non_ascii(std::string_view text);

// The NFKC form of valid UTF-8 text; nullopt if the library refuses it (invalid UTF-8, memory).
std::optional<std::string> nfkc(std::string_view utf8);

}  // namespace mpsready
