"""MNIST example: plain PyTorch."""
import torch


def main():
    device = "mps" if torch.backends.mps.is_available() else "cpu"
    x = torch.randn(8, 8, device=device)
    print(torch.relu(x).sum())


if __name__ == "__main__":
    main()
