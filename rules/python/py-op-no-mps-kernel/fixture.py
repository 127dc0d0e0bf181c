"""Fixture for py-op-no-mps-kernel, checked against Debian's PyTorch 1.13 native_functions.yaml.

Every op flagged here has no MPS kernel in 1.13 (CPU and CUDA only); every `ok` op has one, or is
composite, or runs on the CPU explicitly. Docstrings that say torch.cumsum(x) are not calls.
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import linalg


def spectral(a, x, signal):
    # expect: py-op-no-mps-kernel
    values, vectors = torch.linalg.eig(a)
    # expect: py-op-no-mps-kernel
    q, r = linalg.qr(a)
    # expect: py-op-no-mps-kernel
    d = torch.linalg.det(a)
    # expect: py-op-no-mps-kernel
    ev = torch.linalg.eigvals(a)
    # expect: py-op-no-mps-kernel
    spectrum = torch.fft.rfft(signal)
    # expect: py-op-no-mps-kernel
    total = torch.cumsum(x, dim=0)
    # expect: py-op-no-mps-kernel
    scaled = torch.special.erfcx(x)
    # expect: py-op-no-mps-kernel
    act = F.hardswish(x)
    return values, vectors, q, r, d, ev, spectrum, total, scaled, act


def methods(a, x):
    # expect: py-op-no-mps-kernel
    low = a.cholesky()
    # expect: py-op-no-mps-kernel
    inv = x.erfinv()
    # expect: py-op-no-mps-kernel
    running = torch.randn(4, 4).cumsum(0)
    # expect: py-op-no-mps-kernel
    flat = torch.Tensor.lgamma(x)
    # todo-expect: py-op-no-mps-kernel
    steps = x.cumsum(0)
    return low, inv, running, flat, steps


def guarded(a):
    if torch.cuda.is_available():
        # expect-guarded: py-op-no-mps-kernel
        return torch.linalg.eig(a)
    return None


def supported(a, b, x, frame):
    # ok: py-op-no-mps-kernel
    y = torch.matmul(a, b)
    # ok: py-op-no-mps-kernel
    p = torch.softmax(x, dim=-1)
    # ok: py-op-no-mps-kernel
    g = F.gelu(x)
    # ok: py-op-no-mps-kernel
    s = torch.add(a, b)
    # ok: py-op-no-mps-kernel
    e = torch.einsum("ij,jk->ik", a, b)
    # ok: py-op-no-mps-kernel
    t = torch.tensor([1.0, 2.0])
    # ok: py-op-no-mps-kernel
    up = F.interpolate(frame, scale_factor=2, mode="bicubic")
    # ok: py-op-no-mps-kernel
    layer = torch.nn.Linear(4, 4)
    return y, p, g, s, e, t, up, layer


def on_cpu_on_purpose(a, x):
    # ok: py-op-no-mps-kernel
    values, vectors = torch.linalg.eig(a.cpu())
    # ok: py-op-no-mps-kernel
    total = torch.cumsum(x.to("cpu"), 0)
    # ok: py-op-no-mps-kernel
    q, r = torch.linalg.qr(a.to(device=torch.device("cpu")))
    # ok: py-op-no-mps-kernel
    low = a.cpu().cholesky()
    return values.to(a.device), vectors, total, q, r, low


def not_torch(arr, frame, matrix):
    # ok: py-op-no-mps-kernel
    w, v = np.linalg.eig(arr)
    # ok: py-op-no-mps-kernel
    c = np.cumsum(arr)
    # ok: py-op-no-mps-kernel
    c2 = arr.cumsum()
    # ok: py-op-no-mps-kernel
    m = frame.median()
    # ok: py-op-no-mps-kernel
    print("torch.linalg.eig(a) has no MPS kernel in 1.13")
    return w, v, c, c2, m


class Matrix:
    def cholesky(self):
        return self

    def factor(self):
        # ok: py-op-no-mps-kernel
        return self.cholesky()
