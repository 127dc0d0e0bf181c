#pragma once
// The prefix that makes a finding's path an absolute permalink in a pull-request comment.
#include <string>

namespace mpsready {

// `given` (--link-base) with a trailing '/', else, in GitHub Actions (GITHUB_SERVER_URL,
// GITHUB_REPOSITORY, GITHUB_SHA set), `<server>/<repo>/blob/<sha>/<root relative to the
// workspace>/`; else "" (relative links). A root outside GITHUB_WORKSPACE gets no links.
std::string resolve_link_base(const std::string& given, const std::string& root);

// In GitHub Actions (GITHUB_WORKSPACE set), the scanned root's folder relative to the workspace
// with a trailing '/' ("sub/" for `mpsready scan sub`), so that annotations and SARIF name files
// as the checkout does; "" at the workspace itself, outside it, or outside GitHub Actions.
std::string workspace_path_prefix(const std::string& root);

}  // namespace mpsready
