#pragma once
// Golden outputs for comparing machines: `--record FILE` on the reference machine (the lab's CUDA
// box) writes FILE (JSON: model hash, inputs, seed, device, output hashes) and FILE's outputs next
// to it (FILE with ".outputs.pt" in place of ".json"); `--compare FILE` on another machine checks
// this machine's outputs against them with the same tolerances.
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>
#include <torch/utils.h>

#include "smoke/smoke_result.h"
#include "smoke/tolerance.h"

namespace mpsready {

std::string golden_outputs_path(const std::string& golden_json);

// Returns an error message, or "".
std::string write_golden(const std::string& path, const SmokeResult& result, const std::vector<torch::Tensor>& outputs,
                         const std::vector<std::string>& input_specs);

// Fills `golden` (comparison, or error). Returns false for a usage error: the file is unreadable,
// or was recorded for another model, other inputs or another seed; then `golden.error` says which.
bool compare_golden(const std::string& path, const SmokeResult& result, const std::vector<torch::Tensor>& outputs,
                    const std::vector<std::string>& input_specs, const ToleranceTable& table, GoldenResult& golden);

}  // namespace mpsready
