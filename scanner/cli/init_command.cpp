// `mpsready init`: a commented starting configuration in the place a Python project keeps its
// linters' settings, the [tool.mpsready] table of pyproject.toml.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/config.h"

namespace mpsready {

namespace {

// Every key is valid as written (a test scans with it); the optional ones are commented out.
constexpr const char* kStartingTable = R"([tool.mpsready]
# mpsready's settings: the same keys as .mpsready.json (README "Configuration").
# A .mpsready.json beside this file would win over this table.

# Paths to skip: gitignore-style globs relative to this directory.
exclude = []
# Rules not to run: ids, or prefixes ending in * ("py-cuda-*"). `mpsready rules list` lists them.
ignore = []
# Run only these rules instead of all of them.
# select = ["py-*", "cu-*"]
# Exit 1 when the verdict is at least this: "partial" or "stay-on-linux" (--fail-on replaces it).
# fail_on = "stay-on-linux"
# The PyTorch release the project targets; op coverage is checked against its MPS support.
# target-pytorch = "2.5"
# A rule's impact for its unguarded sites: "blocker", "portable" or "info".
# impact = { py-float64 = "info" }
# Rules not reported in some files (globs as in exclude).
# per_file_ignores = { "tests/**" = ["py-cuda-*"] }
# Roles for paths the conventions get wrong, and directories that are components of their own.
# roles = { "scripts/train" = "entry-point" }
# components = ["examples/cifar"]
)";

}  // namespace

int run_init_command(const std::string& dir, bool to_stdout) {
  if (to_stdout) {
    std::cout << kStartingTable;
    return 0;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    std::cerr << "mpsready: init: " << dir << " is not a directory\n";
    return 2;
  }
  const fs::path json_file = fs::path(dir) / ".mpsready.json";
  const fs::path toml_file = fs::path(dir) / "pyproject.toml";
  if (fs::exists(fs::symlink_status(json_file, ec))) {
    std::cerr << "mpsready: init: " << json_file.string() << " already configures mpsready; nothing written\n";
    return 2;
  }
  std::string existing;
  if (fs::exists(fs::symlink_status(toml_file, ec))) {
    if (fs::is_symlink(fs::symlink_status(toml_file, ec))) {
      std::cerr << "mpsready: init: " << toml_file.string() << " is a symbolic link; nothing written (use --stdout)\n";
      return 2;
    }
    std::ifstream in(toml_file, std::ios::binary);
    existing.assign(std::istreambuf_iterator<char>(in), {});
    const ConfigResult current = parse_pyproject_config(existing, toml_file.string());
    if (current.config || !current.error.empty()) {
      std::cerr << "mpsready: init: " << toml_file.string()
                << (current.config ? " already has a [tool.mpsready] table" : " cannot be extended: " + current.error)
                << "; nothing written\n";
      return 2;
    }
  }
  std::ofstream out(toml_file, std::ios::binary | std::ios::app);
  if (!existing.empty()) out << (existing.back() == '\n' ? "\n" : "\n\n");
  out << kStartingTable;
  out.close();
  if (!out) {
    std::cerr << "mpsready: init: cannot write " << toml_file.string() << "\n";
    return 2;
  }
  std::cout << "mpsready: wrote a [tool.mpsready] table to " << toml_file.string()
            << "; edit it, then run `mpsready scan " << dir << "`\n";
  return 0;
}

}  // namespace mpsready
