import triton
import triton.language as tl


@triton.jit
def _copy_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass


def run():
    return None
