import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.net = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)
