#pragma once
// One step of the model on a device: a forward pass (eval mode, no autograd), or a training step
// (train mode: forward, a scalar loss, backward, one SGD step).
#include <string>
#include <vector>

#include <torch/script.h>

#include "smoke/smoke_result.h"

namespace mpsready {

// torch::jit::load onto `device`; throws c10::Error as LibTorch does.
torch::jit::Module load_module(const std::string& path, const torch::Device& device);

std::vector<torch::Tensor> to_device(const std::vector<torch::Tensor>& tensors, const torch::Device& device);

c10::IValue run_forward(torch::jit::Module& module, const std::vector<torch::Tensor>& inputs);

// The scalar a training step minimises: the output itself when the model returns one scalar,
// otherwise the sum of the means of its floating-point outputs (a stand-in for the lab's loss:
// enough to send gradients through every output).
torch::Tensor scalar_loss(const std::vector<torch::Tensor>& outputs);

class TrainStep {
 public:
  TrainStep(torch::jit::Module& module, double learning_rate = 1e-3);
  // Returns the loss before the step; fills the gradient checks of `result` on the first call.
  double step(const std::vector<torch::Tensor>& inputs, TrainResult* result = nullptr);

 private:
  torch::jit::Module& module_;
  std::vector<torch::Tensor> parameters_;
  double learning_rate_;
};

}  // namespace mpsready
