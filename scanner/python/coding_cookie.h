#pragma once
// PEP 263: a comment on line 1 or 2 matching `coding[:=]\s*([-\w.]+)` names the encoding Python
// decodes the file from (`# -*- coding: utf-7 -*-` makes `+AGk-mport` the keyword `import`).
// The file is read the way Python reads it: decoded from that encoding to UTF-8 with glibc's
// iconv, before anything else looks at it.
#include <optional>
#include <string>
#include <string_view>

namespace mpsready {

// The encoding named by a cookie on line 1 or 2, as written; nullopt without one. A cookie on line
// 2 counts only when line 1 is a comment or blank, as in CPython.
std::optional<std::string> coding_cookie(std::string_view bytes);

struct CookieDecoding {
  std::optional<std::string> text;  // the decoded text; nullopt: read the bytes as they are
  std::string problem;              // why the cookie could not be honoured, "" if it was (or none)
};

// Decodes `bytes` from the encoding its cookie names. UTF-8 (and no cookie) leave them as they are.
CookieDecoding decode_by_cookie(std::string_view bytes);

}  // namespace mpsready
