# Calls of the CUDA runtime, driver and libraries, a CUDA header, CUDA cimports.
from libc.stdint cimport uintptr_t
# expect: cy-cuda-api
from cuda.bindings cimport cyruntime
# expect: cy-cuda-api
cimport cuda.ccudart as ccudart

# expect: cy-cuda-api
cdef extern from "cuda_runtime.h":
    # expect: cy-cuda-api
    int cudaMalloc(void** ptr, size_t size)
    # expect: cy-cuda-api
    int cudaFree(void* ptr)

# ok: cy-cuda-api
cdef extern from "math.h":
    # ok: cy-cuda-api
    double cumulative(double x)

def device_buffer(size_t n):
    cdef void* p
    # expect: cy-cuda-api
    cudaMalloc(&p, n)
    # expect: cy-cuda-api
    cuLaunchKernel(kernel, 1, 1, 1, 32, 1, 1, 0, stream, args, NULL)
    # expect: cy-cuda-api
    cublasSgemm(handle, 0, 0, m, n, k, &alpha, a, m, b, k, &beta, c, m)
    # ok: cy-cuda-api
    total = cumsum(values)  # cudaFree in a comment
    # ok: cy-cuda-api
    message = "cudaMalloc(failed)"
    # expect: cy-cuda-api
    err, ptr = cudart.cudaMalloc(n)
    return <uintptr_t>p
