import torch

from fastmodel import TinyNet

# An example that imports the package: it stays an example.
model = TinyNet().cuda()
