import torch
from torch import nn

from .base import SpectralBase


class FourierAdapter(SpectralBase):
    """The fourier adapter: the spectral update with its input in the frequency domain."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + self.up(self.down(torch.fft.fft(x).real))
