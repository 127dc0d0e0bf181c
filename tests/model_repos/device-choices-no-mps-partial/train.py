import argparse

import torch


def run(device: str) -> None:
    model = torch.nn.Linear(4, 2).to(device)
    model(torch.randn(3, 4, device=device))


def main() -> None:
    parser = argparse.ArgumentParser()
    # The trap: the option has no way to pass `mps`.
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu", choices=["cuda", "cpu"])
    args = parser.parse_args()
    run(args.device)
    # And the same expression in the program itself, which no option overrides.
    fallback = "cuda" if torch.cuda.is_available() else "cpu"
    run(fallback)


if __name__ == "__main__":
    main()
