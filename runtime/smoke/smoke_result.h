#pragma once
// Everything a smoke run observed; report/smoke_record.cpp turns it into the JSON record.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "env/device.h"
#include "env/environment.h"
#include "env/run_info.h"
#include "smoke/fallback_log.h"
#include "smoke/hot_ops.h"
#include "smoke/mps_capability.h"
#include "smoke/tolerance.h"

namespace mpsready {

struct TensorSummary {
  std::vector<int64_t> shape;
  std::string dtype;
  std::string sha256;
  std::string source;  // inputs: the --input spec, or "file"
};

struct TrainResult {
  bool ran = false;
  std::string error;
  double loss = 0;
  double loss_after_step = 0;
  bool gradients_finite = true;
  size_t parameters_with_gradients = 0;
};

struct ReferenceResult {
  bool ran = false;
  std::string device;
  std::string skipped;  // why there is no comparison
  Comparison comparison;
};

struct FreshProcessResult {
  bool ran = false;
  bool hashes_equal = false;
  std::string error;
};

struct RepeatResult {
  bool ran = false;
  bool reloaded_bitwise_equal = false;
  std::string outputs_file;
  std::string error;
  FreshProcessResult fresh_process;
};

// One timed measurement at one batch. A timing that did not run stays nullopt (null in the
// record, an empty CSV cell): a 0.0 would read as an infinitely fast step.
struct Measurement {
  std::optional<double> step_ms_p50;
  std::optional<double> step_ms_p95;
  std::optional<double> throughput_per_s;  // samples per second at the median step time
  MemorySample memory;                     // peak bounded to this measurement (env/peak_memory.h)
  std::string error;
};

struct SweepRow : Measurement {
  int64_t batch_size = 0;
};

// The step time of the given inputs, measured on every run (with or without --sweep).
struct StepResult : Measurement {
  bool ran = false;
  std::optional<int64_t> batch_size;  // the leading dimension of the first input that has one
  int warmup = 0;
  int iterations = 0;
  std::string skipped;
};

struct GrowthCheck {
  bool ran = false;
  int iterations = 0;
  uint64_t start_bytes = 0;
  uint64_t end_bytes = 0;
  double growth = 0;
  double threshold = 0;
  bool flagged = false;
  std::string memory_kind;
  std::string skipped;
};

struct SpeedupCheck {
  bool ran = false;
  std::optional<double> cpu_step_ms_p50;
  std::optional<double> device_step_ms_p50;
  std::optional<double> improvement;  // 1 - device / cpu
  double threshold = 0;
  bool flagged = false;
  std::string skipped;
};

struct GoldenResult {
  std::string recorded;  // path written with --record
  std::string compared;  // path read with --compare
  std::string golden_device;
  std::string golden_libtorch;
  Comparison comparison;
  std::string error;
};

struct PredictedFallbacks {
  std::vector<std::string> predicted;
  std::vector<std::string> confirmed;   // predicted and seen
  std::vector<std::string> missed;      // seen, not predicted
  std::vector<std::string> not_seen;    // predicted, not seen
  std::string method;                   // "trace" or "graph": where the prediction came from
  std::string trace_error;              // a trace that failed, so the graph answered
};

struct SmokeResult {
  RunInfo run;
  Environment environment;
  DeviceChoice device;
  std::string matmul_device;
  std::string model_path;
  std::string model_sha256;
  std::string model_format;
  uint64_t model_bytes = 0;
  std::vector<TensorSummary> inputs;
  uint64_t seed = 0;
  std::vector<MpsBlocker> mps_blockers;

  bool forward_ran = false;
  std::string forward_error;
  std::vector<TensorSummary> outputs;
  bool nonfinite_outputs = false;
  std::optional<TrainResult> train;

  ReferenceResult reference;
  FallbackLog fallbacks;
  std::optional<std::string> fallback_env;
  std::optional<PredictedFallbacks> predicted_fallbacks;

  RepeatResult repeat;
  StepResult step;
  std::vector<SweepRow> sweep;
  std::string sweep_csv, sweep_svg;
  GrowthCheck growth;
  SpeedupCheck speedup;
  OpTrace hot_ops;
  std::string trace_file;
  std::optional<GoldenResult> golden;
  std::vector<std::pair<std::string, Tolerance>> tolerances;  // the table used, by dtype name
};

}  // namespace mpsready
