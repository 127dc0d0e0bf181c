import torch

from tunekit import infer_device, wrap


def test_wrap_runs_on_the_inferred_device():
    device = infer_device()
    if device == "mps":
        torch.mps.manual_seed(0)
    model = wrap(torch.nn.Sequential(torch.nn.Linear(4, 4))).to(device)
    assert model(torch.ones(2, 4, device=device)).shape == (2, 4)
