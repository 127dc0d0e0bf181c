import torch

if __name__ == "__main__":
    model = torch.nn.Linear(4, 4).cuda()
    print(model(torch.zeros(1, 4).cuda()))
