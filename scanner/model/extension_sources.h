#pragma once
// Whether a source an extension names (`csrc/op.cu`, `csrc/*.cu`, `csrc/**/*.cu`) is this file.
#include <string_view>

namespace mpsready {

bool extension_source_matches(std::string_view source, std::string_view path);

}  // namespace mpsready
