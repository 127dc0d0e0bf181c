#pragma once

#include <string>

namespace mpsready {

// What tells this build of mpsready from any other: the GNU build ID the linker wrote into the
// executable (a hash of its code), in hex. The scan cache keys on it, since a new front end or
// matcher changes what a file contributes without changing the version string or the rules.
// Empty when the executable carries none (another linker, macOS); callers then fall back to the
// version and configure-time commit.
std::string executable_build_id();

}  // namespace mpsready
