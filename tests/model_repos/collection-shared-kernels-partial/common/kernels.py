"""Triton kernels shared by the examples."""
import triton
import triton.language as tl


@triton.jit
def _scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass


def fused_scale(x):
    return x * 2.0
