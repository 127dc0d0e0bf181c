// One block per row: each thread sums squares over a strided slice, then a shared-memory
// reduction gives the row's RMS.
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

template <typename scalar_t>
__global__ void rmsnorm_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ w,
                               scalar_t* __restrict__ y, int cols, float eps) {
  extern __shared__ float partial[];
  const int row = blockIdx.x;
  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(x[row * cols + c]);
    sum += v * v;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  const float inv = rsqrtf(partial[0] / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[row * cols + c] = static_cast<scalar_t>(static_cast<float>(x[row * cols + c]) * inv) * w[c];
}

torch::Tensor rmsnorm_forward_cuda(torch::Tensor x, torch::Tensor weight, double eps) {
  auto y = torch::empty_like(x);
  const int rows = x.numel() / x.size(-1);
  const int cols = x.size(-1);
  const int threads = 256;
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "rmsnorm_forward", [&] {
    rmsnorm_kernel<scalar_t><<<rows, threads, threads * sizeof(float), stream>>>(
        x.data_ptr<scalar_t>(), weight.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), cols,
        static_cast<float>(eps));
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}
