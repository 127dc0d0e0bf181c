import torch
from torch import nn

device = "mps" if torch.backends.mps.is_available() else "cpu"

if __name__ == "__main__":
    model = nn.Linear(784, 10).to(device)
    print(model(torch.zeros(1, 784, device=device)))
