#pragma once
// setup.cfg: `[options] install_requires` / `setup_requires` and `[options.extras_require]`.
#include "deps/deps_file.h"

namespace mpsready {

class SetupCfgReader {
 public:
  static void read(DepsFile& file);
};

}  // namespace mpsready
