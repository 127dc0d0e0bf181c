// Python bindings of a lab's deformable-attention extension (csrc/deform_attn.cpp).
// A comment may say TORCH_CHECK(x.is_cuda(), "...") without being flagged.
#include <torch/extension.h>
#include <vector>

// expect: cu-requires-cuda-tensor
#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
// ok: cu-requires-cuda-tensor
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
// ok: cu-requires-cuda-tensor
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
// ok: cu-requires-cuda-tensor
#define ON_DEVICE(fn, x, ...) ((x).is_cuda() ? fn##_cuda_forward(x, __VA_ARGS__) : fn##_cpu_forward(x, __VA_ARGS__))

at::Tensor deform_attn_cuda_forward(const at::Tensor& value, const at::Tensor& offsets, const at::Tensor& weights);
at::Tensor deform_attn_cpu_forward(const at::Tensor& value, const at::Tensor& offsets, const at::Tensor& weights);

at::Tensor deform_attn_forward(const at::Tensor& value, const at::Tensor& offsets, const at::Tensor& weights) {
  // expect: cu-requires-cuda-tensor
  CHECK_INPUT(value);
  // expect: cu-requires-cuda-tensor
  CHECK_CUDA(offsets);
  // ok: cu-requires-cuda-tensor
  CHECK_CONTIGUOUS(offsets);
  // expect: cu-requires-cuda-tensor
  TORCH_CHECK(weights.is_cuda(), "weights must be a CUDA tensor");
  return deform_attn_cuda_forward(value, offsets, weights);
}

at::Tensor sample_points(const at::Tensor& grid, const at::Tensor& points) {
  // expect: cu-requires-cuda-tensor
  TORCH_CHECK(grid.device().is_cuda() && points.device().is_cuda(), "sample_points: CUDA tensors expected");
  // expect: cu-requires-cuda-tensor
  AT_ASSERTM(points.is_cuda(), "points must be a CUDA tensor");
  // expect: cu-requires-cuda-tensor
  TORCH_INTERNAL_ASSERT(grid.is_cuda());
  return grid;
}

at::Tensor deform_attn_any_device(const at::Tensor& value, const at::Tensor& offsets, const at::Tensor& weights) {
  // ok: cu-requires-cuda-tensor
  TORCH_CHECK(value.is_contiguous(), "value must be contiguous");
  // ok: cu-requires-cuda-tensor
  if (value.is_cuda()) {
    return deform_attn_cuda_forward(value, offsets, weights);
  } else {
    return deform_attn_cpu_forward(value, offsets, weights);
  }
}

at::Tensor deform_attn_dispatch(const at::Tensor& value, const at::Tensor& offsets, const at::Tensor& weights) {
  // The same check inside the CUDA branch of a runtime check only runs with CUDA tensors.
  if (value.is_cuda()) {
    // expect-guarded: cu-requires-cuda-tensor
    TORCH_CHECK(offsets.is_cuda(), "offsets must be on the same CUDA device");
    return deform_attn_cuda_forward(value, offsets, weights);
  }
  // expect: cu-requires-cuda-tensor
  TORCH_CHECK(weights.is_cuda(), "weights must be a CUDA tensor");
  return deform_attn_cpu_forward(value, offsets, weights);
}

at::Tensor deform_attn_dispatch(const at::Tensor& value, const at::Tensor& offsets, const at::Tensor& weights) {
  // todo-ok: cu-requires-cuda-tensor
  return ON_DEVICE(deform_attn, value, offsets, weights);
}

at::Tensor to_host_buffer(const at::Tensor& x) {
  // ok: cu-requires-cuda-tensor
  TORCH_CHECK(!x.is_cuda(), "to_host_buffer expects a CPU tensor");
  // ok: cu-requires-cuda-tensor
  const char* hint = "TORCH_CHECK(x.is_cuda()) was removed here";
  return x;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &deform_attn_forward, "deformable attention forward");
  m.def("sample_points", &sample_points, "bilinear point sampling");
}
