import torch
from torch import nn


class PromptAdapter(nn.Module):
    """The prompt adapter: a small trainable update added to a frozen layer."""

    def __init__(self, base: nn.Linear, rank: int = 8):
        super().__init__()
        self.base = base
        self.down = nn.Linear(base.in_features, rank, bias=False)
        self.up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.up.weight)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + self.up(self.down(x))
