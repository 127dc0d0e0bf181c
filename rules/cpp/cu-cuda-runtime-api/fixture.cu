// Fixture for cu-cuda-runtime-api: a lab's csrc/buffer_pool.cu and a small PTX loader.
// Comments may say cudaMalloc(&ptr, bytes) or cuLaunchKernel(fn, ...) freely.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

constexpr int kMaxBuffers = 64;

struct BufferPool {
  void* buffers[kMaxBuffers] = {};
  int count = 0;
  cudaStream_t stream = nullptr;
};

// A lab's own helper named after CUDA, snake case: not the runtime API.
// ok: cu-cuda-runtime-api
void cuda_free_all_buffers(BufferPool& pool);

void* pool_alloc(BufferPool& pool, size_t bytes) {
  void* ptr = nullptr;
  // expect: cu-cuda-runtime-api
  cudaError_t cudaStatus = cudaMalloc(&ptr, bytes);
  // ok: cu-cuda-runtime-api
  TORCH_CHECK(cudaStatus == cudaSuccess, "cudaMalloc failed for ", bytes, " bytes");
  pool.buffers[pool.count++] = ptr;
  return ptr;
}

void upload(BufferPool& pool, void* dst, const float* host, size_t n) {
  // expect: cu-cuda-runtime-api
  C10_CUDA_CHECK(cudaMemcpyAsync(dst, host, n * sizeof(float), cudaMemcpyHostToDevice, pool.stream));
  // expect: cu-cuda-runtime-api
  cudaStreamSynchronize(pool.stream);
}

void check_last_launch() {
  // expect: cu-cuda-runtime-api
  const cudaError_t err = cudaGetLastError();
  // expect: cu-cuda-runtime-api
  TORCH_CHECK(err == cudaSuccess, "kernel failed: ", cudaGetErrorString(err));
}

int device_sm_count(int device) {
  cudaDeviceProp prop;
  // expect: cu-cuda-runtime-api
  cudaGetDeviceProperties(&prop, device);
  return prop.multiProcessorCount;
}

int visible_devices() {
  int n = 0;
  // expect: cu-cuda-runtime-api
  AT_CUDA_CHECK(cudaGetDeviceCount(&n));
  return n;
}

// Unified memory prefetch for a templated buffer (the call has no declaration in view).
template <typename T>
void prefetch(T* managed, size_t n, int device, cudaStream_t stream) {
  // expect: cu-cuda-runtime-api
  cudaMemPrefetchAsync(managed, n * sizeof(T), device, stream);
}

void cuda_free_all_buffers(BufferPool& pool) {
  // ok: cu-cuda-runtime-api
  // every buffer came from cudaMalloc above, so cudaFree(p) releases it
  for (int i = 0; i < pool.count; ++i) {
    // expect: cu-cuda-runtime-api
    cudaFree(pool.buffers[i]);
  }
  pool.count = 0;
}

// Driver API. The loader is built without the toolkit's headers (libcuda is opened at run
// time), so it repeats the two handle types from cuda.h.
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;

void launch_from_ptx(const char* ptx_path, void** args, unsigned grid, unsigned block) {
  CUmodule module;
  CUfunction fn;
  // expect: cu-cuda-runtime-api
  cuInit(0);
  // expect: cu-cuda-runtime-api
  cuModuleLoad(&module, ptx_path);
  // expect: cu-cuda-runtime-api
  cuModuleGetFunction(&fn, module, "fused_softmax");
  // expect: cu-cuda-runtime-api
  cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr);
  // expect: cu-cuda-runtime-api
  cuCtxSynchronize();
}

// The PyTorch way to get device memory: no runtime call.
torch::Tensor scratch_like(const torch::Tensor& x) {
  // ok: cu-cuda-runtime-api
  torch::Tensor out = torch::empty_like(x);
  // ok: cu-cuda-runtime-api
  const char* hint = "cudaMemcpyAsync needs a pinned host buffer";
  // ok: cu-cuda-runtime-api
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  // ok: cu-cuda-runtime-api
  torch::Tensor host_copy = x.to(torch::kCPU);
  // ok: cu-cuda-runtime-api
  torch::Tensor on_mps = x.to(torch::kMPS);
  (void)hint;
  (void)stream;
  return out;
}

// A look-alike user function with a camel-case name that is not a CUDA API.
// ok: cu-cuda-runtime-api
int cudaCheckAvailable(int requested) { return requested > 0 ? requested : 0; }
int pick_workers(int requested) {
  // ok: cu-cuda-runtime-api
  return cudaCheckAvailable(requested);
}
