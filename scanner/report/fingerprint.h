#pragma once
// Fingerprints of findings that survive unrelated edits: a hash of the rule id, the path, the
// source line with its whitespace normalised, and the finding's position among identical ones
// in that file. Line numbers are left out, so moving code up or down keeps the fingerprint.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace mpsready {

// FNV-1a, 64 bits.
uint64_t fnv1a64(std::string_view bytes, uint64_t seed = 0xcbf29ce484222325ull);
// Leading and trailing whitespace removed, inner runs of whitespace collapsed to one space.
std::string normalized_snippet(std::string_view snippet);
// One 16-hex-digit fingerprint per finding, in the order given (the findings must be sorted, so
// that "the n-th identical site" means the same thing on every run).
std::vector<std::string> finding_fingerprints(const std::vector<Finding>& sorted_findings);

// The key under which SARIF results carry the fingerprint (partialFingerprints).
inline constexpr const char* kFingerprintKey = "mpsready/v1";

}  // namespace mpsready
