#pragma once
// The code as Python reads its names: every identifier replaced by its NFKC form (PEP 3131), so
// `import 𝐟𝐥𝐚𝐬𝐡_attn` is `import flash_attn` and `x.ｃｕｄａ()` is `x.cuda()` to every matcher.
// The normal form is written over the identifier's own bytes and padded with spaces, so byte
// offsets, lines and the text around it stay as they are; strings and comments are untouched
// (`"ｃｕｄａ"` is no CUDA device string to Python).
#include <optional>
#include <string>
#include <string_view>

#include <tree_sitter/api.h>

namespace mpsready {

// The source with its identifiers normalised, given its tree; nullopt when no identifier
// changes. An identifier whose normal form is longer than its bytes (no ASCII name is) or is a
// keyword (Python does not read it as one) is left as written.
std::optional<std::string> normalize_identifiers(std::string_view source, TSNode root);

}  // namespace mpsready
