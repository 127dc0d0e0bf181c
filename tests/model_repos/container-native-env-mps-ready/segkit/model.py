import torch
from torch import nn


class SegModel(nn.Module):
    def __init__(self, classes: int = 4):
        super().__init__()
        self.conv = nn.Conv2d(3, classes, kernel_size=3, padding=1)

    def forward(self, x):
        return self.conv(x).softmax(dim=1)


def predict(model, images, device="cpu"):
    model = model.to(device)
    with torch.no_grad():
        return model(images.to(device)).argmax(dim=1)
