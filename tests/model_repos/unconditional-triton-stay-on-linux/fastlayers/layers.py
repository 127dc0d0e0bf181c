"""The trap: the same kernels imported at module level, with no other path."""
import torch

from . import triton_kernels


def gelu(x: torch.Tensor) -> torch.Tensor:
    return triton_kernels.gelu(x)
