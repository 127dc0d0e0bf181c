// Fused layer-norm extension of a lab repository (csrc/layer_norm_cuda.cu), its stream code.
// Comments may say at::cuda::getCurrentCUDAStream() or cudaStream_t freely.
// ok: cu-cuda-stream
#include <torch/extension.h>
// ok: cu-cuda-stream
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

void scale(at::Tensor& x, float s) {
  // expect: cu-cuda-stream
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  scale_kernel<<<(x.numel() + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), s, x.numel());
  // ok: cu-cuda-stream
  const auto device_index = x.device().index();
}

// expect: cu-cuda-stream
void launch_on(cudaStream_t stream, float* p, int n) {
  scale_kernel<<<1, 32, 0, stream>>>(p, 2.f, n);
}

void copy_on_side_stream(const at::Tensor& src, at::Tensor& dst) {
  // expect: cu-cuda-stream
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  {
    // expect: cu-cuda-stream
    c10::cuda::CUDAStreamGuard guard(side);
    // ok: cu-cuda-stream
    AT_CUDA_CHECK(cudaMemcpyAsync(dst.data_ptr(), src.data_ptr(), src.numel() * 4, cudaMemcpyDeviceToDevice));
  }
  // expect: cu-cuda-stream
  C10_CUDA_CHECK(cudaStreamSynchronize(side));
}

void time_it(at::Tensor& t) {
  // expect: cu-cuda-stream
  at::cuda::CUDAEvent done;
  // expect: cu-cuda-stream
  done.record(getCurrentCUDAStream());
  // expect: cu-cuda-stream
  cudaEvent_t start;
  // expect: cu-cuda-stream
  cudaEventRecord(start, 0);
}

void not_streams(const at::Tensor& x) {
  // ok: cu-cuda-stream
  const at::cuda::OptionalCUDAGuard device_guard(x.device());
  // ok: cu-cuda-stream
  at::mps::getDefaultMPSStream()->synchronize(at::mps::SyncType::COMMIT_AND_WAIT);
  // ok: cu-cuda-stream
  const char* what = "cudaStream_t and getCurrentCUDAStream() in a string";
  // ok: cu-cuda-stream
  int upstream_count = 0, downstream = upstream_count;
  // ok: cu-cuda-stream
  std::ostream& log = std::cerr;
}
