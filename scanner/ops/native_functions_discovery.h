#pragma once
// Finds native_functions.yaml files without running anything: pip wheels of PyTorch ship the file
// as torchgen/packaged/ATen/native/native_functions.yaml, beside torch/version.py, whose
// `__version__` line is read as text. The local Python is never asked: `python3 -c` would put the
// current directory (possibly the scanned repository) first on sys.path and run its
// sitecustomize/usercustomize, and the standard locations cover what it would answer.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mpsready {

struct NativeFunctionsFile {
  std::filesystem::path path;
  std::string version;   // "1.13.1", "" when unknown
  std::string found_by;  // "--native-functions", "MPSREADY_NATIVE_FUNCTIONS", "site-packages"
};

struct DiscoveryRequest {
  // --native-functions: each "PATH" or "VERSION=PATH". When given, nothing else is searched.
  std::vector<std::string> explicit_files;
  // Searched only without explicit files: MPSREADY_NATIVE_FUNCTIONS (PATH or VERSION=PATH
  // entries, separated by ':'), then the standard site-packages locations.
  bool use_environment = true;
  bool search_site_packages = true;
};

struct DiscoveryResult {
  std::vector<NativeFunctionsFile> files;  // oldest version first; unknown versions first
  std::vector<std::string> errors;         // an explicit entry that does not exist, ...
};

DiscoveryResult discover_native_functions(const DiscoveryRequest& request);

// The `__version__` of the torch/version.py that belongs to this yaml (read as text), or "".
std::string torch_version_beside(const std::filesystem::path& yaml);

// The directories searched for torchgen/ (those that exist), in search order.
std::vector<std::filesystem::path> site_package_dirs();

// Numeric comparison of version prefixes: "1.13.0a0" < "2.1" ; "1.13" matches "1.13.1".
int compare_versions(const std::string& a, const std::string& b);
bool version_matches(const std::string& wanted, const std::string& have);

// The file for `wanted` ("" = the newest); nullopt with `error` set when none fits.
std::optional<NativeFunctionsFile> pick_native_functions(const std::vector<NativeFunctionsFile>& files,
                                                         const std::string& wanted, std::string& error);

}  // namespace mpsready
