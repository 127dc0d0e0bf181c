"""Trains a tiny two-layer block on random tokens to check the norm layer end to end."""
import argparse
import logging

import torch
from torch import nn

from rmsnorm import RMSNorm

log = logging.getLogger(__name__)


def pick_device(name: str) -> torch.device:
    if name != "auto":
        return torch.device(name)
    if torch.backends.mps.is_available():
        return torch.device("mps")
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = RMSNorm(dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.proj(self.norm(x))


def main():
    parser = argparse.ArgumentParser(description="RMSNorm smoke training (cuda, mps or cpu)")
    parser.add_argument("--device", default="auto", help="auto picks mps, then cuda, then cpu")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    device = pick_device(args.device)
    model = Block(64).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        x = torch.randn(8, 16, 64, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
