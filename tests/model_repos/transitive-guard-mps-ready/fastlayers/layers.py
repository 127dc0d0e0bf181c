import torch

# The Triton kernels are imported only where CUDA is available; elsewhere plain PyTorch runs.
if torch.cuda.is_available():
    from . import triton_kernels
else:
    triton_kernels = None


def gelu(x: torch.Tensor) -> torch.Tensor:
    if triton_kernels is not None and x.is_cuda:
        return triton_kernels.gelu(x)
    return torch.nn.functional.gelu(x)
