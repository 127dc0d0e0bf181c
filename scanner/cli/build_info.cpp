#include "cli/build_info.h"

#include <filesystem>

#include "engine/cache_key.h"

// Set by scanner/CMakeLists.txt at configure time.
#ifndef MPSREADY_COMMIT
#define MPSREADY_COMMIT "unknown"
#endif
#ifndef MPSREADY_CLANG_VERSION
#define MPSREADY_CLANG_VERSION "unknown"
#endif
#ifndef MPSREADY_TREE_SITTER_VERSION
#define MPSREADY_TREE_SITTER_VERSION "unknown"
#endif
#ifndef MPSREADY_TREE_SITTER_PYTHON_VERSION
#define MPSREADY_TREE_SITTER_PYTHON_VERSION "unknown"
#endif
#ifndef MPSREADY_TORCH_VERSION
#define MPSREADY_TORCH_VERSION ""
#endif

namespace mpsready {

std::string build_commit() { return MPSREADY_COMMIT; }

std::string root_folder_name(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path full = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (ec) return "";
  const std::filesystem::path dir = std::filesystem::is_directory(full, ec) ? full : full.parent_path();
  return dir.filename().string();
}

std::string rules_hash(const std::string& rules_dir) {
  std::string hash;
  try {
    hash = tree_fingerprint(rules_dir);
  } catch (const std::exception&) {
    hash = "unreadable";
  }
  return hash.empty() ? "none found" : hash;
}

std::string version_text(const std::string& rules_dir) {
  const std::string torch = MPSREADY_TORCH_VERSION;
  return std::string("mpsready ") + MPSREADY_VERSION + "\n" +
         "commit: " + MPSREADY_COMMIT + "\n" +
         "rules: " + rules_dir + " (hash " + rules_hash(rules_dir) + ")\n" +
         "clang: " + MPSREADY_CLANG_VERSION + " (C++/CUDA front end)\n" +
         "tree-sitter: " + MPSREADY_TREE_SITTER_VERSION + " (as its pkg-config file says), tree-sitter-python " +
         MPSREADY_TREE_SITTER_PYTHON_VERSION + "\n" +
         "libtorch: " + (torch.empty() ? "not built (smoke, audit and ops need mpsready-runtime)" : torch + " (mpsready-runtime)");
}

}  // namespace mpsready
