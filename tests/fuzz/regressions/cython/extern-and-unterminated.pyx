cdef extern from "cuda_runtime.h":
    int cudaMalloc(void** p, size_t n)
cimport cuda.ccudart as c, 
from . cimport
x = r"unterminated
"""never closed
\
