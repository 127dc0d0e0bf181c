import torch


def scale(x: torch.Tensor, s: float = 0.5) -> torch.Tensor:
    return x * s
