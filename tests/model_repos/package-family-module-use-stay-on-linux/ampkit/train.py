import argparse

import torch

from .scalers import NativeScaler


def pick_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1)
    args = parser.parse_args()
    device = pick_device()
    model = torch.nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = NativeScaler(device.type)
    for _ in range(args.steps):
        loss = model(torch.randn(8, 4, device=device)).sum()
        scaler(loss, optimizer)


if __name__ == "__main__":
    main()
