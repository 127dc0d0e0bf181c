#pragma once
#include <torch/extension.h>

at::Tensor roi_pool_forward_cpu(const at::Tensor& input, const at::Tensor& rois);
at::Tensor roi_pool_backward_cpu(const at::Tensor& grad, const at::Tensor& rois);
#ifdef WITH_CUDA
at::Tensor roi_pool_forward_cuda(const at::Tensor& input, const at::Tensor& rois);
at::Tensor roi_pool_backward_cuda(const at::Tensor& grad, const at::Tensor& rois);
#endif

// The CPU branch is a real implementation: without WITH_CUDA only the GPU branch errors.
inline at::Tensor roi_pool_forward(const at::Tensor& input, const at::Tensor& rois) {
  if (input.is_cuda()) {
#ifdef WITH_CUDA
    return roi_pool_forward_cuda(input, rois);
#else
    AT_ERROR("Not compiled with GPU support");
#endif
  }
  return roi_pool_forward_cpu(input, rois);
}

inline at::Tensor roi_pool_backward(const at::Tensor& grad, const at::Tensor& rois) {
  if (grad.is_cuda()) {
#ifdef WITH_CUDA
    return roi_pool_backward_cuda(grad, rois);
#else
    AT_ERROR("Not compiled with GPU support");
#endif
  }
  return roi_pool_backward_cpu(grad, rois);
}
