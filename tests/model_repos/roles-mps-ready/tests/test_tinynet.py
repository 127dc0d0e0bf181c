import torch

from tinynet import TinyNet


def test_forward_on_gpu():
    model = TinyNet().cuda()
    assert model(torch.zeros(1, 8, device="cuda")).shape == (1, 2)
