import torch

from .cuda_ops import smooth_cuda


def smooth_cpu(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.avg_pool1d(x, 3, 1, 1)


def smooth(x: torch.Tensor) -> torch.Tensor:
    # The trap: the same call without its check loads the kernels' module on a Mac.
    y = smooth_cuda(x)
    return smooth_cpu(y)
