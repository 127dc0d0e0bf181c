#include "smoke/model_step.h"

#include "smoke/outputs.h"

namespace mpsready {

torch::jit::Module load_module(const std::string& path, const torch::Device& device) {
  torch::jit::Module m = torch::jit::load(path, device);
  m.to(device);
  return m;
}

std::vector<torch::Tensor> to_device(const std::vector<torch::Tensor>& tensors, const torch::Device& device) {
  std::vector<torch::Tensor> out;
  for (const auto& t : tensors) out.push_back(t.to(device));
  return out;
}

c10::IValue run_forward(torch::jit::Module& module, const std::vector<torch::Tensor>& inputs) {
  std::vector<c10::IValue> args(inputs.begin(), inputs.end());
  return module.forward(args);
}

torch::Tensor scalar_loss(const std::vector<torch::Tensor>& outputs) {
  if (outputs.size() == 1 && outputs[0].dim() == 0 && outputs[0].is_floating_point()) return outputs[0];
  torch::Tensor loss;
  for (const auto& t : outputs) {
    if (!t.is_floating_point() || t.numel() == 0) continue;
    auto m = t.mean();
    loss = loss.defined() ? loss + m : m;
  }
  TORCH_CHECK(loss.defined(), "the model returns no floating-point output to compute a loss from");
  return loss;
}

TrainStep::TrainStep(torch::jit::Module& module, double learning_rate)
    : module_(module), learning_rate_(learning_rate) {
  for (const auto& p : module_.parameters(/*recurse=*/true))
    if (p.requires_grad()) parameters_.push_back(p);
  TORCH_CHECK(!parameters_.empty(), "the model has no parameters that require gradients: nothing to train");
}

double TrainStep::step(const std::vector<torch::Tensor>& inputs, TrainResult* result) {
  module_.train(true);
  for (auto& p : parameters_) p.mutable_grad() = torch::Tensor();
  const torch::Tensor loss = scalar_loss(flatten_outputs(run_forward(module_, inputs)));
  loss.backward();
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  for (auto& p : parameters_) {
    const auto& g = p.grad();
    if (!g.defined()) continue;
    grads.push_back(g);
    p.add_(g, -learning_rate_);  // plain SGD: enough to show an optimizer step runs here
  }
  if (result) {
    result->parameters_with_gradients = grads.size();
    result->gradients_finite = all_finite(grads);
  }
  return loss.item<double>();
}

}  // namespace mpsready
