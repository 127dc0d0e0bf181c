#include "cli/link_base.h"

#include <cstdlib>
#include <filesystem>

namespace mpsready {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string workspace_path_prefix(const std::string& root) {
  const std::string workspace = env("GITHUB_WORKSPACE");
  if (workspace.empty()) return "";
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path full = fs::absolute(root, ec).lexically_normal();
  if (ec || !fs::is_directory(full, ec)) return "";  // one file scanned: its path is given as is
  std::string rel = full.lexically_relative(fs::path(workspace).lexically_normal()).generic_string();
  while (!rel.empty() && rel.back() == '/') rel.pop_back();
  if (rel.empty() || rel == "." || rel == ".." || rel.rfind("../", 0) == 0) return "";
  return rel + "/";
}

std::string resolve_link_base(const std::string& given, const std::string& root) {
  if (!given.empty()) return given.back() == '/' ? given : given + "/";
  const std::string server = env("GITHUB_SERVER_URL"), repo = env("GITHUB_REPOSITORY"), sha = env("GITHUB_SHA");
  if (server.empty() || repo.empty() || sha.empty()) return "";
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string workspace = env("GITHUB_WORKSPACE");
  const fs::path base = workspace.empty() ? fs::current_path(ec) : fs::path(workspace);
  const std::string rel = fs::absolute(root, ec).lexically_normal().lexically_relative(base.lexically_normal()).generic_string();
  if (rel.empty() || rel == ".." || rel.rfind("../", 0) == 0) return "";
  std::string prefix = server + "/" + repo + "/blob/" + sha + "/";
  if (rel != "." && rel != "./") {
    prefix += rel;
    while (!prefix.empty() && (prefix.back() == '/' || prefix.back() == '.')) prefix.pop_back();
    prefix += "/";
  }
  return prefix;
}

}  // namespace mpsready
