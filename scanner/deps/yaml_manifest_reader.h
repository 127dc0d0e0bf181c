#pragma once
// conda environment files (channels, conda packages, the pip section) and docker-compose files
// (images, the nvidia runtime, GPU device reservations), read with yaml-cpp.
#include "deps/deps_file.h"

namespace mpsready {

class YamlManifestReader {
 public:
  // `file.kind` must be conda or compose; invalid YAML gives an error entry.
  static void read(DepsFile& file);
};

}  // namespace mpsready
