import torch
from torch import nn


class SpectralBase(nn.Module):
    """What the spectral adapters share; the initialisation from the spectrum is optional."""

    def __init__(self, base: nn.Linear, rank: int = 8):
        super().__init__()
        self.base = base
        self.down = nn.Linear(base.in_features, rank, bias=False)
        self.up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.up.weight)

    @torch.no_grad()
    def initialise_from_spectrum(self):
        # An optional initialisation, in double precision, on the base's device.
        w = self.base.weight.detach().to(torch.float64)
        u, s, vh = torch.linalg.svd(w, full_matrices=False)
        self.down.weight.copy_(vh[: self.down.out_features].float())
