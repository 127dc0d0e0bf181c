#include "cuda_prelude.h"

namespace mpsready {

std::string_view cuda_prelude() {
  // Kept on few lines: the #line directive after it resets numbering anyway.
  static constexpr std::string_view text = R"PRELUDE(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline
#define __restrict__
typedef decltype(sizeof(0)) size_t;
struct dim3 { unsigned x, y, z; __host__ __device__ dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef int cudaError_t;
enum cudaError_enum_ { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
                      cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
struct cudaDeviceProp { char name[256]; size_t totalGlobalMem; int major, minor, multiProcessorCount, warpSize; };
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st* CUcontext;
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
__host__ __device__ float2 make_float2(float, float);
__host__ __device__ float4 make_float4(float, float, float, float);
extern "C" int cudaConfigureCall(dim3 gridSize, dim3 blockSize, size_t sharedSize = 0, cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void* stream = 0);
struct __mpsready_uint3 { unsigned x, y, z; };
extern const __device__ __mpsready_uint3 threadIdx, blockIdx, blockDim, gridDim;
extern const __device__ int warpSize;
#define MPSREADY_ANY_FN(name) template <typename... A> __host__ __device__ cudaError_t name(A&&...);
MPSREADY_ANY_FN(cudaMalloc) MPSREADY_ANY_FN(cudaMallocManaged) MPSREADY_ANY_FN(cudaMallocHost)
MPSREADY_ANY_FN(cudaMallocAsync) MPSREADY_ANY_FN(cudaFree) MPSREADY_ANY_FN(cudaFreeHost)
MPSREADY_ANY_FN(cudaFreeAsync) MPSREADY_ANY_FN(cudaMemcpy) MPSREADY_ANY_FN(cudaMemcpyAsync)
MPSREADY_ANY_FN(cudaMemcpy2D) MPSREADY_ANY_FN(cudaMemcpyToSymbol) MPSREADY_ANY_FN(cudaMemcpyFromSymbol)
MPSREADY_ANY_FN(cudaMemset) MPSREADY_ANY_FN(cudaMemsetAsync) MPSREADY_ANY_FN(cudaDeviceSynchronize)
MPSREADY_ANY_FN(cudaDeviceReset) MPSREADY_ANY_FN(cudaSetDevice) MPSREADY_ANY_FN(cudaGetDevice)
MPSREADY_ANY_FN(cudaGetDeviceCount) MPSREADY_ANY_FN(cudaGetDeviceProperties) MPSREADY_ANY_FN(cudaDeviceGetAttribute)
MPSREADY_ANY_FN(cudaStreamCreate) MPSREADY_ANY_FN(cudaStreamCreateWithFlags) MPSREADY_ANY_FN(cudaStreamDestroy)
MPSREADY_ANY_FN(cudaStreamSynchronize) MPSREADY_ANY_FN(cudaStreamWaitEvent) MPSREADY_ANY_FN(cudaEventCreate)
MPSREADY_ANY_FN(cudaEventRecord) MPSREADY_ANY_FN(cudaEventSynchronize) MPSREADY_ANY_FN(cudaEventElapsedTime)
MPSREADY_ANY_FN(cudaEventDestroy) MPSREADY_ANY_FN(cudaGetLastError) MPSREADY_ANY_FN(cudaPeekAtLastError)
MPSREADY_ANY_FN(cudaGetErrorString) MPSREADY_ANY_FN(cudaLaunchKernel) MPSREADY_ANY_FN(cudaLaunchCooperativeKernel)
MPSREADY_ANY_FN(cudaFuncSetAttribute) MPSREADY_ANY_FN(cudaOccupancyMaxActiveBlocksPerMultiprocessor)
MPSREADY_ANY_FN(cudaHostAlloc) MPSREADY_ANY_FN(cudaHostRegister) MPSREADY_ANY_FN(cudaPointerGetAttributes)
MPSREADY_ANY_FN(cudaGraphLaunch) MPSREADY_ANY_FN(cudaStreamBeginCapture) MPSREADY_ANY_FN(cudaStreamEndCapture)
MPSREADY_ANY_FN(cuInit) MPSREADY_ANY_FN(cuLaunchKernel) MPSREADY_ANY_FN(cuModuleLoad) MPSREADY_ANY_FN(cuModuleLoadData)
MPSREADY_ANY_FN(cuModuleGetFunction) MPSREADY_ANY_FN(cuCtxCreate) MPSREADY_ANY_FN(cuCtxSynchronize)
MPSREADY_ANY_FN(cuMemAlloc) MPSREADY_ANY_FN(cuMemFree) MPSREADY_ANY_FN(cuMemcpyHtoD) MPSREADY_ANY_FN(cuMemcpyDtoH)
MPSREADY_ANY_FN(cuDeviceGet) MPSREADY_ANY_FN(cuStreamSynchronize) MPSREADY_ANY_FN(cudaMemPrefetchAsync)
#undef MPSREADY_ANY_FN
#define MPSREADY_DEVICE_FN(name) template <typename... A> __device__ float name(A&&...);
MPSREADY_DEVICE_FN(rsqrtf) MPSREADY_DEVICE_FN(sqrtf) MPSREADY_DEVICE_FN(expf) MPSREADY_DEVICE_FN(__expf)
MPSREADY_DEVICE_FN(logf) MPSREADY_DEVICE_FN(__logf) MPSREADY_DEVICE_FN(tanhf) MPSREADY_DEVICE_FN(powf)
MPSREADY_DEVICE_FN(fabsf) MPSREADY_DEVICE_FN(fmaxf) MPSREADY_DEVICE_FN(fminf) MPSREADY_DEVICE_FN(__fdividef)
MPSREADY_DEVICE_FN(atomicAdd) MPSREADY_DEVICE_FN(atomicMax) MPSREADY_DEVICE_FN(atomicMin) MPSREADY_DEVICE_FN(atomicCAS)
MPSREADY_DEVICE_FN(atomicExch) MPSREADY_DEVICE_FN(__ldg) MPSREADY_DEVICE_FN(__float2half) MPSREADY_DEVICE_FN(__half2float)
MPSREADY_DEVICE_FN(__syncthreads) MPSREADY_DEVICE_FN(__threadfence)
#undef MPSREADY_DEVICE_FN
namespace at {
struct Tensor {
  template <typename... A> Tensor(A&&...);
  template <typename T = float, typename... A> T* data_ptr(A&&...) const;
  template <typename T = float, typename... A> T* data(A&&...) const;
  template <typename... A> long size(A&&...) const;
  template <typename... A> long stride(A&&...) const;
  long numel() const; long dim() const; int scalar_type() const; bool is_cuda() const;
  bool is_contiguous() const; Tensor contiguous() const; int device() const; int options() const;
  template <typename... A> Tensor to(A&&...) const;
  template <typename... A> Tensor view(A&&...) const;
};
enum DeviceType { kCPU, kCUDA, kMPS };
enum ScalarType { Half, Float, Double, BFloat16, Int, Long, Byte, Bool };
}  // namespace at
namespace at {
#define MPSREADY_ANY_TENSOR_FN(name) template <typename... A> Tensor name(A&&...);
MPSREADY_ANY_TENSOR_FN(empty) MPSREADY_ANY_TENSOR_FN(empty_like) MPSREADY_ANY_TENSOR_FN(zeros)
MPSREADY_ANY_TENSOR_FN(zeros_like) MPSREADY_ANY_TENSOR_FN(ones) MPSREADY_ANY_TENSOR_FN(ones_like)
MPSREADY_ANY_TENSOR_FN(full) MPSREADY_ANY_TENSOR_FN(randn) MPSREADY_ANY_TENSOR_FN(rand)
MPSREADY_ANY_TENSOR_FN(arange) MPSREADY_ANY_TENSOR_FN(from_blob) MPSREADY_ANY_TENSOR_FN(matmul)
MPSREADY_ANY_TENSOR_FN(cat) MPSREADY_ANY_TENSOR_FN(stack) MPSREADY_ANY_TENSOR_FN(relu)
#undef MPSREADY_ANY_TENSOR_FN
namespace cuda { template <typename... A> cudaStream_t getCurrentCUDAStream(A&&...); }
}  // namespace at
namespace torch { using namespace at; }
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_CHECK_ARG(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define AT_ASSERTM(cond, ...) ((void)(cond))
#define AT_ASSERT(cond, ...) ((void)(cond))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define C10_CUDA_CHECK(expr) ((void)(expr))
#define AT_CUDA_CHECK(expr) ((void)(expr))
struct __mpsready_module { template <typename... A> __mpsready_module& def(A&&...); };
#define PYBIND11_MODULE(name, m) void __mpsready_pybind_module(__mpsready_module& m)
struct __mpsready_library { template <typename... A> __mpsready_library& def(A&&...); template <typename... A> __mpsready_library& impl(A&&...); };
#define TORCH_LIBRARY(ns, m) void __mpsready_library_##ns(__mpsready_library& m)
#define TORCH_LIBRARY_IMPL(ns, key, m) void __mpsready_library_impl_##ns##_##key(__mpsready_library& m)
#define MPSREADY_DISPATCH_BODY(...) [&] { using scalar_t = float; return __VA_ARGS__(); }()
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(S1, TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(S1, TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(S1, S2, TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) MPSREADY_DISPATCH_BODY(__VA_ARGS__)
)PRELUDE";
  return text;
}

}  // namespace mpsready
