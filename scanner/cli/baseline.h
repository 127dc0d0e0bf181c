#pragma once
// Baselines: the fingerprints of a scan's findings (--write-baseline FILE), and a later scan that
// reports only the findings whose fingerprint is not in it (--baseline FILE).
#include <set>
#include <string>
#include <vector>

#include "engine/scanner.h"

namespace mpsready {

// One JSON document: schema_version, tool, and the findings' fingerprints with the rule, path
// and line they had (for a reader; only the fingerprint is matched).
bool write_baseline(const std::string& file, const ScanResult& result, const std::string& version, std::string& error);
// The fingerprints of a baseline file; false (and `error`) when it cannot be read or is invalid.
bool read_baseline(const std::string& file, std::set<std::string>& fingerprints, std::string& error);

}  // namespace mpsready
