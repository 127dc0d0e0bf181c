#pragma once
// Documentation and CI files as evidence for the repository model: a README or install guide
// that says the code runs on MPS / Apple Silicon, or that it requires CUDA or an NVIDIA GPU, and
// a CI workflow that runs on macOS. Evidence only: these files yield no findings, and the
// evidence never replaces what the code says.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/repo_facts.h"
#include "engine/frontend.h"

namespace mpsready {

class DocsFrontend final : public Frontend {
 public:
  bool wants(std::string_view path) const override;
  std::unique_ptr<FrontendWorker> make_worker() const override;
};

// The evidence lines of one documentation or workflow file (at most a few of each kind).
std::vector<EvidenceFact> scan_docs_evidence(const std::string& path, std::string_view text);

}  // namespace mpsready
