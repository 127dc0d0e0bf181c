"""CIFAR example: uses the shared Triton kernels on every step."""
import torch

from common.kernels import fused_scale


def main():
    device = "mps" if torch.backends.mps.is_available() else "cpu"
    x = torch.randn(8, 8, device=device)
    print(fused_scale(x).sum())


if __name__ == "__main__":
    main()
