#pragma once
// Calls of the repository's own device choosers. A function that returns "mps" (`return "mps"`,
// `return torch.device("mps")`) picks MPS where it is there, so code that takes its device from
// that function selects MPS on a Mac, wherever it sits: `device = get_device_name()` is where a
// reader looks for the device choice, and it is evidence there, naming the line that returns MPS.
// Evidence only: the verdict's own reading of MPS evidence (assess/mps_supported_core.h) is the
// model's, from the facts.
#include <vector>

#include "core/repo_facts.h"
#include "model/call_graph.h"

namespace mpsready {

// One "selects-mps" entry per call site (path, line) of a chooser, outside the chooser itself,
// where no evidence is recorded already; in the model's evidence order.
std::vector<EvidenceFact> device_chooser_calls(const RepoFacts& facts, const CallGraph& graph);

}  // namespace mpsready
