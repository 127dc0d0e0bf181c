#include "core/source_kinds.h"

namespace mpsready {

bool is_cpp_source(std::string_view path) {
  for (std::string_view ext : {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp"})
    if (path.ends_with(ext)) return true;
  return false;
}

}  // namespace mpsready
