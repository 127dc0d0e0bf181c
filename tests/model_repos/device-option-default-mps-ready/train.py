import argparse

import torch


def run(device: str = "cuda" if torch.cuda.is_available() else "cpu") -> None:
    model = torch.nn.Linear(4, 2).to(device)
    model(torch.randn(3, 4, device=device))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    run(args.device)


if __name__ == "__main__":
    main()
