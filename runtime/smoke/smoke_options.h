#pragma once
// What a smoke run is asked to do (the `mpsready smoke` options, as a library call takes them).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <torch/script.h>

#include "smoke/tolerance.h"

namespace mpsready {

// The seam for the op-status table: given the loaded model, the device and the model's inputs
// (on the CPU), the ops expected to fall back to the CPU (nullopt: no prediction available). The
// record reports the prediction next to what actually fell back.
struct FallbackForecast {
  std::vector<std::string> ops;
  std::string method;       // "trace": from the ops one CPU forward pass dispatched; "graph": from the graph
  std::string trace_error;  // why the trace failed and the graph answered ("" otherwise)
};
using FallbackPredictor = std::function<std::optional<FallbackForecast>(
    const torch::jit::Module& module, const std::string& device, const std::vector<torch::Tensor>& inputs)>;

struct SmokeOptions {
  std::vector<std::string> argv;  // the command line, for the record (empty for a library call)
  std::string model_path;
  std::vector<std::string> input_specs;  // --input SHAPE:DTYPE (repeatable)
  std::string inputs_file;               // --inputs FILE
  std::string device = "auto";           // auto | mps | cuda | cpu
  std::string reference = "cpu";         // the device outputs are compared against
  bool train = false;                    // also a backward pass and one optimizer step
  uint64_t seed = 0;
  ToleranceTable tolerances;

  std::vector<int64_t> sweep;  // batch sizes; empty: no sweep
  int warmup = 3;              // untimed steps before each timing
  int iterations = 10;         // timed steps per batch size
  int growth_iterations = 20;  // steps of the memory-growth check (0: skip)
  double growth_threshold = 0.26;   // flag memory that rises by this fraction or more
  double speedup_threshold = 0.22;  // flag a device less than this much faster than the CPU
  int profile_steps = 5;            // steps under the op observers (0: skip)

  // outputs.pt, trace.json, sweep.csv and sweep.svg go here; "" (the default): nothing is written
  // to disk unasked (the repeat check round-trips through a temporary file it removes).
  std::string out_dir;
  std::string record_golden;                // --record FILE
  std::string compare_golden;               // --compare FILE

  // The executable to re-run for the fresh-process check, and the arguments that make it print
  // this run's output hashes; empty: the check is reported as not run.
  std::string self_exe;
  std::vector<std::string> fresh_process_args;

  FallbackPredictor predict_fallbacks;  // empty: `predicted_fallbacks` is null in the record
};

}  // namespace mpsready
