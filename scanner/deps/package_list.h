#pragma once
// The packages a manifest installs, read as written (setup.py is never run): an explicit list
// (`packages=["kit", "kit.ops"]`), a search (`find_packages(where=..., include=..., exclude=...)`,
// `packages = find:`, `[tool.setuptools.packages.find]`), and where a package's files live
// (`package_dir={"": "src"}`, `package-dir`, poetry's `from`). Each part becomes a directive the
// repository model combines with the files it finds:
//   `package`          a dotted name the list names
//   `package-find`     a search; the text is its folder ("" for the root)
//   `package-include`  a pattern a searched package must match (`kit*`)
//   `package-exclude`  a pattern that drops a searched package (`tests*`)
//   `package-dir`      `name=folder`, `=folder` for the root of every package
//   `package-requires` the package's own requirements as its manifest lists them (PEP 503 names,
//                      comma-separated; added by DepsReader, not by add_package_part)
#include <cstdint>
#include <string_view>

#include "deps/deps_file.h"

namespace mpsready {

// Adds one part. Folders lose `./` and trailing slashes; a name that is no dotted identifier
// (a pattern, for include/exclude, may hold `*`) is ignored.
void add_package_part(DepsFile& file, std::string_view kind, std::string_view text, uint32_t offset);

}  // namespace mpsready
