// Fused RMSNorm forward: one thread block per row, fp32 accumulation.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda.h>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

template <typename scalar_t>
__global__ void rmsnorm_forward_kernel(const scalar_t* __restrict__ input,
                                       const scalar_t* __restrict__ weight,
                                       scalar_t* __restrict__ output,
                                       const int hidden,
                                       const float eps) {
  const int64_t row = blockIdx.x;
  const scalar_t* x = input + row * hidden;
  scalar_t* y = output + row * hidden;

  // each thread accumulates a partial sum of squares
  float partial = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    const float v = static_cast<float>(x[i]);
    partial += v * v;
  }

  __shared__ float shared[kThreads];
  shared[threadIdx.x] = partial;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) {
      shared[threadIdx.x] += shared[threadIdx.x + stride];
    }
    __syncthreads();
  }
  const float rstd = rsqrtf(shared[0] / static_cast<float>(hidden) + eps);

  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    const float v = static_cast<float>(x[i]) * rstd * static_cast<float>(weight[i]);
    y[i] = static_cast<scalar_t>(v);
  }
}

}  // namespace

torch::Tensor rmsnorm_forward_cuda(torch::Tensor input, torch::Tensor weight, double eps) {
  auto output = torch::empty_like(input);
  const int hidden = static_cast<int>(input.size(-1));
  const int64_t rows = input.numel() / hidden;
  const dim3 blocks(static_cast<unsigned int>(rows));
  const dim3 threads(kThreads);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();

  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "rmsnorm_forward_cuda", ([&] {
    rmsnorm_forward_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
        input.data_ptr<scalar_t>(),
        weight.data_ptr<scalar_t>(),
        output.data_ptr<scalar_t>(),
        hidden,
        static_cast<float>(eps));
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}
