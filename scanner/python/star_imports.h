#pragma once
// `from .common import *` binds in the importer every public name common.py binds at module level
// (or those its `__all__` lists), through its own star imports too. An import rule needs those
// names: after `import torch as T` in common.py, `T.cuda.set_device(0)` in the importer is
// `torch.cuda.set_device`. The star-imported modules are read here, below the scanned root and
// never through a link, with an explicit worklist and a visited set; a result that depends on
// other files is not kept by the scan cache.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "python/ts_python.h"

namespace mpsready {

// What a star import binds a name to: `T` -> {"torch", true}.
struct StarBinding {
  std::string qualified;
  bool is_module = false;
};
using StarBindings = std::map<std::string, StarBinding>;

// `from ..a.b import *`: level 2, module "a.b".
struct LocalStarImport {
  int level = 0;
  std::string module;
};

// The relative star imports of a file, read line by line (Python allows them at module level only).
std::vector<LocalStarImport> local_star_imports(std::string_view code);

struct StarLimits {
  size_t max_modules = 64;                // star-imported modules read for one file
  uintmax_t max_file_size = 4 << 20;      // a larger module is not read
  uint64_t parse_timeout_micros = 2'000'000;
};

// The names the star imports of the file at `path` (relative to `root`) bind, with what each
// module binds by its imports at module level.
StarBindings star_bindings(const std::filesystem::path& root, const std::string& path,
                           const std::vector<LocalStarImport>& stars, PythonParser& parser,
                           const StarLimits& limits = {});

}  // namespace mpsready
