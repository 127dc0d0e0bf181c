#include "deps/requirement_spec.h"

#include <re2/re2.h>

#include <cctype>

namespace mpsready {
namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// One comparison of a marker clause excludes macOS on Apple Silicon.
bool clause_excludes_macos(std::string_view clause) {
  static const RE2 cmp(R"re((sys_platform|platform_system|os_name|platform_machine)\s*(==|!=)\s*['"]([^'"]*)['"])re");
  re2::StringPiece rest(clause.data(), clause.size());
  std::string var, op, value;
  while (RE2::FindAndConsume(&rest, cmp, &var, &op, &value)) {
    const std::string v = lower(value);
    if (var == "sys_platform" || var == "platform_system") {
      if (op == "==" && v != "darwin") return true;
      if (op == "!=" && v == "darwin") return true;
    } else if (var == "os_name") {
      if (op == "==" && v != "posix") return true;
    } else if (var == "platform_machine") {
      if (op == "==" && v != "arm64" && v != "aarch64") return true;
      if (op == "!=" && v == "arm64") return true;
    }
  }
  return false;
}

}  // namespace

bool RequirementSpec::parse(std::string_view text, DependencyRecord& record) {
  static const RE2 req(R"(\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(?:;\s*(.*?))?\s*)");
  std::string name, extras, version, marker;
  if (!RE2::FullMatch(text, req, &name, &extras, &version, &marker)) return false;
  // `name @ url` (PEP 508 direct reference, `deepspeed@git+https://…` too) names the package
  // as surely as a version does: the URL is the version, whatever it starts with.
  if (!version.empty() && version[0] == '@') {
    version = trim(std::string_view(version).substr(1));
    if (version.empty()) return false;
  } else if (!version.empty() && std::string_view("=<>!~(").find(version[0]) == std::string_view::npos &&
             !std::isdigit(static_cast<unsigned char>(version[0])) && version[0] != '*') {
    return false;
  }
  record.name = name;
  record.normalized = normalize_package_name(name);
  record.version = version;
  record.marker = marker;
  return true;
}

bool RequirementSpec::marker_excludes_macos(std::string_view marker) {
  if (marker.empty()) return false;
  size_t start = 0;
  for (;;) {
    const size_t at = marker.find(" or ", start);
    const std::string_view clause = marker.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start);
    if (!clause_excludes_macos(clause)) return false;
    if (at == std::string_view::npos) return true;
    start = at + 4;
  }
}

}  // namespace mpsready
