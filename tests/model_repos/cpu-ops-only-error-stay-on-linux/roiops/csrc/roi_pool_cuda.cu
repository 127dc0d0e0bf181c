#include <torch/extension.h>

__global__ void roi_pool_kernel(const float* input, float* output, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) output[i] = input[i];
}

at::Tensor roi_pool_forward_cuda(const at::Tensor& input, const at::Tensor& rois) {
  auto output = at::empty_like(input);
  const int n = input.numel();
  roi_pool_kernel<<<(n + 255) / 256, 256>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
  return output;
}

at::Tensor roi_pool_backward_cuda(const at::Tensor& grad, const at::Tensor& rois) { return grad.clone(); }
