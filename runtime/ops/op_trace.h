#pragma once
// What a model really dispatches: one forward pass on the CPU under a thread-local RecordFunction
// observer (scope FUNCTION), so ops called from inside composite and generic kernels are seen
// too, each with the op that called it. The static graph (module_ops.h) sees only the outer ops.
#include <string>
#include <vector>

#include <torch/script.h>

#include "ops/op_trace_report.h"

namespace mpsready {

struct OpTrace {
  std::vector<TracedCall> calls;  // sorted by op, then caller
  std::string error;              // non-empty: the forward pass threw (LibTorch's message)
};

// Runs module.forward(inputs) once on the CPU, under no_grad (inference), and records every
// dispatched op. Only the calling thread is observed: intra-op worker threads run kernels, not
// dispatcher calls the model makes.
OpTrace trace_dispatched_ops(torch::jit::Module& module, const std::vector<torch::Tensor>& inputs);

}  // namespace mpsready
