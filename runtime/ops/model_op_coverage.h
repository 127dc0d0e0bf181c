#pragma once
// `mpsready ops` and smoke runs: the aten ops of a TorchScript model with their MPS status, from
// the live dispatcher on a Mac with an MPS-enabled LibTorch, else from the bundled op-status
// tables (settings.tables_dir) or the --native-functions files.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>

#include "ops/op_coverage_report.h"
#include "ops/op_coverage_source.h"

namespace mpsready {

struct ModelCoverageOptions {
  OpCoverageSettings settings;  // --native-functions, --torch-version, the bundled tables
  // The dispatcher answers only when the linked LibTorch has MPS and no yaml or version was asked for.
  bool allow_dispatcher = true;
  // Example inputs: when set, one forward pass on the CPU is traced (op_trace.h) and the answer
  // covers every op it dispatched, nested calls included; else the static graph is listed.
  std::optional<std::vector<torch::Tensor>> inputs;
};

struct ModelCoverage {
  OpCoverageReport report;
  std::string error;  // non-empty: no answer (unreadable model, no yaml found, malformed yaml)
};

ModelCoverage model_op_coverage(const std::filesystem::path& model, const ModelCoverageOptions& options);
ModelCoverage model_op_coverage(const torch::jit::Module& module, const ModelCoverageOptions& options);

// The ops predicted to fall back to the CPU on MPS: from a trace, the dispatched missing ops
// (aten::_linalg_svd, not the composite linalg_svd that calls it); from the graph, the missing
// ones. What a smoke run compares with the fallbacks it observes.
std::vector<OpCoverageRow> predicted_fallbacks(const OpCoverageReport& report);

// Smoke's prediction: "aten::name" or "aten::name.overload" of each op expected to fall back when
// `module` runs on `device`, and whether they came from a trace ("trace") or the graph ("graph");
// nullopt unless the device is "mps" and an answer is available (a run on the CPU or CUDA has
// nothing to fall back from).
struct FallbackPrediction {
  std::vector<std::string> ops;
  std::string method;  // "trace" or "graph"
  std::string trace_error;  // why a trace was asked for but the graph answered ("" otherwise)
};
std::optional<FallbackPrediction> predict_mps_fallbacks(const torch::jit::Module& module, const std::string& device,
                                                        const ModelCoverageOptions& options);

// The linked LibTorch's version ("1.13.1").
std::string linked_torch_version();

}  // namespace mpsready
