import torch

# Vendored kernels, imported whenever the package is: they run on every machine.
from third_party.fastops import fused_gelu


class Segmenter(torch.nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.proj = torch.nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return fused_gelu(self.proj(x))
