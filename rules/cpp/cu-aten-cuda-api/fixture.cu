// Fused layer-norm extension of a lab repository (csrc/layer_norm_cuda.cu).
// Comments may say at::cuda::getCurrentCUDAStream() or c10::cuda::CUDAGuard freely.
// ok: cu-aten-cuda-api
#include <torch/extension.h>
// expect: cu-aten-cuda-api
#include <ATen/cuda/CUDAContext.h>
// expect: cu-aten-cuda-api
#include <c10/cuda/CUDAGuard.h>
// expect: cu-aten-cuda-api
#include <THC/THCAtomics.cuh>
// expect: cu-aten-cuda-api
#include <ATen/native/cuda/block_reduce.cuh>
// ok: cu-aten-cuda-api
#include <ATen/mps/MPSStream.h>
// ok: cu-aten-cuda-api
#include "cuda_utils.h"

template <typename scalar_t>
__global__ void layer_norm_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int n, int cols,
                                  float eps) {
  // expect: cu-aten-cuda-api
  CUDA_KERNEL_LOOP(row, n) {
    float mean = 0.f, var = 0.f;
    for (int c = 0; c < cols; ++c) mean += static_cast<float>(x[row * cols + c]);
    mean /= cols;
    for (int c = 0; c < cols; ++c) {
      const float d = static_cast<float>(x[row * cols + c]) - mean;
      var += d * d;
    }
    const float inv = rsqrtf(var / cols + eps);
    for (int c = 0; c < cols; ++c) y[row * cols + c] = static_cast<scalar_t>((x[row * cols + c] - mean) * inv);
  }
}

at::Tensor layer_norm_forward(const at::Tensor& x, double eps) {
  // expect: cu-aten-cuda-api
  const at::cuda::OptionalCUDAGuard device_guard(x.device());
  auto y = at::empty_like(x);
  const int n = x.size(0), cols = x.size(1);
  // expect: cu-aten-cuda-api
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "layer_norm_forward", [&] {
    layer_norm_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                                                                     n, cols, static_cast<float>(eps));
  });
  // expect: cu-aten-cuda-api
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

void copy_on_side_stream(const at::Tensor& src, at::Tensor& dst) {
  // expect: cu-aten-cuda-api
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  {
    // expect: cu-aten-cuda-api
    c10::cuda::CUDAStreamGuard guard(side);
    // expect: cu-aten-cuda-api
    AT_CUDA_CHECK(cudaMemcpyAsync(dst.data_ptr(), src.data_ptr(), src.numel() * 4, cudaMemcpyDeviceToDevice, side));
  }
  // expect: cu-aten-cuda-api
  C10_CUDA_CHECK(cudaStreamSynchronize(side));
}

void record_done(at::Tensor& t) {
  // expect: cu-aten-cuda-api
  at::cuda::CUDAEvent done;
  // expect: cu-aten-cuda-api
  done.record(getCurrentCUDAStream());
}

void sync_mps() {
  // ok: cu-aten-cuda-api
  at::mps::getDefaultMPSStream()->synchronize(at::mps::SyncType::COMMIT_AND_WAIT);
}

at::Tensor cpu_reference(const at::Tensor& x, double eps) {
  // ok: cu-aten-cuda-api
  auto mean = at::cpu::mean(x, {1}, true);
  // ok: cu-aten-cuda-api
  TORCH_CHECK(x.dim() == 2, "layer_norm_cuda expects a 2-D input; use at::cuda::getCurrentCUDAStream only on CUDA");
  // ok: cu-aten-cuda-api
  const bool use_cuda_kernel = x.is_cuda();
  return (x - mean) / at::sqrt(x.var(1, false, true) + eps);
}
