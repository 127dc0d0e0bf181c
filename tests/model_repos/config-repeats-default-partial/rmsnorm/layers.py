"""RMSNorm layer: the fused kernel when it was built and the input is on a CUDA device,
plain PyTorch otherwise (CPU, MPS)."""
import torch
from torch import nn

try:
    import rmsnorm_ext  # built by setup.py where a CUDA toolkit exists
except ImportError:
    rmsnorm_ext = None


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    if rmsnorm_ext is not None and x.is_cuda:
        return rmsnorm_ext.forward(x, weight, eps)
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)
