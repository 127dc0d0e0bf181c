#pragma once
// Entry points a manifest installs: `name = pkg.cli:main` (setup.py, setup.cfg) or the value
// `"pkg.cli:main"` (pyproject). Each becomes an `entry-point` directive whose text is the module.
#include <cstdint>
#include <string_view>

#include "deps/deps_file.h"

namespace mpsready {

// Adds the module of `spec` (the part before `:`, after an optional `name =`) as a directive at
// `offset`; a spec without a dotted module name is ignored.
void add_entry_point(DepsFile& file, std::string_view spec, uint32_t offset);

}  // namespace mpsready
