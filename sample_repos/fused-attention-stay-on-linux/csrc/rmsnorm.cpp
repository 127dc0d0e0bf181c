// Python bindings for the fused RMSNorm forward kernel (rmsnorm_kernel.cu).
#include <torch/extension.h>

torch::Tensor rmsnorm_forward_cuda(torch::Tensor input, torch::Tensor weight, double eps);

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

torch::Tensor rmsnorm_forward(torch::Tensor input, torch::Tensor weight, double eps) {
  CHECK_INPUT(input);
  CHECK_INPUT(weight);
  TORCH_CHECK(input.dim() >= 2, "input must be at least 2-D, got ", input.dim(), "-D");
  TORCH_CHECK(input.size(-1) == weight.size(0),
              "hidden size mismatch: input ", input.size(-1), " vs weight ", weight.size(0));
  TORCH_CHECK(input.scalar_type() == weight.scalar_type(), "input and weight dtypes differ");
  return rmsnorm_forward_cuda(input, weight, eps);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &rmsnorm_forward, "Fused RMSNorm forward (CUDA)",
        py::arg("input"), py::arg("weight"), py::arg("eps") = 1e-6);
}
