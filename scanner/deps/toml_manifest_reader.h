#pragma once
// pyproject.toml (PEP 621 dependencies and optional-dependencies, dependency groups,
// build-system requires, Poetry, package indexes) and Pipfile, read with toml++.
#include "deps/deps_file.h"

namespace mpsready {

class TomlManifestReader {
 public:
  // `file.kind` must be pyproject or pipfile; invalid TOML gives an error entry.
  static void read(DepsFile& file);
};

}  // namespace mpsready
