"""UNet for binary / multi-class segmentation of microscopy tiles.

Follows the original encoder-decoder layout with two small changes: BatchNorm
after every conv and bilinear upsampling instead of transposed convs (the
latter gave checkerboard artefacts on our cuda runs).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Module):
    def __init__(self, in_ch: int, out_ch: int):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(in_ch, out_ch, 3, padding=1, bias=False),
            nn.BatchNorm2d(out_ch),
            nn.ReLU(inplace=True),
            nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False),
            nn.BatchNorm2d(out_ch),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.net(x)


class Up(nn.Module):
    def __init__(self, in_ch: int, out_ch: int):
        super().__init__()
        self.conv = DoubleConv(in_ch, out_ch)

    def forward(self, x, skip):
        x = F.interpolate(x, size=skip.shape[-2:], mode="bilinear", align_corners=False)
        return self.conv(torch.cat([skip, x], dim=1))


class UNet(nn.Module):
    """Four-level UNet. `base` controls the width of the first stage."""

    def __init__(self, in_channels: int = 3, num_classes: int = 2, base: int = 32):
        super().__init__()
        widths = [base, base * 2, base * 4, base * 8, base * 16]
        self.inc = DoubleConv(in_channels, widths[0])
        self.downs = nn.ModuleList(
            [DoubleConv(widths[i], widths[i + 1]) for i in range(4)]
        )
        self.ups = nn.ModuleList(
            [Up(widths[i + 1] + widths[i], widths[i]) for i in reversed(range(4))]
        )
        self.head = nn.Conv2d(widths[0], num_classes, kernel_size=1)

    def forward(self, x):
        skips = [self.inc(x)]
        for down in self.downs:
            skips.append(down(F.max_pool2d(skips[-1], 2)))
        x = skips.pop()
        for up in self.ups:
            x = up(x, skips.pop())
        return self.head(x)


if __name__ == "__main__":
    # quick shape check on the first cuda card
    dev = torch.device("cuda:0")
    net = UNet().to(dev)
    x = torch.randn(2, 3, 256, 256).to("cuda")
    print(net(x).shape)
