#include "cli/build_info.h"

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

std::string version_text(const std::string& rules_dir) {
  std::string rules_hash;
  try {
    rules_hash = tree_fingerprint(rules_dir);
  } catch (const std::exception&) {
    rules_hash = "unreadable";
  }
  if (rules_hash.empty()) rules_hash = "none found";
  const std::string torch = MPSREADY_TORCH_VERSION;
  return std::string("mpsready ") + MPSREADY_VERSION + "\n" +
         "commit: " + MPSREADY_COMMIT + "\n" +
         "rules: " + rules_dir + " (hash " + rules_hash + ")\n" +
         "clang: " + MPSREADY_CLANG_VERSION + " (C++/CUDA front end)\n" +
         "tree-sitter: " + MPSREADY_TREE_SITTER_VERSION + " (as its pkg-config file says), tree-sitter-python " +
         MPSREADY_TREE_SITTER_PYTHON_VERSION + "\n" +
         "libtorch: " + (torch.empty() ? "not built (smoke, audit and ops need mpsready-runtime)" : torch + " (mpsready-runtime)");
}

}  // namespace mpsready
