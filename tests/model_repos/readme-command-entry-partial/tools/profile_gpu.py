# The trap: a script of the same shape beside it that the README does not mention stays tooling.
import torch


def main():
    model = torch.nn.Linear(4, 4)
    model = model.cuda()
    return model


if __name__ == "__main__":
    main()
