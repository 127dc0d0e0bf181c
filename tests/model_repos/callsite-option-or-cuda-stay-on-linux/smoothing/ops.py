import torch

from .cuda_ops import smooth_cuda


def smooth_cpu(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.avg_pool1d(x, 3, 1, 1)


def smooth(x: torch.Tensor, fused: bool = True) -> torch.Tensor:
    # The trap: the other way in is an option that is on by default, so a Mac takes it too.
    if fused or x.is_cuda:
        return smooth_cuda(x)
    return smooth_cpu(x)
