// Python binding for the fused RMSNorm forward pass.
#include <torch/extension.h>

torch::Tensor rmsnorm_forward_cuda(torch::Tensor x, torch::Tensor weight, double eps);

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")

torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps) {
  CHECK_CUDA(x);
  CHECK_CUDA(weight);
  return rmsnorm_forward_cuda(x.contiguous(), weight.contiguous(), eps);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &rmsnorm_forward, "fused RMSNorm forward (CUDA)");
}
