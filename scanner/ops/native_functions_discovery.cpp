#include "ops/native_functions_discovery.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace mpsready {
namespace fs = std::filesystem;

namespace {

const fs::path kYamlInPackage = fs::path("torchgen") / "packaged" / "ATen" / "native" / "native_functions.yaml";

std::vector<int> numeric_parts(const std::string& v) {
  std::vector<int> parts;
  size_t i = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
    int n = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) n = n * 10 + (v[i++] - '0');
    parts.push_back(n);
    if (i < v.size() && v[i] == '.') ++i;
    else break;
  }
  return parts;
}

// "2.1=path" names the version; a plain path gets it from torch/version.py beside it.
NativeFunctionsFile parse_entry(const std::string& entry, const std::string& found_by) {
  static const std::regex kVersioned(R"(^(\d+(\.\d+)*[A-Za-z0-9.+]*)=(.+)$)");
  std::smatch m;
  NativeFunctionsFile file;
  file.found_by = found_by;
  if (std::regex_match(entry, m, kVersioned)) {
    file.version = m[1];
    file.path = m[3].str();
  } else {
    file.path = entry;
    file.version = torch_version_beside(file.path);
  }
  return file;
}

void add_python_dirs(const fs::path& lib, const std::vector<std::string>& leaves, std::vector<fs::path>& out) {
  std::error_code ec;
  if (!fs::is_directory(lib, ec)) return;
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(lib, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("python3", 0) != 0) continue;
    for (const auto& leaf : leaves) found.push_back(entry.path() / leaf);
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

}  // namespace

std::string torch_version_beside(const fs::path& yaml) {
  // .../site-packages/torchgen/packaged/ATen/native/native_functions.yaml -> .../site-packages
  fs::path site = yaml;
  for (int i = 0; i < 5 && site.has_parent_path(); ++i) site = site.parent_path();
  std::ifstream in(site / "torch" / "version.py");
  if (!in) return {};
  static const std::regex kVersion(R"(^__version__\s*=\s*['"]([^'"]+)['"])");
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, kVersion)) return m[1];
  }
  return {};
}

std::vector<fs::path> site_package_dirs() {
  std::vector<fs::path> dirs;
  const std::vector<std::string> site = {"site-packages"};
  if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && *venv) add_python_dirs(fs::path(venv) / "lib", site, dirs);
  if (const char* conda = std::getenv("CONDA_PREFIX"); conda && *conda) add_python_dirs(fs::path(conda) / "lib", site, dirs);
  if (const char* home = std::getenv("HOME"); home && *home) {
    add_python_dirs(fs::path(home) / ".local" / "lib", site, dirs);
    add_python_dirs(fs::path(home) / "Library" / "Python", {"lib/python/site-packages"}, dirs);
  }
  add_python_dirs("/usr/local/lib", {"site-packages", "dist-packages"}, dirs);
  dirs.push_back("/usr/lib/python3/dist-packages");  // Debian's python3-torch
  add_python_dirs("/usr/lib", {"site-packages"}, dirs);
  add_python_dirs("/opt/homebrew/lib", site, dirs);
  add_python_dirs("/opt/homebrew/opt/pytorch/libexec/lib", site, dirs);
  std::vector<fs::path> existing;
  std::error_code ec;
  for (const auto& d : dirs)
    if (fs::is_directory(d, ec)) existing.push_back(d);
  return existing;
}

DiscoveryResult discover_native_functions(const DiscoveryRequest& request) {
  DiscoveryResult result;
  std::vector<NativeFunctionsFile> candidates;
  bool strict = false;  // a named file that is missing is an error; a searched one is not
  if (!request.explicit_files.empty()) {
    strict = true;
    for (const auto& e : request.explicit_files) candidates.push_back(parse_entry(e, "--native-functions"));
  } else if (const char* env = std::getenv("MPSREADY_NATIVE_FUNCTIONS"); request.use_environment && env && *env) {
    strict = true;
    std::stringstream in(env);
    std::string e;
    while (std::getline(in, e, ':'))
      if (!e.empty()) candidates.push_back(parse_entry(e, "MPSREADY_NATIVE_FUNCTIONS"));
  } else if (request.search_site_packages) {
    for (const auto& dir : site_package_dirs()) {
      NativeFunctionsFile f;
      f.path = dir / kYamlInPackage;
      f.version = torch_version_beside(f.path);
      f.found_by = "site-packages";
      candidates.push_back(std::move(f));
    }
  }
  std::set<fs::path> seen;
  std::error_code ec;
  for (auto& f : candidates) {
    if (!fs::is_regular_file(f.path, ec)) {
      if (strict) result.errors.push_back(f.found_by + ": " + f.path.string() + ": no such file");
      continue;
    }
    const fs::path canonical = fs::weakly_canonical(f.path, ec);
    if (!seen.insert(ec ? f.path : canonical).second) continue;
    result.files.push_back(std::move(f));
  }
  std::stable_sort(result.files.begin(), result.files.end(),
                   [](const NativeFunctionsFile& a, const NativeFunctionsFile& b) {
                     return compare_versions(a.version, b.version) < 0;
                   });
  return result;
}

int compare_versions(const std::string& a, const std::string& b) {
  const auto pa = numeric_parts(a), pb = numeric_parts(b);
  if (pa != pb) return pa < pb ? -1 : 1;
  return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
}

bool version_matches(const std::string& wanted, const std::string& have) {
  const auto pw = numeric_parts(wanted), ph = numeric_parts(have);
  if (pw.empty() || ph.size() < pw.size()) return false;
  return std::equal(pw.begin(), pw.end(), ph.begin());
}

std::optional<NativeFunctionsFile> pick_native_functions(const std::vector<NativeFunctionsFile>& files,
                                                         const std::string& wanted, std::string& error) {
  if (files.empty()) {
    error = "no native_functions.yaml found (install PyTorch, or pass --native-functions PATH or set "
            "MPSREADY_NATIVE_FUNCTIONS)";
    return std::nullopt;
  }
  if (wanted.empty()) return files.back();
  const NativeFunctionsFile* best = nullptr;
  for (const auto& f : files)
    if (version_matches(wanted, f.version)) best = &f;  // sorted: the newest match wins
  if (best) return *best;
  std::string have;
  for (const auto& f : files) have += (have.empty() ? "" : ", ") + (f.version.empty() ? "unknown" : f.version);
  error = "no native_functions.yaml for PyTorch " + wanted + " (found: " + have + ")";
  return std::nullopt;
}

}  // namespace mpsready
