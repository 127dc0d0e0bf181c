#pragma once
// Whether a source an extension names (`csrc/op.cu`, `csrc/*.cu`, `csrc/**/*.cu`) is this file.
#include <string>
#include <string_view>

#include "core/repo_facts.h"

namespace mpsready {

bool extension_source_matches(std::string_view source, std::string_view path);

// Whether the extension is built from this file: its own name in the extension's sources, a glob
// over it, or, for sources computed at build time (a glob in a variable), a C++ file of the
// package folder the extension's name gives (`pkg._C` is built from `pkg/`, or `src/pkg/`).
bool extension_builds(const ExtensionFact& ext, std::string_view path);

}  // namespace mpsready

namespace mpsready {

// The module an extension file provides, from its path: `pkg/_fast.cpython-311-x86_64-linux-gnu.so`
// and `pkg/_fast.pyx` give `pkg._fast` (the file name up to its first dot; a leading `src/` is the
// layout's, not the package's).
std::string extension_module_of_file(std::string_view path);

}  // namespace mpsready
