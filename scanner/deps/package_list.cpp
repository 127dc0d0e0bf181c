#include "deps/package_list.h"

#include <cctype>
#include <string>

namespace mpsready {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A folder inside the repository, as the model compares paths: `./src/` is `src`, `.` is "".
std::string folder(std::string_view dir) {
  dir = trim(dir);
  while (dir.substr(0, 2) == "./") dir.remove_prefix(2);
  while (!dir.empty() && dir.back() == '/') dir.remove_suffix(1);
  if (dir == ".") return "";
  return std::string(dir);
}

bool is_dotted_name(std::string_view name, bool pattern) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && !(pattern && c == '*')) return false;
  return true;
}

bool is_inside(const std::string& dir) {
  return dir.empty() || (dir.front() != '/' && dir.find("..") == std::string::npos);
}

}  // namespace

void add_package_part(DepsFile& file, std::string_view kind, std::string_view text, uint32_t offset) {
  text = trim(text);
  if (kind == "package") {
    if (is_dotted_name(text, false)) file.add_directive("package", std::string(text), offset);
  } else if (kind == "package-include" || kind == "package-exclude") {
    if (is_dotted_name(text, true)) file.add_directive(std::string(kind), std::string(text), offset);
  } else if (kind == "package-find") {
    if (const std::string dir = folder(text); is_inside(dir)) file.add_directive("package-find", dir, offset);
  } else if (kind == "package-dir") {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos) return;
    const std::string_view name = trim(text.substr(0, eq));
    const std::string dir = folder(text.substr(eq + 1));
    if ((name.empty() || is_dotted_name(name, false)) && is_inside(dir))
      file.add_directive("package-dir", std::string(name) + "=" + dir, offset);
  }
}

}  // namespace mpsready
