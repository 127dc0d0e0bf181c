#pragma once
// A PEP 508 requirement string (`flash-attn[extra]==2.5.6; sys_platform == "linux"`), read
// without evaluating anything, and the question the scanner asks of its marker.
#include <optional>
#include <string>
#include <string_view>

#include "deps/deps_file.h"

namespace mpsready {

class RequirementSpec {
 public:
  // Fills name, normalized, version and marker of a record from `text` (offsets stay as given).
  // Returns false when `text` is not a requirement.
  static bool parse(std::string_view text, DependencyRecord& record);
  // True when the marker can only be true off macOS on Apple Silicon (`sys_platform == "linux"`,
  // `platform_system != "Darwin"`, `platform_machine == "x86_64"`), in every `or` branch.
  static bool marker_excludes_macos(std::string_view marker);
};

}  // namespace mpsready
