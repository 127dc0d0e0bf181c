"""Fixture for py-op-no-mps-kernel, checked against the newest bundled op-status table (PyTorch 2.11).

Every op flagged here has no MPS kernel in 2.11 (CPU and CUDA only), or is a generic op whose out=
overload has none (missing, inferred: lstsq, frexp); every `ok` op has one, or is composite, or
runs on the CPU explicitly. Docstrings that say torch.linalg.eig(x) are not calls. (Against 1.13,
tests/ops/op_coverage_scan_test.cpp.)
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import linalg


def spectral(a, b, x, v):
    # expect: py-op-no-mps-kernel
    values, vectors = torch.linalg.eig(a)
    # expect: py-op-no-mps-kernel
    q, r = linalg.qr(a)
    # expect: py-op-no-mps-kernel
    ev = torch.linalg.eigvals(a)
    # expect: py-op-no-mps-kernel
    solution = torch.linalg.lstsq(a, b)
    # expect: py-op-no-mps-kernel
    e = torch.linalg.matrix_exp(a)
    # expect: py-op-no-mps-kernel
    singular = torch.linalg.svdvals(a)
    # expect: py-op-no-mps-kernel
    u, s, vh = torch.linalg.svd(a)  # reported as info: PyTorch falls back to the CPU for it on MPS
    # expect: py-op-no-mps-kernel
    nd = torch.special.ndtri(x)
    # expect: py-op-no-mps-kernel
    step = torch.heaviside(x, v)
    # expect: py-op-no-mps-kernel
    pooled = F.fractional_max_pool2d(x, 2, output_size=4)
    return values, vectors, q, r, ev, solution, e, nd, step, pooled


def methods(a, x, n):
    # expect: py-op-no-mps-kernel
    qr = a.geqrf()
    # expect: py-op-no-mps-kernel
    mantissa, exponent = x.frexp()
    # expect: py-op-no-mps-kernel
    multiple = torch.randint(1, 9, (4,)).lcm(n)
    # expect: py-op-no-mps-kernel
    unit = torch.Tensor.heaviside(x, x)
    # todo-expect: py-op-no-mps-kernel
    common = x.mode(0)
    return qr, mantissa, exponent, multiple, unit, common


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
    # ok: py-op-no-mps-kernel
    total = torch.cumsum(x, dim=0)
    # ok: py-op-no-mps-kernel
    d = torch.linalg.det(a)
    # ok: py-op-no-mps-kernel
    spectrum = torch.fft.rfft(x)
    # ok: py-op-no-mps-kernel
    act = F.hardswish(x)
    # ok: py-op-no-mps-kernel
    kth = torch.kthvalue(x, 2)
    # ok: py-op-no-mps-kernel
    low = a.cholesky()
    return y, p, g, s, e, t, up, layer, total, d, spectrum, act, kth, low


def on_cpu_on_purpose(a, x):
    # ok: py-op-no-mps-kernel
    values, vectors = torch.linalg.eig(a.cpu())
    # ok: py-op-no-mps-kernel
    total = torch.special.ndtri(x.to("cpu"))
    # ok: py-op-no-mps-kernel
    q, r = torch.linalg.qr(a.to(device=torch.device("cpu")))
    # ok: py-op-no-mps-kernel
    low = a.cpu().geqrf()
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
    print("torch.linalg.eig(a) has no MPS kernel in 2.11")
    return w, v, c, c2, m


class Matrix:
    def cholesky(self):
        return self

    def factor(self):
        # ok: py-op-no-mps-kernel
        return self.cholesky()
