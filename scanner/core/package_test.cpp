#include "core/package_test.h"

#include <cctype>

namespace mpsready {
namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool consume(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  s = trimmed(s);
  return true;
}

// The last name of a callee asks whether something is installed.
bool asks_availability(std::string_view callee) {
  const size_t dot = callee.rfind('.');
  std::string name(dot == std::string_view::npos ? callee : callee.substr(dot + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name.find("available") != std::string::npos || name.find("requirement") != std::string::npos ||
         name == "find_spec" || name == "find_loader";
}

}  // namespace

std::string normalized_package(std::string_view name) {
  std::string out;
  for (const char c : trimmed(name)) {
    if (c == '<' || c == '>' || c == '=' || c == '!' || c == '~' || c == '[' || c == ';' || c == ' ' || c == ',') break;
    out += (c == '-' || c == '.') ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<PackageTest> read_package_test(std::string_view text) {
  std::string_view s = trimmed(text);
  PackageTest out;
  while (consume(s, "not ")) out.negated = !out.negated;
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = trimmed(s.substr(1, s.size() - 2));
  // The comparison with None that find_spec needs.
  if (s.ends_with(" is not None")) s = trimmed(s.substr(0, s.size() - 12));
  else if (s.ends_with(" is None")) {
    s = trimmed(s.substr(0, s.size() - 8));
    out.negated = !out.negated;
  }
  size_t i = 0;
  while (i < s.size() && (identifier_char(s[i]) || s[i] == '.')) ++i;
  const std::string_view callee = s.substr(0, i);
  if (callee.empty() || !asks_availability(callee)) return std::nullopt;
  s = trimmed(s.substr(i));
  if (!consume(s, "(") || s.empty() || (s.front() != '"' && s.front() != '\'')) return std::nullopt;
  const char quote = s.front();
  const size_t close = s.find(quote, 1);
  if (close == std::string_view::npos) return std::nullopt;
  out.package = normalized_package(s.substr(1, close - 1));
  s = trimmed(s.substr(close + 1));
  // One call, nothing after it but its other arguments.
  if (out.package.empty() || s.empty() || s.back() != ')' || s.find('(') != std::string_view::npos) return std::nullopt;
  return out;
}

}  // namespace mpsready
