import torch
from torch import nn

from .base import SpectralBase


class SpectralAdapter(SpectralBase):
    """The spectral adapter: a small trainable update added to a frozen layer."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + self.up(self.down(x))
