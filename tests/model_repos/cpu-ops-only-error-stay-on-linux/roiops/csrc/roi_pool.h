#pragma once
#include <torch/extension.h>

#ifdef WITH_CUDA
at::Tensor roi_pool_forward_cuda(const at::Tensor& input, const at::Tensor& rois);
at::Tensor roi_pool_backward_cuda(const at::Tensor& grad, const at::Tensor& rois);
#endif

// The trap: the CPU build compiles, but without WITH_CUDA every operator only errors.
inline at::Tensor roi_pool_forward(const at::Tensor& input, const at::Tensor& rois) {
  if (input.is_cuda()) {
#ifdef WITH_CUDA
    return roi_pool_forward_cuda(input, rois);
#else
    AT_ERROR("Not compiled with GPU support");
#endif
  }
  AT_ERROR("Not implemented on the CPU");
}

inline at::Tensor roi_pool_backward(const at::Tensor& grad, const at::Tensor& rois) {
  if (grad.is_cuda()) {
#ifdef WITH_CUDA
    return roi_pool_backward_cuda(grad, rois);
#else
    AT_ERROR("Not compiled with GPU support");
#endif
  }
  TORCH_CHECK(false, "roi_pool_backward is not implemented on CPU");
}
