// CPU paths of an extension's ops. Comments may say CHECK_CPU(x) freely.
#include <torch/extension.h>

// expect: cu-requires-cpu-tensor
#define CHECK_CPU(x) TORCH_CHECK(x.device().type() == torch::kCPU, #x " not on CPU.")

at::Tensor KNearestNeighborIdxCpu(const at::Tensor& p1, const at::Tensor& p2);

at::Tensor KNearestNeighborIdx(const at::Tensor& p1, const at::Tensor& p2) {
  // expect: cu-requires-cpu-tensor
  CHECK_CPU(p1);
  // expect: cu-requires-cpu-tensor
  TORCH_CHECK(p2.device().type() == torch::kCPU, "p2 must be on the CPU");
  // ok: cu-requires-cpu-tensor
  TORCH_CHECK(p1.dim() == 3, "p1 must be 3D");
  // ok: cu-requires-cpu-tensor
  auto out = at::zeros({p1.size(0)}, p1.options().device(torch::kCPU));
  return KNearestNeighborIdxCpu(p1, p2) + out;
}
