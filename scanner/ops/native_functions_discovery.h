#pragma once
// Which op-status source answers: the op-status tables bundled with the rules
// (rules/tables/op_status/, one per PyTorch release, made by scripts/gen-op-tables.py), or the
// files given with --native-functions. The PyTorch installed on the scanning machine is never
// consulted, so a scan gives the same answer on every machine.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mpsready {

struct NativeFunctionsFile {
  std::filesystem::path path;
  std::string version;   // "1.13.1", "" when unknown
  std::string found_by;  // "--native-functions" or "bundled"
};

struct DiscoveryRequest {
  // --native-functions: each "PATH" or "VERSION=PATH". When given, they replace the bundled tables.
  std::vector<std::string> explicit_files;
  // The bundled op-status tables (op_tables_dir of the rules directory).
  std::filesystem::path tables_dir;
};

struct DiscoveryResult {
  std::vector<NativeFunctionsFile> files;  // oldest version first; unknown versions first
  std::vector<std::string> errors;         // an explicit entry that does not exist, ...
};

DiscoveryResult discover_native_functions(const DiscoveryRequest& request);

// Where a rules directory keeps its op-status tables: RULES/tables/op_status.
std::filesystem::path op_tables_dir(const std::filesystem::path& rules_dir);
// The op-status tables in `dir` (*.tsv), with the version each records.
std::vector<NativeFunctionsFile> bundled_op_tables(const std::filesystem::path& dir);

// The `__version__` of the torch/version.py that belongs to this yaml (read as text), or "":
// a yaml given without VERSION= inside a site-packages tree names its version this way.
std::string torch_version_beside(const std::filesystem::path& yaml);

// Numeric comparison of version prefixes: "1.13.0a0" < "2.1" ; "1.13" matches "1.13.1".
int compare_versions(const std::string& a, const std::string& b);
bool version_matches(const std::string& wanted, const std::string& have);

// The file for `wanted` ("" = the newest); nullopt with `error` set when none fits.
std::optional<NativeFunctionsFile> pick_native_functions(const std::vector<NativeFunctionsFile>& files,
                                                         const std::string& wanted, std::string& error);

}  // namespace mpsready
