// Training loop of a LibTorch application (src/train.cpp).
// Comments may say torch::kCUDA or model->to(torch::Device("cuda:0")) freely.
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() : fc1(register_module("fc1", torch::nn::Linear(784, 256))), fc2(register_module("fc2", torch::nn::Linear(256, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

torch::Device pick_device(int rank) {
  // The runtime check is a guard, never a finding; what it protects is guarded.
  // ok: cu-libtorch-cuda-device
  if (torch::cuda::is_available()) {
    // expect-guarded: cu-libtorch-cuda-device
    return torch::Device(torch::kCUDA, rank);
  }
  // ok: cu-libtorch-cuda-device
  return torch::Device(torch::kCPU);
}

torch::Device pick_device_unless_forced(bool force_cpu) {
  // A condition that can hold without CUDA guards nothing.
  // expect: cu-libtorch-cuda-device
  if (torch::cuda::is_available() || force_cpu) {
    // expect: cu-libtorch-cuda-device
    return torch::Device(torch::kCUDA);
  }
  // expect: cu-libtorch-cuda-device
  if (!torch::cuda::is_available()) torch::cuda::manual_seed(1);
  return torch::Device(torch::kCPU);
}

torch::Tensor place(torch::Tensor t, const torch::Device& device) {
  // expect-guarded: cu-libtorch-cuda-device
  if (t.is_cuda()) t = t.to(torch::kCUDA, /*non_blocking=*/true);
  // expect-guarded: cu-libtorch-cuda-device
  auto options = t.options().device(t.is_cuda() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU));
  // expect: cu-libtorch-cuda-device
  auto other = t.options().device(t.is_cuda() ? torch::Device(torch::kCPU) : torch::Device(torch::kCUDA));
  if (device.is_cuda()) {
    // expect-guarded: cu-libtorch-cuda-device
    t = t.cuda();
  }
  if (!device.is_cuda()) {
    // expect: cu-libtorch-cuda-device
    t = t.cuda();
  } else {
    // expect-guarded: cu-libtorch-cuda-device
    t = t.to(torch::kCUDA);
  }
  // expect: cu-libtorch-cuda-device
  if (validate(t.is_cuda())) t = t.cuda();
  return t;
}

torch::Tensor cpu_first(torch::Tensor t) {
  if (!t.is_cuda()) return t * 2;
  // expect-guarded: cu-libtorch-cuda-device
  return t.to(torch::kCUDA) * 2;
}

torch::Tensor cuda_or_fail(torch::Tensor t) {
  if (!t.is_cuda()) {
    throw std::runtime_error("needs a CUDA tensor");
  }
  // expect: cu-libtorch-cuda-device
  return t.to(torch::kCUDA) * 2;
}

void train(Net& net, torch::optim::SGD& opt, const torch::Tensor& images, const torch::Tensor& labels) {
  // expect: cu-libtorch-cuda-device
  torch::Device device("cuda:0");
  // expect: cu-libtorch-cuda-device
  auto x = images.to(at::kCUDA, /*non_blocking=*/true);
  // expect: cu-libtorch-cuda-device
  auto y = labels.cuda();
  // expect: cu-libtorch-cuda-device
  auto noise = torch::randn({x.size(0), 784}, torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat32));
  // expect: cu-libtorch-cuda-device
  auto mask = torch::ones_like(x).to(torch::Device("cuda"));
  opt.zero_grad();
  auto loss = torch::nll_loss(torch::log_softmax(net.forward(x + 0.01 * noise * mask), 1), y);
  loss.backward();
  opt.step();
  // ok: cu-libtorch-cuda-device
  std::cout << "step done on cuda:0, loss " << loss.item<float>() << std::endl;
}

bool on_gpu(const torch::Tensor& t) {
  // expect: cu-libtorch-cuda-device
  return t.device().type() == c10::DeviceType::CUDA || t.device().type() == c10::kCUDA;
}

torch::Tensor to_host(const torch::Tensor& t) {
  // ok: cu-libtorch-cuda-device
  auto cpu = t.to(torch::Device("cpu"));
  // ok: cu-libtorch-cuda-device
  auto mps = t.to(torch::kMPS);
  // ok: cu-libtorch-cuda-device
  const bool wants_cuda = t.device().is_cuda();
  // ok: cu-libtorch-cuda-device
  auto staged = torch::empty_like(t, torch::TensorOptions().device(torch::kCPU).pinned_memory(false));
  return cpu;
}

int main() {
  auto net = std::make_shared<Net>();
  // expect: cu-libtorch-cuda-device
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  // expect: cu-libtorch-cuda-device
  torch::cuda::manual_seed_all(0);
  // ok: cu-libtorch-cuda-device
  const char* backend = "cuda";
  train(*net, opt, torch::rand({64, 784}), torch::randint(0, 10, {64}));
  return 0;
}
