// Operator registrations of a lab's fused-ops library (csrc/ops/registration.cpp).
// A comment may say TORCH_LIBRARY_IMPL(myops, CUDA, m) without being flagged.
#include <torch/library.h>
#include <ATen/ATen.h>

at::Tensor fused_gelu_cuda(const at::Tensor& x);
at::Tensor fused_gelu_backward_cuda(const at::Tensor& grad, const at::Tensor& x);
at::Tensor fused_gelu_cpu(const at::Tensor& x);
at::Tensor fused_gelu_mps(const at::Tensor& x);
at::Tensor fused_gelu_autograd(const at::Tensor& x);

// ok: cu-cuda-dispatch-key
TORCH_LIBRARY(myops, m) {
  // ok: cu-cuda-dispatch-key
  m.def("fused_gelu(Tensor x) -> Tensor");
  m.def("fused_gelu_backward(Tensor grad, Tensor x) -> Tensor");
  m.def("spmm(Tensor a, Tensor b) -> Tensor");
}

// expect: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, CUDA, m) {
  m.impl("fused_gelu", &fused_gelu_cuda);
  m.impl("fused_gelu_backward", &fused_gelu_backward_cuda);
}

// expect: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, AutogradCUDA, m) {
  m.impl("fused_gelu", &fused_gelu_autograd);
}

// expect: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, AutocastCUDA, m) {
  m.impl("fused_gelu", [](const at::Tensor& x) { return fused_gelu_cuda(x.to(at::kHalf)); });
}

at::Tensor spmm_cuda(const at::Tensor& a, const at::Tensor& b);

// expect: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, SparseCUDA, m) {
  m.impl("spmm", &spmm_cuda);
}

// ok: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, CPU, m) {
  m.impl("fused_gelu", &fused_gelu_cpu);
}

// ok: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, MPS, m) {
  m.impl("fused_gelu", &fused_gelu_mps);
}

// ok: cu-cuda-dispatch-key
TORCH_LIBRARY_IMPL(myops, CompositeImplicitAutograd, m) {
  m.impl("fused_gelu_backward", [](const at::Tensor& grad, const at::Tensor& x) { return grad * x.sigmoid(); });
}

// ok: cu-cuda-dispatch-key
TORCH_LIBRARY_FRAGMENT(myops, m) {
  m.def("fused_gelu_inplace(Tensor(a!) x) -> Tensor(a!)");
  m.impl("fused_gelu_inplace",
         // expect: cu-cuda-dispatch-key
         torch::dispatch(c10::DispatchKey::CUDA, [](at::Tensor& x) -> at::Tensor& { return x.copy_(fused_gelu_cuda(x)); }));
}

bool has_cuda_kernel(c10::DispatchKey key) {
  // expect: cu-cuda-dispatch-key
  return key == c10::DispatchKey::CUDA || key == c10::DispatchKey::AutogradCUDA;
}

void register_late(torch::Library& lib) {
  // ok: cu-cuda-dispatch-key
  lib.impl("fused_gelu", torch::dispatch(c10::DispatchKey::CPU, &fused_gelu_cpu));
  // ok: cu-cuda-dispatch-key
  const char* key_name = "CUDA";
}
