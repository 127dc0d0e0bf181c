// Fixture for cu-kernel-launch: the host half of a lab's csrc/upfirdn2d_kernel.cu.
// Comments may show a launch, e.g. blur_kernel<<<grid, block>>>(out, in, n), freely.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// The kernels are defined in upfirdn2d_kernels.cuh; a declaration is not a launch.
// ok: cu-kernel-launch
__global__ void fill_kernel(float* out, float value, int n);

template <typename scalar_t>
__global__ void upfirdn2d_kernel(scalar_t* out, const scalar_t* in, const scalar_t* taps, int up, int down, int n);

template <typename scalar_t, int kBlock>
__global__ void reduce_rows_kernel(const scalar_t* in, scalar_t* out, int rows, int cols);

// The #define line holds a `<<<` token of its own, so it is reported too.
// expect: cu-kernel-launch
#define LAUNCH_FILL(ptr, v, count) fill_kernel<<<((count) + 255) / 256, 256>>>(ptr, v, count)

void fill(float* ptr, float v, int n) {
  // expect: cu-kernel-launch
  fill_kernel<<<(n + 255) / 256, 256>>>(ptr, v, n);
  // expect: cu-kernel-launch
  LAUNCH_FILL(ptr, v, n);
}

void fill_on_stream(float* ptr, float v, int n, cudaStream_t stream) {
  const dim3 block(256);
  const dim3 grid((n + block.x - 1) / block.x);
  // expect: cu-kernel-launch
  fill_kernel<<<grid, block, 0, stream>>>(ptr, v, n);
}

template <typename scalar_t>
void reduce_rows(const scalar_t* in, scalar_t* out, int rows, int cols, cudaStream_t stream) {
  // expect: cu-kernel-launch
  reduce_rows_kernel<scalar_t, 128><<<rows, 128, 128 * sizeof(scalar_t), stream>>>(in, out, rows, cols);
}

torch::Tensor upfirdn2d(const torch::Tensor& input, const torch::Tensor& taps, int up, int down) {
  torch::Tensor out = input;
  const int n = static_cast<int>(input.numel());
  // ok: cu-kernel-launch
  const char* label = "upfirdn2d_kernel<<<grid, block>>>";
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "upfirdn2d_cuda", [&] {
    // expect: cu-kernel-launch
    upfirdn2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, 0>>>(
        out.data_ptr<scalar_t>(), input.data_ptr<scalar_t>(), taps.data_ptr<scalar_t>(), up, down, n);
  });
  return out;
}

// A shift in host code is not a launch.
// ok: cu-kernel-launch
int pack_bits(int hi, int lo) { return (hi << 16) | lo; }

// ok: cu-kernel-launch
bool less_than(int a, int b) { return a < b && b > 0; }

// CPU reference of fill: a plain loop.
void fill_cpu(float* ptr, float v, int n) {
  // ok: cu-kernel-launch
  for (int i = 0; i < n; ++i) ptr[i] = v;
}

// ok: cu-kernel-launch
void fill_dispatch(torch::Tensor t, float v) { fill(t.data_ptr<float>(), v, static_cast<int>(t.numel())); }
