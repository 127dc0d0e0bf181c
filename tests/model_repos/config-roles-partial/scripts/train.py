"""The lab's training entry point lives in scripts/: by convention tooling, here the main program."""
import torch

from trainer import Net

if __name__ == "__main__":
    model = Net().cuda()
    print(model(torch.zeros(1, 4).cuda()))
