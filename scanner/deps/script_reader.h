#pragma once
// Line-oriented files: Dockerfiles, shell and SLURM scripts, Makefiles and CMake files. Each
// logical line (continuations joined, comments removed) becomes one directive whose segments map
// every character back to its line and column.
#include "deps/deps_file.h"

namespace mpsready {

class ScriptReader {
 public:
  // `file.kind` must be dockerfile, shell, make or cmake.
  static void read(DepsFile& file);
};

}  // namespace mpsready
