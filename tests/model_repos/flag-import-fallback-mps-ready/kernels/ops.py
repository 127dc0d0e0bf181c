import torch

try:
    import triton

    HAS_TRITON = True
except ImportError:
    HAS_TRITON = False


def fill(x: torch.Tensor) -> torch.Tensor:
    # The flag is set beside the import fallback: without Triton (a Mac) it is False and the
    # reference below runs.
    if HAS_TRITON:
        triton.cdiv(x.numel(), 1024)
    return x.clone()
