import torch
from torch import nn


class OrthogonalResidual(nn.Module):
    """Keeps the part of a block's output orthogonal to the residual stream."""

    def __init__(self, block, normalize=True):
        super().__init__()
        self.block = block
        self.normalize = normalize

    def forward(self, residual):
        out = self.block(residual)
        use_norm, dtype = self.normalize, residual.dtype
        if use_norm:
            residual, out = residual.double(), out.double()
        unit = nn.functional.normalize(residual, dim=-1)
        parallel = (out * unit).sum(dim=-1, keepdim=True) * unit
        return residual + (out - parallel).to(dtype)
