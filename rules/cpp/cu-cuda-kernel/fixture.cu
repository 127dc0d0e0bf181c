// Fixture for cu-cuda-kernel: shaped like a lab's csrc/fused_bias_act_kernel.cu.
// Comments may say __global__ void fused_kernel() or __device__ float helper() freely.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define WARP_SIZE 32

// ok: cu-cuda-kernel
__device__ int g_overflow_count;
// ok: cu-cuda-kernel
__constant__ float c_taps[16];

template <typename scalar_t>
// expect: cu-cuda-kernel
__device__ __forceinline__ scalar_t leaky_relu(scalar_t x, scalar_t slope) {
  return x > scalar_t(0) ? x : x * slope;
}

template <typename T>
// expect: cu-cuda-kernel
__device__ T warp_sum(T v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// expect: cu-cuda-kernel
__device__ float lerp_clamped(float a, float b, float t) {
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
  return a + t * (b - a);
}

// ok: cu-cuda-kernel
__host__ __device__ inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// ok: cu-cuda-kernel
__device__ float device_only_decl(float x);

template <typename scalar_t>
// expect: cu-cuda-kernel
__global__ void fused_bias_act_kernel(scalar_t* __restrict__ out, const scalar_t* __restrict__ x,
                                      const scalar_t* __restrict__ bias, scalar_t slope, scalar_t scale,
                                      int channels, int spatial, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int c = (i / spatial) % channels;
  out[i] = leaky_relu(x[i] + bias[c], slope) * scale;
}

template <typename scalar_t>
// expect: cu-cuda-kernel
__global__ void __launch_bounds__(32) row_sum_kernel(const scalar_t* in, scalar_t* out, int cols) {
  scalar_t acc = 0;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) acc += in[blockIdx.x * cols + j];
  acc = warp_sum(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;  // one warp per row
}

extern "C"
// expect: cu-cuda-kernel
__global__ void scale_inplace(float* data, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= s;
}

// expect: cu-cuda-kernel
static __device__ inline void complex_mul(const float* a, const float* b, float* out) {
  out[0] = a[0] * b[0] - a[1] * b[1];
  out[1] = a[0] * b[1] + a[1] * b[0];
}

// ok: cu-cuda-kernel
__global__ void forward_declared_kernel(float* data, int n);

// A CPU reference implementation in the same file is host code.
// ok: cu-cuda-kernel
void fused_bias_act_cpu(const float* x, const float* bias, float* out, int channels, int spatial, int n) {
  for (int i = 0; i < n; ++i) {
    const float v = x[i] + bias[(i / spatial) % channels];
    out[i] = (v > 0.f ? v : 0.2f * v) * 1.4142135f;
  }
}

// ok: cu-cuda-kernel
torch::Tensor fused_bias_act(const torch::Tensor& x, const torch::Tensor& bias, double slope, double scale) {
  // ok: cu-cuda-kernel
  const char* what = "__global__ fused_bias_act_kernel";
  TORCH_CHECK(x.is_cuda(), what, " needs a CUDA tensor");
  return x;
}

struct BiasAct {
  // ok: cu-cuda-kernel
  __host__ __device__ float operator()(float v) const { return v > 0.f ? v : 0.2f * v; }
};
