#include "ops/native_functions_discovery.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace mpsready {
namespace fs = std::filesystem;

namespace {

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

fs::path op_tables_dir(const fs::path& rules_dir) { return rules_dir / "tables" / "op_status"; }

std::vector<NativeFunctionsFile> bundled_op_tables(const fs::path& dir) {
  std::vector<NativeFunctionsFile> tables;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return tables;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".tsv") continue;
    NativeFunctionsFile f;
    f.path = entry.path();
    f.found_by = "bundled";
    // The version is recorded in the header ("# pytorch: 2.11.0"), within its first lines.
    std::ifstream in(f.path);
    std::string line;
    for (int i = 0; i < 16 && std::getline(in, line) && line.rfind('#', 0) == 0; ++i)
      if (line.rfind("# pytorch: ", 0) == 0) f.version = line.substr(11);
    tables.push_back(std::move(f));
  }
  return tables;
}

DiscoveryResult discover_native_functions(const DiscoveryRequest& request) {
  DiscoveryResult result;
  std::vector<NativeFunctionsFile> candidates;
  if (!request.explicit_files.empty()) {
    for (const auto& e : request.explicit_files) candidates.push_back(parse_entry(e, "--native-functions"));
  } else {
    candidates = bundled_op_tables(request.tables_dir);
  }
  std::set<fs::path> seen;
  std::error_code ec;
  for (auto& f : candidates) {
    if (!fs::is_regular_file(f.path, ec)) {
      result.errors.push_back(f.found_by + ": " + f.path.filename().string() + ": no such file");
      continue;
    }
    const fs::path canonical = fs::weakly_canonical(f.path, ec);
    if (!seen.insert(ec ? f.path : canonical).second) continue;
    result.files.push_back(std::move(f));
  }
  // Sorted by version, then by path: the same order whatever the directory listing gives.
  std::sort(result.files.begin(), result.files.end(), [](const NativeFunctionsFile& a, const NativeFunctionsFile& b) {
    const int c = compare_versions(a.version, b.version);
    return c != 0 ? c < 0 : a.path < b.path;
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
    error = "no op-status table found (the rules directory has no tables/op_status/*.tsv; pass "
            "--native-functions PATH)";
    return std::nullopt;
  }
  if (wanted.empty()) return files.back();
  const NativeFunctionsFile* best = nullptr;
  for (const auto& f : files)
    if (version_matches(wanted, f.version)) best = &f;  // sorted: the newest match wins
  if (best) return *best;
  std::string have;
  for (const auto& f : files) have += (have.empty() ? "" : ", ") + (f.version.empty() ? "unknown" : f.version);
  const bool bundled = files.front().found_by == "bundled";
  error = std::string(bundled ? "no bundled op-status table" : "no native_functions.yaml") + " for PyTorch " +
          wanted + " (" + (bundled ? "bundled" : "given") + ": " + have + ")" +
          (bundled ? "; pass --native-functions " + wanted + "=PATH to check against another release" : "");
  return std::nullopt;
}

}  // namespace mpsready
