#pragma once
// Tensors the MPS backend cannot hold (float64, complex128, sparse layouts), found in the model's
// parameters and buffers and in its inputs before anything runs, so they are reported as such
// rather than as a crash halfway through.
#include <string>
#include <vector>

#include <torch/script.h>

namespace mpsready {

struct MpsBlocker {
  std::string where;   // "parameter fc.weight", "buffer bn.running_mean", "input 0"
  std::string reason;  // "float64: the MPS framework has no float64"
};

std::vector<MpsBlocker> find_mps_blockers(const torch::jit::Module& module, const std::vector<torch::Tensor>& inputs);

}  // namespace mpsready
