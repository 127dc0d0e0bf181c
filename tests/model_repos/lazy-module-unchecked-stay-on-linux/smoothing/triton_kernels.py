import torch

try:
    import triton
except ImportError:
    raise RuntimeError("the Triton kernels need `pip install triton`")


def smooth_kernel(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    triton.cdiv(x.numel(), 1024)
    return out
