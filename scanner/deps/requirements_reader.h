#pragma once
// requirements*.txt: requirements, index options and direct URLs, and the files named by `-r`
// and `-c`, read only inside the scanned root (never through a symbolic link, never twice).
#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

#include "deps/deps_file.h"

namespace mpsready {

class RequirementsReader {
 public:
  // `read_on_its_own` tells which paths the scan reads anyway (they are not followed, so
  // nothing is reported twice); files followed through `-r`/`-c` go to `included`.
  static void read(DepsFile& file, const std::filesystem::path& root,
                   const std::function<bool(std::string_view)>& read_on_its_own,
                   std::vector<DepsFile>& included);
  // Reads one requirements text into `file` (no includes followed); exposed for setup.cfg-like
  // uses and tests. Each include it names is appended to `includes` as {target, is_constraint,
  // offset}.
  struct Include {
    std::string target;
    bool constraint = false;
    uint32_t offset = 0;
  };
  static void read_text(DepsFile& file, std::vector<Include>& includes);
};

}  // namespace mpsready
