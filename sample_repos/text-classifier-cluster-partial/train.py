"""Trains the classifier on one device, or on several under torchrun."""
import argparse
import os

import torch

from model import Classifier


def pick_device():
    if torch.cuda.is_available():
        return torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--vocab", type=int, default=30000)
    args = parser.parse_args()

    device = pick_device()
    model = Classifier(args.vocab).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for epoch in range(args.epochs):
        tokens = torch.randint(0, args.vocab, (32, 128), device=device)
        labels = torch.randint(0, 2, (32,), device=device)
        loss = torch.nn.functional.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
