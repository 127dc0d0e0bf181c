# Installed as the `imgkit-serve` command: a program of the package, though it sits in scripts/.
import torch


def main():
    model = torch.nn.Linear(4, 4)
    model = model.cuda()
    return model


if __name__ == "__main__":
    main()
