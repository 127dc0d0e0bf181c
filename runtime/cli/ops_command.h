#pragma once
// `mpsready ops MODEL.pt` and `mpsready ops --trace FILE`: a model's aten ops with their MPS status.
// Built into mpsready-runtime only: it loads the model with LibTorch.
#include <cstdint>
#include <string>
#include <vector>

namespace mpsready {

struct OpsCommandOptions {
  std::string model;                          // a TorchScript file
  std::string trace_file;                     // --trace FILE: calls recorded by mpsready-trace-ops instead of a model
  std::string format = "text";
  std::string output;                         // -o, "" = stdout
  std::string torch_version;                  // --torch-version
  std::vector<std::string> native_functions;  // --native-functions (repeatable)
  std::vector<std::string> input_specs;       // --input SHAPE:DTYPE (repeatable): trace what runs
  std::string inputs_file;                    // --inputs FILE: trace what runs
  uint64_t seed = 0;                          // for generated inputs
};

// `rules_dir` is the global --rules ("" = the bundled rules beside `argv0`): the op-status tables
// live there.
int run_ops_command(const std::string& rules_dir, const char* argv0, const OpsCommandOptions& options);

}  // namespace mpsready
