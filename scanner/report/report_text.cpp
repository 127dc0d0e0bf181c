#include "report/report_text.h"

namespace mpsready {

namespace {
constexpr std::string_view kWordJoiner = "\u2060";
constexpr std::string_view kReplacement = "\uFFFD";
}  // namespace

std::string uri_path(std::string_view path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    const bool keep = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                      std::string_view("-._~/!$&'*+,;=@").find(c) != std::string_view::npos;
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 0xF];
    }
  }
  return out;
}

std::string markdown_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '<': out += "&lt;"; continue;
      case '>': out += "&gt;"; continue;
      case '&': out += "&amp;"; continue;
      case '"': out += "&quot;"; continue;
      case '@':
        out += '@';
        out += kWordJoiner;
        continue;
      case '\n': case '\r': case '\t':
        out += ' ';
        continue;
      case ':':
        // "http://x": a word joiner after the colon stops GitHub's autolinker.
        out += ':';
        if (text.substr(i + 1, 2) == "//") out += kWordJoiner;
        continue;
      default: break;
    }
    if (u < 0x20 || u == 0x7F) {
      out += kReplacement;
      continue;
    }
    if (std::string_view("\\`*_[](){}#+-.!|~=$").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
      continue;
    }
    out += c;
    // "www.example.com" is autolinked too.
    if ((c == 'w' || c == 'W') && i >= 2 && (text[i - 1] | 0x20) == 'w' && (text[i - 2] | 0x20) == 'w' &&
        text.substr(i + 1, 1) == ".") {
      out += kWordJoiner;
    }
  }
  return out;
}

std::string markdown_prose(std::string_view text) {
  size_t ticks = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '`') continue;
    ++ticks;
    // A run of backticks opens a span that only the same run closes: not the single pairs read here.
    if (i + 1 < text.size() && text[i + 1] == '`') return markdown_escape(text);
  }
  if (ticks == 0 || ticks % 2 != 0) return markdown_escape(text);
  std::string out;
  bool in_code = false;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '`') continue;
    const std::string_view part = text.substr(start, i - start);
    if (!in_code) {
      out += markdown_escape(part);
    } else {
      // Inside a span nothing is markup; only what would end the line or the span is replaced.
      out += '`';
      for (const char c : part) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n' || c == '\r' || c == '\t') out += ' ';
        else if (u < 0x20 || u == 0x7F) out += kReplacement;
        else out += c;
      }
      out += '`';
    }
    in_code = !in_code;
    start = i + 1;
  }
  return out;
}

std::string shared_root_label(const std::string& root, const std::string& name) {
  std::string r = root;
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  if (r == "." || r.empty()) return name.empty() ? "." : name;
  if (r.front() != '/') return r;
  const size_t slash = r.rfind('/');
  return r.size() == 1 ? "/" : r.substr(slash + 1);
}

std::string plural(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace mpsready
