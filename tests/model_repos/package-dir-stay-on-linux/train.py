import torch

from fastkit import TinyNet


def main():
    model = TinyNet()
    return model(torch.randn(2, 4))


if __name__ == "__main__":
    main()
