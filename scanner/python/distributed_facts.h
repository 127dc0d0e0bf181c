#pragma once
// Distributed set-up read line by line from a Python file (DistributedFact in core/repo_facts.h):
// process-group initialisations that a public function always runs, with their backend
// expression, and the MPS entries of per-device tables and accelerator classes that are stubs.
#include <string>
#include <string_view>
#include <vector>

#include "core/repo_facts.h"

namespace mpsready {

struct DistributedScan {
  std::vector<DistributedFact> facts;
  // Lines inside an MPS stub (a stub class, a table entry): they say nothing for MPS support.
  std::vector<std::pair<int, int>> stub_lines;
  std::vector<EvidenceFact> evidence;  // "mps-stub": a class for MPS made mostly of stubs
};

DistributedScan scan_distributed(const std::string& path, std::string_view text);

}  // namespace mpsready
