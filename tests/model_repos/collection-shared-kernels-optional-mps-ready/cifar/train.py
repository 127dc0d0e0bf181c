"""CIFAR example: the shared Triton kernels only with --fused, off by default."""
import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fused", action="store_true")
    args = parser.parse_args()
    device = "mps" if torch.backends.mps.is_available() else "cpu"
    x = torch.randn(8, 8, device=device)
    if args.fused:
        from common.kernels import fused_scale

        x = fused_scale(x)
    print(x.sum())


if __name__ == "__main__":
    main()
