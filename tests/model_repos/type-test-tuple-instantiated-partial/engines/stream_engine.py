import torch

from .base import Engine


class _StreamEngine(Engine):
    # Runs each step on a side stream.
    def step(self, x: torch.Tensor) -> torch.Tensor:
        with torch.cuda.stream(torch.cuda.Stream()):
            return x * 2
