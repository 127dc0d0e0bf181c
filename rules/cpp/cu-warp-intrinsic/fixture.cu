// Fixture for cu-warp-intrinsic: warp reductions from a lab's csrc/softmax_kernel.cu.
// Comments may say __shfl_down_sync(mask, v, 16) or __ballot_sync(0xffffffff, p) freely.
#include <torch/extension.h>

#define FULL_MASK 0xffffffffu
#define WARP_SIZE 32

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    // expect: cu-warp-intrinsic
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_max(T v) {
  for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1) {
    // expect: cu-warp-intrinsic
    const T other = __shfl_xor_sync(FULL_MASK, v, mask);
    v = other > v ? other : v;
  }
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T v, int lane) {
  for (int d = 1; d < WARP_SIZE; d <<= 1) {
    // expect: cu-warp-intrinsic
    const T up = __shfl_up_sync(FULL_MASK, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// Pre-CUDA 9 spelling, still found in older research code.
template <typename T>
__device__ __forceinline__ T broadcast_lane0_legacy(T v) {
  // expect: cu-warp-intrinsic
  return __shfl(v, 0);
}

__global__ void masked_softmax_kernel(const float* x, const unsigned char* keep, float* out, int cols) {
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  const float* row = x + blockIdx.x * cols;
  // expect: cu-warp-intrinsic
  const unsigned active = __activemask();
  // expect: cu-warp-intrinsic
  const unsigned kept = __ballot_sync(active, lane < cols && keep[blockIdx.x * cols + lane]);
  // expect: cu-warp-intrinsic
  if (!__any_sync(active, kept != 0u)) return;
  float m = warp_reduce_max(lane < cols ? row[lane] : -1e30f);
  float e = lane < cols ? row[lane] - m : 0.f;
  // ok: cu-warp-intrinsic
  // __shfl_down_sync inside warp_reduce_sum assumes all 32 lanes reach this call
  float s = warp_reduce_sum(e);
  // expect: cu-warp-intrinsic
  __syncwarp();
  if (lane < cols) out[blockIdx.x * cols + lane] = e / s;
  // A block-wide barrier belongs to the kernel, which cu-cuda-kernel reports; not a warp intrinsic.
  // ok: cu-warp-intrinsic
  __syncthreads();
}

__global__ void dedup_kernel(const int* keys, int* leaders, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // expect: cu-warp-intrinsic
  const unsigned peers = __match_any_sync(FULL_MASK, keys[i]);
  // expect: cu-warp-intrinsic
  const int total = __reduce_add_sync(peers, 1);
  leaders[i] = total;
}

// Look-alikes: a lab's own helper and a variable named after the intrinsic.
// ok: cu-warp-intrinsic
__device__ float shfl_helper(float v, int lane) { return v + lane; }
__device__ float use_helper(float v) {
  // ok: cu-warp-intrinsic
  const int shfl_down_width = 16;
  // ok: cu-warp-intrinsic
  return shfl_helper(v, shfl_down_width);
}

// ok: cu-warp-intrinsic
const char* kKernelName = "__shfl_down_sync warp reduce";

// The CPU reference reduces with a loop.
// ok: cu-warp-intrinsic
float row_sum_cpu(const float* row, int cols) { float s = 0.f; for (int j = 0; j < cols; ++j) s += row[j]; return s; }
