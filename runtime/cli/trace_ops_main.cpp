// mpsready-trace-ops MODEL.pt --input SHAPE:DTYPE...: the aten ops one forward pass on the CPU
// dispatches, with the op that called each, as tab-separated lines (op, caller, count). Built in
// runtime-only trees too, so a machine with only LibTorch can record what a model runs under its
// PyTorch release; `mpsready ops --input` gives the same calls their MPS status.
#include <iostream>

#include <torch/version.h>

#include "ops/op_trace.h"
#include "ops/module_ops.h"
#include "smoke/input_spec.h"

int main(int argc, char** argv) {
  using namespace mpsready;
  if (argc < 3) {
    std::cerr << "usage: mpsready-trace-ops MODEL.pt SHAPE:DTYPE...\n";
    return 2;
  }
  std::vector<InputSpec> specs;
  for (int i = 2; i < argc; ++i) {
    std::string error;
    auto spec = parse_input_spec(argv[i], error);
    if (!spec) {
      std::cerr << "mpsready-trace-ops: " << error << "\n";
      return 2;
    }
    specs.push_back(*spec);
  }
  try {
    torch::jit::Module module = load_torchscript(argv[1]);
    module.eval();
    const OpTrace trace = trace_dispatched_ops(module, make_inputs(specs, 0));
    if (!trace.error.empty()) {
      std::cerr << "mpsready-trace-ops: " << trace.error << "\n";
      return 1;
    }
    std::cout << "# op\tcaller\tcount (LibTorch " << TORCH_VERSION << ")\n";
    for (const TracedCall& call : trace.calls)
      std::cout << call.op << "\t" << (call.caller.empty() ? "-" : call.caller) << "\t" << call.count << "\n";
  } catch (const std::exception& e) {
    std::cerr << "mpsready-trace-ops: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
