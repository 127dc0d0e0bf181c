"""Fixture for py-tensor-dot-cuda.

Docstrings may say model.cuda() or tensor.cuda(0) without being findings.
"""
import torch
import torch.nn as nn
from numba import cuda


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        # ok: py-tensor-dot-cuda
        self.cuda_ok = torch.cuda.is_available()

    # An override that delegates to nn.Module.cuda: the caller's `.cuda()` is the finding.
    # ok: py-tensor-dot-cuda
    def cuda(self, device=None):
        # ok: py-tensor-dot-cuda
        return super().cuda(device)

    # ok: py-tensor-dot-cuda
    def to_cuda(self):
        # expect: py-tensor-dot-cuda
        if torch.cuda.is_available():
            device = torch.device("cuda")
        elif torch.backends.mps.is_available():
            device = torch.device("mps")
        else:
            device = torch.device("cpu")
        return self.to(device)


def to_cuda_tensor(x):
    # ok: py-tensor-dot-cuda
    return x.to_cuda()


def train(model, loader, args, local_rank):
    # expect: py-tensor-dot-cuda
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    model = model.to(device)
    # expect: py-tensor-dot-cuda
    model.cuda(local_rank)
    # expect: py-tensor-dot-cuda
    model = Net().cuda(device=local_rank)
    for images, labels in loader:
        # expect: py-tensor-dot-cuda
        images = images.to(device, non_blocking=True)
        # expect: py-tensor-dot-cuda
        labels = labels.to(device)
        # expect: py-tensor-dot-cuda
        labels = labels.cuda(device=1, non_blocking=True)
    # expect: py-tensor-dot-cuda
    noise = torch.randn(8, 4).to(device).half()
    # expect: py-tensor-dot-cuda
    model.to(device).eval()
    return noise


def on_device(model, batch, device):
    # The parameter `device` is reused, not a new device choice.
    # expect: py-tensor-dot-cuda
    model = model.to(device)
    # expect: py-tensor-dot-cuda
    return model(batch.to(device, non_blocking=True))


def shadowed(model, args):
    device = args.device
    # A local `device` of unknown value: the site is left for a person (no second choice is written).
    # expect: py-tensor-dot-cuda
    return model.cuda(), device


def guarded(model, x, args, device):
    if torch.cuda.is_available():
        # expect-guarded: py-tensor-dot-cuda
        model.cuda()
    # expect-guarded: py-tensor-dot-cuda
    x = x.cuda() if torch.cuda.is_available() else x
    if args.cuda:
        # expect-guarded: py-tensor-dot-cuda
        x = x.cuda()
    if device.type == "cuda":
        # expect-guarded: py-tensor-dot-cuda
        x = x.cuda(device)
    if x.is_cuda:
        # expect-guarded: py-tensor-dot-cuda
        model = model.cuda()
    if not torch.cuda.is_available():
        model = model.cpu()
    else:
        # expect-guarded: py-tensor-dot-cuda
        model = model.cuda()
    return model, x


def early_return(x):
    if not torch.cuda.is_available():
        return x
    # expect-guarded: py-tensor-dot-cuda
    return x.cuda()


def negatives(x, device):
    # ok: py-tensor-dot-cuda
    available = torch.cuda.is_available()
    # ok: py-tensor-dot-cuda
    on_gpu = x.is_cuda
    # ok: py-tensor-dot-cuda
    x = x.to(device)
    # ok: py-tensor-dot-cuda
    print("call model.cuda() to move it")
    # model.cuda() in a comment is not a call
    # ok: py-tensor-dot-cuda
    x = x.cpu()
    # ok: py-tensor-dot-cuda
    arr = cuda.to_device(x.numpy())
    # ok: py-tensor-dot-cuda
    cuda.synchronize()
    return available, on_gpu, arr


# ok: py-tensor-dot-cuda
@cuda.jit
def add_kernel(a, b, out):
    i = cuda.grid(1)
    out[i] = a[i] + b[i]
