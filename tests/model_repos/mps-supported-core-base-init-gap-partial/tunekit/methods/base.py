import torch
from torch import nn


class SpectralBase(nn.Module):
    """What the spectral adapters share: every one of them starts from the base weight's spectrum."""

    def __init__(self, base: nn.Linear, rank: int = 8):
        super().__init__()
        self.base = base
        self.down = nn.Linear(base.in_features, rank, bias=False)
        self.up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.up.weight)
        # Every adapter of this family runs this, in double precision, on the base's device.
        w = self.base.weight.detach().to(torch.float64)
        u, s, vh = torch.linalg.svd(w, full_matrices=False)
        with torch.no_grad():
            self.down.weight.copy_(vh[:rank].float())
