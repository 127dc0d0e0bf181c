import triton
import triton.language as tl


@triton.jit
def _gelu_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass


def fused_gelu(x):
    return x
