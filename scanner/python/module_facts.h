#pragma once
// Line-level facts about a Python file that need no parse: its `__main__` block, and the places
// where it selects or handles the MPS device (evidence for the repository model).
#include <string>
#include <string_view>
#include <vector>

#include "core/repo_facts.h"

namespace mpsready {

ModuleFact scan_main_block(const std::string& path, std::string_view text);
// At most a few sites a file: the model needs to know that, and where, not every site.
std::vector<EvidenceFact> scan_mps_evidence(const std::string& path, std::string_view text);

}  // namespace mpsready
