#pragma once
// The operators a few steps spend their time in, from LibTorch's RecordFunction observers (the
// hooks its profiler is built on; their API is the same in LibTorch 1.13 and 2.x, while the
// profiler's event classes are not). Times are host-side: on CUDA and MPS an op's time is the
// time to launch it, and the step's device time shows up in the op that waits.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mpsready {

struct HotOp {
  std::string name;
  uint64_t calls = 0;
  double self_ms = 0;   // time in the op minus time in the ops it called
  double total_ms = 0;
};

struct OpTrace {
  std::vector<HotOp> top;   // by self time, descending, at most `limit`
  size_t events = 0;
};

// Runs `steps` under the observers, writes a Chrome trace (chrome://tracing, Perfetto) to
// `trace_path` when it is not empty, and returns the top ops.
OpTrace profile_ops(const std::function<void()>& step, int steps, const std::string& trace_path, size_t limit = 10);

}  // namespace mpsready
