#pragma once
// setup.py, read with tree-sitter and never run: the string lists given to `setup()` as
// `install_requires`, `setup_requires`, `extras_require` (directly or through a module-level
// name), and the extension classes named in `ext_modules`.
#include "deps/deps_file.h"

namespace mpsready {

class PythonParser;

class SetupPyReader {
 public:
  static void read(DepsFile& file, PythonParser& parser);
};

}  // namespace mpsready
