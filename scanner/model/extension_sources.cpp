#include "model/extension_sources.h"

#include <string>

namespace mpsready {
namespace {

// Glob over '/'-separated paths: `*` within a segment, `**` across.
bool path_glob_match(std::string_view pattern, std::string_view path) {
  size_t p = 0, s = 0, star_p = std::string_view::npos, star_s = 0;
  bool crosses = false;
  while (s < path.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      crosses = p + 1 < pattern.size() && pattern[p + 1] == '*';
      p += crosses ? 2 : 1;
      star_p = p;
      star_s = s;
    } else if (p < pattern.size() && (pattern[p] == path[s] || pattern[p] == '?')) {
      ++p;
      ++s;
    } else if (star_p != std::string_view::npos && (crosses || path[star_s] != '/')) {
      p = star_p;
      s = ++star_s;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace

bool extension_source_matches(std::string_view source, std::string_view path) {
  return source == path || (source.find('*') != std::string_view::npos && path_glob_match(source, path));
}

bool extension_builds(const ExtensionFact& ext, std::string_view path) {
  for (const std::string& source : ext.sources)
    if (extension_source_matches(source, path)) return true;
  if (!ext.sources.empty() || ext.name.find('.') == std::string::npos) return false;
  bool compiled = false;
  for (std::string_view suffix : {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".mm"})
    compiled = compiled || (path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix);
  if (!compiled) return false;
  std::string dir = ext.name.substr(0, ext.name.rfind('.'));
  for (char& c : dir)
    if (c == '.') c = '/';
  return path.rfind(dir + "/", 0) == 0 || path.rfind("src/" + dir + "/", 0) == 0;
}

}  // namespace mpsready

namespace mpsready {

std::string extension_module_of_file(std::string_view path) {
  if (path.rfind("src/", 0) == 0) path.remove_prefix(4);
  const size_t slash = path.rfind('/');
  const size_t name_at = slash == std::string_view::npos ? 0 : slash + 1;
  const size_t dot = path.find('.', name_at);
  std::string module(path.substr(0, dot == std::string_view::npos ? path.size() : dot));
  for (char& c : module)
    if (c == '/') c = '.';
  return module;
}

}  // namespace mpsready
