#include "python/coding_cookie.h"

#include <cerrno>
#include <iconv.h>

#include <re2/re2.h>

namespace mpsready {
namespace {

// The two lines CPython looks at (with their line ends removed).
std::string_view line_at(std::string_view bytes, size_t& pos) {
  const size_t end = std::min(bytes.find('\n', pos), bytes.size());
  std::string_view line = bytes.substr(pos, end - pos);
  pos = end < bytes.size() ? end + 1 : end;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool comment_or_blank(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t\f");
  return first == std::string_view::npos || line[first] == '#';
}

// CPython's get_normal_name: the spellings of UTF-8 and Latin-1 it knows without a codec lookup.
std::string normal_name(std::string name) {
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '_') c = '-';
  }
  const auto is_or_prefix = [&](std::string_view base) {
    return name == base || (name.size() > base.size() && name.compare(0, base.size(), base) == 0 &&
                            name[base.size()] == '-');
  };
  if (is_or_prefix("utf-8")) return "utf-8";
  if (is_or_prefix("latin-1") || is_or_prefix("iso-8859-1") || is_or_prefix("iso-latin-1")) return "iso-8859-1";
  return name;
}

// iconv's descriptor for a Python codec name: as normalised (`euc-jp`, `utf-7`, `cp1252`), then
// without hyphens (`shiftjis` is no iconv name, but `utf7` and `latin1` are).
iconv_t open_codec(const std::string& name) {
  iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (cd != reinterpret_cast<iconv_t>(-1)) return cd;
  std::string bare;
  for (const char c : name)
    if (c != '-') bare += c;
  return iconv_open("UTF-8", bare.c_str());
}

}  // namespace

std::optional<std::string> coding_cookie(std::string_view bytes) {
  static const RE2 cookie(R"(^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+))");
  size_t pos = 0;
  const std::string_view first = line_at(bytes, pos);
  std::string name;
  if (RE2::PartialMatch(first, cookie, &name)) return name;
  if (!comment_or_blank(first) || pos >= bytes.size()) return std::nullopt;
  if (RE2::PartialMatch(line_at(bytes, pos), cookie, &name)) return name;
  return std::nullopt;
}

CookieDecoding decode_by_cookie(std::string_view bytes) {
  CookieDecoding out;
  const std::optional<std::string> written = coding_cookie(bytes);
  if (!written) return out;
  const std::string name = normal_name(*written);
  if (name == "utf-8") return out;
  const iconv_t cd = open_codec(name);
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    out.problem = "its coding cookie names `" + *written +
                  "`, an encoding the scanner cannot decode; the file was read as UTF-8, which may not be "
                  "what Python reads";
    return out;
  }
  std::string decoded;
  decoded.resize(bytes.size() * 4 + 16);  // UTF-8 needs at most 4 bytes per input byte here
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  char* outp = decoded.data();
  size_t out_left = decoded.size();
  while (in_left > 0) {
    if (iconv(cd, &in, &in_left, &outp, &out_left) != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) {
      const size_t used = static_cast<size_t>(outp - decoded.data());
      decoded.resize(decoded.size() * 2);
      outp = decoded.data() + used;
      out_left = decoded.size() - used;
      continue;
    }
    // EILSEQ or EINVAL: Python would stop with a SyntaxError; the scanner reads the bytes as UTF-8.
    out.problem = "its coding cookie names `" + *written + "`, but the bytes at offset " +
                  std::to_string(bytes.size() - in_left) + " are not valid " + *written +
                  " (Python refuses the file); it was read as UTF-8";
    iconv_close(cd);
    return out;
  }
  size_t flush_left = out_left;
  iconv(cd, nullptr, nullptr, &outp, &flush_left);
  iconv_close(cd);
  decoded.resize(static_cast<size_t>(outp - decoded.data()));
  out.text = std::move(decoded);
  return out;
}

}  // namespace mpsready
