# The trap: a maintainer's script beside it that no manifest installs stays tooling.
import torch


def main():
    model = torch.nn.Linear(4, 4)
    model = model.cuda()
    torch.cuda.synchronize()
    return model


if __name__ == "__main__":
    main()
